"""The transcript recorder (tests/wire/fake_discord.py) and its renderer (tools/render_transcript.py:
"turns a recorded wire-level test run into an HTML page that looks like a Discord channel: messages,
embeds, buttons, ephemeral notes marked")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.wire.fake_discord import EPHEMERAL
from tests.wire.test_fake_discord import WITHIN, running
from tools.render_transcript import render, render_text, replay

HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)>'
BOT = {"id": "1", "username": "DrawSteelBot", "bot": True}


def _message(message_id: str, content: str = "", **extra: Any) -> dict[str, Any]:
    return {"id": message_id, "channel_id": "9", "author": BOT, "content": content, "flags": 0, **extra}


def _transcript() -> dict[str, Any]:
    tracker = _message(
        "100",
        embeds=[
            {
                "title": "⚔️ Goblin ambush",
                "description": "**Round 1**",
                "color": 0x5865F2,
                "fields": [{"name": "Heroes (1)", "value": f"{HOSTILE} Stamina: 30/30", "inline": False}],
                "footer": {"text": "hero tokens 2"},
            }
        ],
        components=[
            {
                "type": 1,
                "components": [
                    {"type": 2, "style": 1, "label": "Act", "custom_id": "a"},
                    {"type": 2, "style": 4, "label": "End turn", "custom_id": "b", "disabled": True},
                ],
            },
            {"type": 1, "components": [{"type": 3, "custom_id": "s", "placeholder": "Pick a target"}]},
        ],
    )
    edited = {**tracker, "embeds": [{**tracker["embeds"][0], "description": "**Round 2**"}]}
    return {
        "users": {"7": HOSTILE},
        "channels": {"9": "combat"},
        "roles": {},
        "events": [
            {"kind": "send", "message": tracker, "interaction": None},
            {"kind": "send", "message": _message("101", "gone"), "interaction": None},
            {"kind": "mark", "name": "start"},
            {"kind": "invoke", "interaction": "5", "user": HOSTILE, "command": "roll"},
            {"kind": "send", "message": _message("102", f"🎲 <@7> rolled · {HOSTILE}"), "interaction": "5"},
            {"kind": "send", "message": _message("103", "Only for you", flags=EPHEMERAL), "interaction": "5"},
            {"kind": "edit", "message": edited},
            {"kind": "delete", "message_id": "101"},
            {"kind": "mark", "name": "stop"},
            {"kind": "send", "message": _message("104", "after the stop"), "interaction": None},
        ],
    }


def test_the_page_shows_embeds_buttons_and_marks_ephemeral_replies() -> None:
    page = render(_transcript(), with_edited=True, start="start", stop="stop")
    assert 'class="embed" style="border-left-color: #5865f2"' in page
    assert "⚔️ Goblin ambush" in page and "<strong>Round 2</strong>" in page  # the tracker's latest state
    assert "Round 1" not in page
    assert 'class="field-name">Heroes (1)' in page and "hero tokens 2" in page
    assert '<span class="button primary">Act</span>' in page
    assert '<span class="button danger disabled">End turn</span>' in page
    assert 'class="select"><span>Pick a target' in page
    assert page.count("Only you can see this") == 1
    assert page.index("Only for you") < page.index("Only you can see this")
    assert "gone" not in page and "after the stop" not in page
    assert 'used <span class="cmd">/roll</span>' in page


def test_user_text_is_escaped_everywhere() -> None:
    page = render(_transcript(), with_edited=True)
    assert "<script>alert" not in page and "<img" not in page
    escaped = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;"
    # the invoker (above the reply and its followup), the mention, the message text, the tracker's field
    assert page.count(escaped) == 5


def test_without_with_edited_only_the_window_is_shown() -> None:
    shown = replay(_transcript(), start="start", stop="stop")
    assert [s.message["id"] for s in shown] == ["102", "103"]


def test_a_backslash_shows_the_character_after_it_as_it_is() -> None:
    """As Discord does: `\\(` shows `(`, and an escaped `*` or `<` starts no emphasis and no mention."""
    said = r"Ogre strikes Vex \(tier 3\): \*not bold\* \<@7> `\(kept\)`"
    page = render({"events": [{"kind": "send", "message": _message("1", said)}], "users": {"7": "sam"}})
    assert "Ogre strikes Vex (tier 3): *not bold* &lt;@7&gt; <code>\\(kept\\)</code>" in page
    assert "<em>" not in page and "@sam" not in page


def _pinned(*, notice_deleted: bool = False) -> dict[str, Any]:
    """`_transcript` with the tracker pinned: the pin, then Discord's system message (type 6) about it."""
    transcript = _transcript()
    events = transcript["events"]
    at = events.index({"kind": "mark", "name": "stop"})
    notice = _message("106", type=6, message_reference={"message_id": "100"})
    added = [{"kind": "pin", "message_id": "100", "pinned": True}, {"kind": "send", "message": notice}]
    if notice_deleted:
        added.append({"kind": "delete", "message_id": "106"})
    events[at:at] = added
    transcript["bot"] = BOT
    return transcript


def test_a_pin_marks_the_message_and_its_notice_is_the_system_line() -> None:
    page = render(_pinned(), with_edited=True, start="start", stop="stop")
    assert "📌 Pinned" in page
    assert '📌 <span class="author">DrawSteelBot</span> pinned a message to this channel.' in page
    assert "📌 Pinned" not in render(_transcript(), with_edited=True, start="start", stop="stop")


def test_a_deleted_pin_notice_is_not_shown() -> None:
    page = render(_pinned(notice_deleted=True), with_edited=True, start="start", stop="stop")
    assert "📌 Pinned" in page and "pinned a message to this channel" not in page


def test_the_text_shows_what_the_page_shows_without_ids() -> None:
    transcript = _transcript()
    transcript["events"].insert(
        3,
        {
            "kind": "send",
            "message": _message("105", "<@7> · https://discord.com/channels/1/9/100", timestamp="2026-01-09"),
            "interaction": None,
        },
    )
    text = render_text(transcript, with_edited=True, start="start", stop="stop")
    assert text.splitlines()[:4] == ["DrawSteelBot:", "┃ ⚔️ Goblin ambush", "┃ **Round 2**", "┃ Heroes (1)"]
    assert f"┃   {HOSTILE} Stamina: 30/30" in text and "┃ — hero tokens 2" in text
    assert "[Act] [End turn (disabled)]" in text and "[Pick a target ⌄]" in text
    assert f"@{HOSTILE} · https://discord.com/channels/…\n" in text  # mentions by name; no ids, no times
    assert "<@7>" not in text and "2026" not in text and "100" not in text
    assert f"↱ {HOSTILE} used /roll" in text and "DrawSteelBot (only you can see this):\nOnly for you" in text
    assert "⋯" in text and "gone" not in text and "after the stop" not in text


async def test_a_real_wire_run_is_recorded_in_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with running(tmp_path, monkeypatch) as fake:
        fake.recording = True
        panel = await fake.slash("panel")
        await fake.wait_for_callback(panel, within=WITHIN)
        message_id = fake.interactions[panel].response_message_id
        clicked = await fake.click(fake.messages[message_id or 0], "panel:next")
        await fake.wait_for_callback(clicked, within=WITHIN)
        slow = await fake.slash("slow", user=fake.member("dana"))
        await fake.wait_for_followup(slow, within=WITHIN, count=2)
        transcript = json.loads(json.dumps(fake.transcript()))  # JSON-ready
    steps = [
        (e["kind"], e.get("command") or e.get("click") or (e.get("message") or {}).get("content"))
        for e in transcript["events"]
    ]
    assert steps == [
        ("invoke", "panel"),
        ("send", "page 1"),
        ("invoke", "panel:next"),
        ("edit", "page 2"),
        ("invoke", "slow"),
        ("send", ""),  # "thinking…"
        ("edit", "first"),
        ("send", "second"),
    ]
    sends = [e for e in transcript["events"] if e["kind"] == "send"]
    assert sends[0]["interaction"] == str(panel) and sends[2]["interaction"] == str(slow)
    assert all(int(e["message"]["flags"]) & EPHEMERAL for e in sends[1:])
    page = render(transcript)
    assert "page 2" in page and "page 1" not in page
    assert page.count("Only you can see this") == 2
    assert page.index(">first<") < page.index(">second<")
