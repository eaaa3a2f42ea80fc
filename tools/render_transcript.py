"""Render a fake-Discord transcript (tests/wire/fake_discord.py, `fake.transcript()`) as a channel page.

    python tools/render_transcript.py transcript.json page.html [--start MARK] [--stop MARK] [--with-edited]

The page replays the events up to `--stop` (every message in its latest state) and shows those posted after
`--start` in Discord's dark theme: authors, commands used, markdown, embeds, components, ephemeral notes,
edits and pins; `--with-edited` adds earlier messages edited in the window. Everything from the transcript is
escaped (names and texts are user input). Stdlib only.
"""

from __future__ import annotations

import argparse
import html
import json
import re
import sys
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

Json = dict[str, Any]
EPHEMERAL = 1 << 6
LOADING = 1 << 7
#: A system message's type: "… pinned a message to this channel." (CHANNEL_PINNED_MESSAGE).
PINNED_NOTICE = 6
BUTTON_STYLES = {1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link", 6: "premium"}
SELECT_TYPES = {3, 5, 6, 7, 8}
AVATAR_COLOURS = ("#5865f2", "#3ba55c", "#faa61a", "#ed4245", "#eb459e", "#747f8d")

CSS = """
* { box-sizing: border-box; }
body { margin: 0; background: #313338; color: #dbdee1; font: 16px/1.375 "gg sans", "Noto Sans",
  "Helvetica Neue", Helvetica, Arial, sans-serif; }
.channel { padding: 8px 0 16px; }
.topbar { height: 48px; display: flex; align-items: center; padding: 0 16px; border-bottom: 1px solid #1f2023;
  color: #f2f3f5; font-weight: 600; margin-bottom: 8px; }
.topbar .hash { color: #80848e; font-size: 24px; margin-right: 8px; font-weight: 400; }
.message { position: relative; padding: 2px 48px 2px 72px; margin-top: 17px; min-height: 44px; }
.message.ephemeral { background: rgba(88, 101, 242, 0.06); }
.used { font-size: 14px; color: #b5bac1; margin-left: -4px; display: flex; align-items: center; gap: 4px;
  margin-bottom: 2px; }
.used .mini { width: 16px; height: 16px; border-radius: 50%; font-size: 10px; display: inline-flex;
  align-items: center; justify-content: center; color: #fff; font-weight: 700; }
.used .who { color: #c9cdfb; }
.used .cmd { color: #00a8fc; }
.avatar { position: absolute; left: 16px; width: 40px; height: 40px; border-radius: 50%; color: #fff;
  font-weight: 700; font-size: 18px; display: flex; align-items: center; justify-content: center; }
.header { display: flex; align-items: baseline; gap: 6px; }
.author { color: #f2f3f5; font-weight: 600; }
.tag { background: #5865f2; color: #fff; font-size: 10px; font-weight: 700; border-radius: 3px;
  padding: 1px 4px; position: relative; top: -2px; }
.time, .edited { color: #949ba4; font-size: 12px; }
.content { white-space: pre-wrap; word-wrap: break-word; }
.mention { background: rgba(88, 101, 242, 0.3); color: #c9cdfb; border-radius: 3px; padding: 0 2px;
  font-weight: 500; }
code { background: #2b2d31; border: 1px solid #1e1f22; border-radius: 4px; padding: 0 3px; font-size: 85%;
  font-family: Consolas, "Liberation Mono", monospace; }
.quote { border-left: 4px solid #4e5058; padding-left: 12px; display: block; }
.subtext { color: #949ba4; font-size: 13px; }
h3.md { font-size: 20px; margin: 4px 0; color: #f2f3f5; }
a { color: #00a8fc; text-decoration: none; }
.embed { display: grid; max-width: 520px; background: #2b2d31; border-radius: 4px;
  border-left: 4px solid #1e1f22; padding: 8px 16px 16px 12px; margin-top: 4px; }
.embed-title { color: #f2f3f5; font-weight: 600; margin-top: 8px; }
.embed-description { margin-top: 8px; font-size: 14px; white-space: pre-wrap; }
.fields { display: grid; grid-template-columns: repeat(3, 1fr); gap: 8px; margin-top: 8px; }
.field { grid-column: 1 / 4; font-size: 14px; }
.field.inline { grid-column: auto; }
.field-name { color: #f2f3f5; font-weight: 600; margin-bottom: 2px; }
.field-value { white-space: pre-wrap; }
.embed-footer { color: #949ba4; font-size: 12px; margin-top: 8px; }
.row { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 8px; }
.button { height: 32px; padding: 2px 16px; border-radius: 8px; color: #fff; font-size: 14px; font-weight: 500;
  display: inline-flex; align-items: center; }
.button.primary { background: #5865f2; } .button.secondary, .button.link { background: #4e5058; }
.button.success { background: #248046; } .button.danger { background: #da373c; }
.button.premium { background: #5865f2; } .button.disabled { opacity: 0.5; }
.select { width: 400px; height: 40px; background: #1e1f22; border: 1px solid #1e1f22; border-radius: 4px;
  padding: 8px; color: #949ba4; font-size: 14px; display: flex; justify-content: space-between; }
.only-you { color: #949ba4; font-size: 12px; margin-top: 4px; }
.only-you .dismiss { color: #00a8fc; }
.pinned { color: #949ba4; font-size: 12px; }
.system { padding: 2px 48px 2px 72px; margin-top: 17px; color: #949ba4; font-size: 15px; }
.system .author { color: #f2f3f5; }
.gap { text-align: center; color: #80848e; font-size: 12px; margin: 12px 0 -4px; }
"""
MEASURE = (
    "<script>addEventListener('load',function(){document.body.setAttribute('data-height',"
    "String(Math.ceil(document.querySelector('.channel').getBoundingClientRect().bottom)))})</script>"
)


@dataclass
class Shown:
    """One message as the channel shows it: its latest state and who used which command for it."""

    message: Json
    used: Json | None = None
    earlier: bool = False  # posted before the window (shown because it was edited in it)
    order: int = 0
    edited_in_window: bool = field(default=False, repr=False)


def replay(
    transcript: Json, *, start: str | None = None, stop: str | None = None, with_edited: bool = False
) -> list[Shown]:
    """The messages to show: replayed up to the mark `stop` (or the end), posted after the mark `start`."""
    messages: dict[str, Shown] = {}
    bot = transcript.get("bot") or {"username": "bot", "bot": True}
    invokes: dict[str, Json] = {}
    inside = start is None
    for index, event in enumerate(transcript.get("events", [])):
        kind = event.get("kind")
        if kind == "mark":
            if event.get("name") == stop:
                break
            if event.get("name") == start:
                inside = True
            continue
        if kind == "invoke":
            invokes[str(event.get("interaction"))] = event
        elif kind == "send":
            message = event["message"]
            if message.get("type") == PINNED_NOTICE:  # Discord's "... pinned a message to this channel."
                author = message.get("author") or bot
                message = {
                    "id": message["id"],
                    "system": "pinned a message to this channel.",
                    "author": author,
                }
            via = event.get("interaction")
            used = invokes.get(str(via)) if via else None
            messages[message["id"]] = Shown(message, used, earlier=not inside, order=index)
        elif kind == "edit":
            message = event["message"]
            shown = messages.get(message["id"])
            if shown is None:
                messages[message["id"]] = shown = Shown(message, earlier=True, order=index)
            shown.message = message
            shown.edited_in_window = shown.edited_in_window or inside
        elif kind == "delete":
            messages.pop(str(event.get("message_id")), None)
        elif kind == "pin" and str(event.get("message_id")) in messages:
            shown = messages[str(event["message_id"])]
            shown.message = {**shown.message, "pinned": bool(event.get("pinned"))}
            shown.edited_in_window = shown.edited_in_window or inside
    ordered = sorted(messages.values(), key=lambda s: s.order)
    return [
        s
        for s in ordered
        if not int(s.message.get("flags") or 0) & LOADING
        and (not s.earlier or (with_edited and s.edited_in_window))
    ]


# ------------------------------------------------------------------ markdown


def _inline(text: str, transcript: Json) -> str:
    """Discord's inline markdown on escaped text (each pattern puts fixed tags around escaped text)."""
    users, channels, roles = (transcript.get(k) or {} for k in ("users", "channels", "roles"))
    kept: list[str] = []

    def keep(shown: str) -> str:
        kept.append(shown)
        return f"\x00{len(kept) - 1}\x00"

    text = re.sub(r"`([^`]+)`", lambda m: keep(f"<code>{m[1]}</code>"), text)
    # a backslash shows the punctuation after it as it is (`\(` is `(`): kept aside like code, so no pattern
    # below reads it as markdown
    text = re.sub(r"\\(&[a-z]+;|[^0-9A-Za-z\s&])", lambda m: keep(m[1]), text)
    text = re.sub(
        r"&lt;@!?(\d+)&gt;",
        lambda m: f'<span class="mention">@{html.escape(users.get(m[1], "unknown"))}</span>',
        text,
    )
    text = re.sub(
        r"&lt;@&amp;(\d+)&gt;",
        lambda m: f'<span class="mention">@{html.escape(roles.get(m[1], "role"))}</span>',
        text,
    )
    text = re.sub(
        r"&lt;#(\d+)&gt;",
        lambda m: f'<span class="mention">#{html.escape(channels.get(m[1], "channel"))}</span>',
        text,
    )
    text = re.sub(r"\[([^\]]+)\]\((https?://[^)\s]+)\)", r'<a href="\2">\1</a>', text)
    text = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", text)
    text = re.sub(r"__(.+?)__", r"<u>\1</u>", text)
    text = re.sub(r"~~(.+?)~~", r"<s>\1</s>", text)
    text = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"<em>\1</em>", text)
    text = re.sub(r"(?<![\w_])_(?!\s)(.+?)(?<!\s)_(?![\w_])", r"<em>\1</em>", text)
    return re.sub("\x00(\\d+)\x00", lambda m: kept[int(m[1])], text)


def markdown(text: str, transcript: Json) -> str:
    """A message's or embed's text as HTML: escaped, then Discord's markdown line by line."""
    lines = []
    for raw in html.escape(text).split("\n"):
        if raw.startswith("-# "):
            lines.append(f'<span class="subtext">{_inline(raw[3:], transcript)}</span>')
        elif raw.startswith("&gt; "):
            lines.append(f'<span class="quote">{_inline(raw[5:], transcript)}</span>')
        elif re.match(r"#{1,3} ", raw):
            lines.append(f'<h3 class="md">{_inline(raw.split(" ", 1)[1], transcript)}</h3>')
        else:
            lines.append(_inline(raw, transcript))
    return (
        "\n".join(lines)
        .replace("</h3>\n", "</h3>")
        .replace('</span>\n<span class="quote">', '</span><span class="quote">')
    )


# ------------------------------------------------------------------- pieces


def _colour(name: str) -> str:
    return AVATAR_COLOURS[sum(map(ord, name)) % len(AVATAR_COLOURS)]


def _initial(name: str) -> str:
    return html.escape((name.strip() or "?")[0].upper())


def _time(stamp: str | None) -> str:
    if not stamp:
        return ""
    try:
        return "Today at " + datetime.fromisoformat(stamp).strftime("%H:%M")
    except ValueError:
        return ""


def _embed(embed: Json, transcript: Json) -> str:
    colour = embed.get("color")
    style = f' style="border-left-color: #{int(colour):06x}"' if isinstance(colour, int) else ""
    parts = [f'<div class="embed"{style}>']
    if embed.get("title"):
        parts.append(f'<div class="embed-title">{markdown(str(embed["title"]), transcript)}</div>')
    if embed.get("description"):
        parts.append(
            f'<div class="embed-description">{markdown(str(embed["description"]), transcript)}</div>'
        )
    fields = embed.get("fields") or []
    if fields:
        parts.append('<div class="fields">')
        for f in fields:
            inline = " inline" if f.get("inline") else ""
            parts.append(
                f'<div class="field{inline}"><div class="field-name">'
                f"{markdown(str(f.get('name', '')), transcript)}</div>"
                f'<div class="field-value">{markdown(str(f.get("value", "")), transcript)}</div></div>'
            )
        parts.append("</div>")
    footer = (embed.get("footer") or {}).get("text")
    if footer:
        parts.append(f'<div class="embed-footer">{html.escape(str(footer))}</div>')
    parts.append("</div>")
    return "".join(parts)


def _component(component: Json) -> str:
    kind = component.get("type")
    if kind == 2:
        style = BUTTON_STYLES.get(int(component.get("style") or 2), "secondary")
        disabled = " disabled" if component.get("disabled") else ""
        emoji = (component.get("emoji") or {}).get("name") or ""
        label = html.escape(" ".join(x for x in (emoji, str(component.get("label") or "")) if x))
        return f'<span class="button {style}{disabled}">{label}{" ↗" if style == "link" else ""}</span>'
    if kind in SELECT_TYPES:
        placeholder = html.escape(str(component.get("placeholder") or "Make a selection"))
        return f'<div class="select"><span>{placeholder}</span><span>⌄</span></div>'
    return ""


def _components(rows: list[Json]) -> str:
    out = []
    for row in rows:
        inner = row.get("components") if row.get("type") == 1 else [row]
        out.append('<div class="row">' + "".join(_component(c) for c in inner or []) + "</div>")
    return "".join(out)


def _subcommands(options: list[Json]) -> list[str]:
    """`/encounter start`: the subcommand (group) names leading the options."""
    for option in options:
        if option.get("type") in (1, 2):
            return [str(option.get("name", "")), *_subcommands(option.get("options") or [])]
    return []


def _message(shown: Shown, transcript: Json) -> str:
    message = shown.message
    if message.get("system"):
        who = html.escape(str((message.get("author") or {}).get("username") or "unknown"))
        what = html.escape(str(message["system"]))
        return f'<div class="system">📌 <span class="author">{who}</span> {what}</div>'
    author = message.get("author") or {}
    name = str(author.get("global_name") or author.get("username") or "unknown")
    ephemeral = int(message.get("flags") or 0) & EPHEMERAL
    parts = [f'<div class="message{" ephemeral" if ephemeral else ""}">']
    if shown.used is not None and shown.used.get("command"):  # a click's reply shows no "used" line
        who = str(shown.used.get("user") or "")
        what = " ".join(["/" + str(shown.used["command"]), *_subcommands(shown.used.get("options") or [])])
        parts.append(
            f'<div class="used"><span>↱</span><span class="mini" style="background:{_colour(who)}">'
            f'{_initial(who)}</span><span class="who">{html.escape(who)}</span> used '
            f'<span class="cmd">{html.escape(what)}</span></div>'
        )
    parts.append(f'<div class="avatar" style="background:{_colour(name)}">{_initial(name)}</div>')
    tag = '<span class="tag">APP</span>' if author.get("bot") else ""
    parts.append(
        f'<div class="header"><span class="author">{html.escape(name)}</span>{tag}'
        f'<span class="time">{html.escape(_time(message.get("timestamp")))}</span></div>'
    )
    if message.get("pinned"):
        parts.append('<div class="pinned">📌 Pinned</div>')
    edited = ' <span class="edited">(edited)</span>' if message.get("edited_timestamp") else ""
    if message.get("content"):
        parts.append(f'<div class="content">{markdown(str(message["content"]), transcript)}{edited}</div>')
    elif edited and not message.get("embeds"):
        parts.append(f'<div class="content">{edited}</div>')
    parts.extend(_embed(e, transcript) for e in message.get("embeds") or [])
    parts.append(_components(message.get("components") or []))
    if ephemeral:
        parts.append(
            '<div class="only-you">👁 Only you can see this · '
            '<span class="dismiss">Dismiss message</span></div>'
        )
    parts.append("</div>")
    return "".join(parts)


def render(
    transcript: Json,
    *,
    start: str | None = None,
    stop: str | None = None,
    with_edited: bool = False,
    width: int = 820,
    channel: str | None = None,
) -> str:
    """The whole HTML page."""
    shown = replay(transcript, start=start, stop=stop, with_edited=with_edited)
    if channel is None:
        ids = [s.message.get("channel_id") for s in shown]
        channel = (transcript.get("channels") or {}).get(str(ids[0]) if ids else "", "combat")
    body = []
    for i, item in enumerate(shown):
        if i and shown[i - 1].earlier and not item.earlier:
            body.append('<div class="gap">⋯</div>')
        body.append(_message(item, transcript))
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f"<title>#{html.escape(str(channel))}</title><style>{CSS}body {{ width: {int(width)}px; }}</style>"
        f'{MEASURE}</head><body><div class="topbar"><span class="hash">#</span>'
        f"{html.escape(str(channel))}</div>"
        f'<div class="channel">{"".join(body)}</div></body></html>'
    )


# ---------------------------------------------------------------- plain text


def _mentions(text: str, transcript: Json) -> str:
    """Mentions by name (`<@123>` → `@alice`): the text keeps no ids, which change from run to run."""
    users, channels, roles = (transcript.get(k) or {} for k in ("users", "channels", "roles"))
    text = re.sub(r"<@!?(\d+)>", lambda m: "@" + str(users.get(m[1], "unknown")), text)
    text = re.sub(r"<@&(\d+)>", lambda m: "@" + str(roles.get(m[1], "role")), text)
    text = re.sub(r"<#(\d+)>", lambda m: "#" + str(channels.get(m[1], "channel")), text)
    # a jump link holds the guild's, the channel's and the message's ids
    return re.sub(r"https://discord\.com/channels/[\d/]+", "https://discord.com/channels/…", text)


def _text_component(component: Json) -> str:
    kind = component.get("type")
    if kind == 2:
        emoji = (component.get("emoji") or {}).get("name") or ""
        label = " ".join(x for x in (emoji, str(component.get("label") or "")) if x)
        return f"[{label}{' (disabled)' if component.get('disabled') else ''}]"
    if kind in SELECT_TYPES:
        return f"[{component.get('placeholder') or 'Make a selection'} ⌄]"
    return ""


def _text_message(shown: Shown, transcript: Json) -> list[str]:
    message = shown.message
    author = message.get("author") or {}
    name = str(author.get("global_name") or author.get("username") or "unknown")
    if message.get("system"):
        return [f"📌 {name} {message['system']}"]
    lines = []
    if shown.used is not None and shown.used.get("command"):
        what = " ".join(["/" + str(shown.used["command"]), *_subcommands(shown.used.get("options") or [])])
        lines.append(f"↱ {shown.used.get('user') or ''} used {what}")
    notes = [
        note
        for note, on in (
            ("pinned", message.get("pinned")),
            ("edited", message.get("edited_timestamp")),
            ("only you can see this", int(message.get("flags") or 0) & EPHEMERAL),
        )
        if on
    ]
    lines.append(name + "".join(f" ({note})" for note in notes) + ":")
    lines.extend(_mentions(str(message.get("content") or ""), transcript).splitlines())
    for embed in message.get("embeds") or []:
        body = [str(embed.get(k)) for k in ("title", "description") if embed.get(k)]
        for f in embed.get("fields") or []:
            body += [f"{f.get('name', '')}{' (inline)' if f.get('inline') else ''}", *_indent(f.get("value"))]
        footer = (embed.get("footer") or {}).get("text")
        body += [f"— {footer}"] if footer else []
        lines.extend("┃ " + line for line in _mentions("\n".join(body), transcript).splitlines())
    for row in message.get("components") or []:
        inner = row.get("components") if row.get("type") == 1 else [row]
        lines.append(" ".join(_text_component(c) for c in inner or []))
    return lines


def _indent(value: object) -> list[str]:
    return ["  " + line for line in str(value or "").splitlines()]


def render_text(
    transcript: Json, *, start: str | None = None, stop: str | None = None, with_edited: bool = False
) -> str:
    """The same window as `render`, as plain text: what the bot sent (content, embeds, buttons), and who used
    which command; no ids, no times. Stable from run to run for a seeded session, so it can be compared."""
    shown = replay(transcript, start=start, stop=stop, with_edited=with_edited)
    blocks = []
    for i, item in enumerate(shown):
        if i and shown[i - 1].earlier and not item.earlier:
            blocks.append("⋯")
        blocks.append("\n".join(line.rstrip() for line in _text_message(item, transcript)))
    return "\n\n".join(blocks) + "\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("transcript", type=Path)
    parser.add_argument("page", type=Path)
    parser.add_argument("--start", help="show the messages posted after this mark")
    parser.add_argument("--stop", help="replay up to this mark")
    parser.add_argument(
        "--with-edited", action="store_true", help="also show earlier messages edited since start"
    )
    args = parser.parse_args(argv)
    transcript = json.loads(args.transcript.read_text())
    args.page.write_text(render(transcript, start=args.start, stop=args.stop, with_edited=args.with_edited))


if __name__ == "__main__":
    main(sys.argv[1:])
