"""Screenshots for the README: a scripted session, rendered as a Discord channel, photographed by Chromium.

    python tools/take_screenshots.py             # or: make screenshots (the pictures and their texts)
    python tools/take_screenshots.py --text-only # or: make screenshot-texts (only the texts: no Chromium)
    python tools/take_screenshots.py --keep out  # also keep the transcript and the HTML pages in `out/`

The production bot (seeded dice) plays the README's first fight, then a montage and a negotiation, against
the loopback fake Discord with its transcript recording on; each moment is rendered
(tools/render_transcript.py) as `docs/screenshots/<name>.png` and `.txt`, which
tests/wire/test_screenshots_current.py compares with what the bot sends. Needs Chromium and
an emoji font (Debian: `apt-get install chromium fonts-noto-color-emoji`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import discord

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bot.client import apply_endpoints, create_bot  # noqa: E402
from bot.rules.dice import SeededDice  # noqa: E402
from bot.settings import Settings  # noqa: E402
from bot.store import Store  # noqa: E402
from exts.tracker import _service as tracker  # noqa: E402
from tests.wire.fake_discord import FakeDiscord  # noqa: E402
from tools.render_transcript import render, render_text  # noqa: E402

OUT = REPO / "docs" / "screenshots"
WIDTH = 820
WITHIN = 10.0
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GwIrE0.screenshots-not-a-real-token"
DICE_SEED = 3
EVENING = datetime(2026, 1, 9, 20, 14)
CHROMIUM = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
INSTALL = (
    "take_screenshots: no Chromium found (looked for: {names}).\n"
    "Install it, then run this again:\n"
    "  Debian/Ubuntu: sudo apt-get install chromium fonts-noto-color-emoji\n"
    "  or set CHROMIUM=/path/to/chrome\n"
    "(python tools/take_screenshots.py --text-only rewrites the texts without it)"
)
MANAGE_SERVER = 1 << 5
#: The name of the tracker's refresh tasks (`exts.tracker._service` names them after their channel).
TRACKER_TASK = "tracker-"

#: A picture's marks in the transcript: its name before what it shows, its name and this after.
DONE = "-done"
#: The pictures that also show the earlier messages edited while they were taken (the tracker).
WITH_EDITED = frozenset({"strike-tracker", "end-summary", "montage", "negotiation"})


@contextlib.contextmanager
def _restored(*attributes: tuple[Any, str]) -> Iterator[None]:
    """Put the attributes back as they were on the way out (a test runs the session in a shared process)."""
    saved = [(owner, name, getattr(owner, name)) for owner, name in attributes]
    try:
        yield
    finally:
        for owner, name, value in saved:
            setattr(owner, name, value)


@contextlib.asynccontextmanager
async def running_bot(workdir: Path) -> AsyncIterator[FakeDiscord]:
    """The fake Discord (recording) with the production bot connected to it; yields the fake."""
    endpoints = ((discord.http.Route, "BASE"), (discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY"))
    async with FakeDiscord() as fake:
        fake.recording = True
        fake.add_member("sam")
        # Dana invited the bot: her role has Manage Server, which makes her a server Director
        role = next(r for r in fake.guild.roles if r.id in fake.member("dana").role_ids)
        role.permissions = str(int(role.permissions) | MANAGE_SERVER)
        settings = Settings(
            token=TOKEN,
            database_url=f"sqlite+aiosqlite:///{workdir}/bot.db",
            api_base=fake.api_base,
            gateway_url=fake.gateway_url,
        )
        # the tracker shows each change at once (no pacing between edits): each step waits only for it
        with _restored(*endpoints, (tracker, "EDIT_GAP")):
            tracker.EDIT_GAP = 0.0
            apply_endpoints(settings)
            store = await Store.open(settings.database_url, migrate=True)
            bot = create_bot(settings, store=store, dice=SeededDice(DICE_SEED))
            task = asyncio.create_task(bot.start(TOKEN))
            try:
                await fake.wait_for_commands(within=WITHIN)
                await fake.wait_until_ready(within=WITHIN)
                yield fake
            finally:
                await bot.close()
                with contextlib.suppress(asyncio.CancelledError):
                    await asyncio.wait_for(task, WITHIN)
                await store.close()


def _options(options: dict[str, Any]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Options as Discord sends them: a member (a `FakeMember`) is a user option with resolved data."""
    types = {str: 3, bool: 5, int: 4}
    out: list[dict[str, Any]] = []
    resolved: dict[str, Any] = {"users": {}, "members": {}}
    for name, value in options.items():
        if hasattr(value, "user"):
            user_id = str(value.user.id)
            out.append({"name": name, "type": 6, "value": user_id})
            member = value.payload()
            resolved["users"][user_id] = member.pop("user")
            resolved["members"][user_id] = {**member, "permissions": value.permissions}
        else:
            out.append({"name": name, "type": types[type(value)], "value": value})
    return out, resolved


async def _answered(fake: Any, interaction_id: int) -> None:
    """Until the interaction is answered (its deferred reply filled in) and the tracker shows the change."""
    await fake.wait_for_callback(interaction_id, within=WITHIN)
    record = fake.interactions[interaction_id]
    await fake.wait_until(lambda: not record.loading, within=WITHIN)
    # the command scheduled its tracker refresh before it answered: wait for that to end
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WITHIN
    while any(t.get_name().startswith(TRACKER_TASK) and not t.done() for t in asyncio.all_tasks()):
        if loop.time() > deadline:
            raise TimeoutError("the tracker did not finish its refresh")
        await asyncio.sleep(0.01)


class Table:
    """The scripted session's players at the fake Discord: each command or click waits for its answer."""

    def __init__(self, fake: Any) -> None:
        self.fake = fake
        self.dana, self.alice, self.sam = fake.member("dana"), fake.member("alice"), fake.member("sam")

    async def run(self, command: str, user: Any, sub: str | None = None, **options: Any) -> None:
        """`/command sub option:value ...`; `sub` may name a group and its subcommand (`"challenge add"`)."""
        raw, resolved = _options(options)
        names = (sub or "").split()
        for depth, name in reversed(list(enumerate(names))):
            raw = [{"name": name, "type": 1 if depth == len(names) - 1 else 2, "options": raw}]
        sent = await self.fake.slash(command, raw_options=raw, resolved=resolved, user=user)
        await _answered(self.fake, sent)

    async def click(self, user: Any, prefix: str) -> None:
        """Press the newest button whose custom id starts with `prefix`."""
        for message in list(self.fake.messages.values())[::-1]:
            for row in message.get("components") or []:
                for component in row.get("components") or []:
                    if str(component.get("custom_id", "")).startswith(prefix):
                        sent = await self.fake.click(message, component["custom_id"], user=user)
                        await _answered(self.fake, sent)
                        return
        raise LookupError(f"no button {prefix!r}")

    @contextlib.contextmanager
    def picture(self, name: str) -> Iterator[None]:
        """A picture (`docs/screenshots/<name>.png`) of what the bot sends in the block: marks around it."""
        self.fake.mark(name)
        yield
        self.fake.mark(name + DONE)


async def session(fake: Any) -> None:
    """The scripted session: the README's first fight, a montage, a negotiation; marks around each moment a
    picture shows."""
    table = Table(fake)
    await setting_up(table)
    await first_turn(table)
    await directors_turn(table)
    await ending(table)
    await montage(table)
    await negotiation(table)


async def setting_up(table: Table) -> None:
    """Two heroes and the session's hero tokens; the encounter with three goblins and an ogre."""
    dana, alice, sam = table.dana, table.alice, table.sam
    kira, vex = "M2 A1 R0 I-1 P1", "M0 A2 R1 I0 P1"
    await table.run("hero", alice, "create", name="Kira", stamina=30, recoveries=8, characteristics=kira)
    await table.run("hero", sam, "create", name="Vex", stamina=24, recoveries=10, characteristics=vex)
    await table.run("tokens", dana, "reset")
    await table.run("encounter", dana, "start", name="Goblin ambush at the mill")
    await table.run("encounter", alice, "hero", name="Kira")
    await table.run("encounter", sam, "hero", name="Vex")
    await table.run("encounter", dana, "add", name="Goblin", stamina=15, count=3)
    await table.run("encounter", dana, "add", name="Ogre", stamina=40)
    for action in ("Bellow", "Earthquake Stomp", "Throw Boulder"):
        await table.run("encounter", dana, "villain name", creature="Ogre", action=action)
    await table.run("encounter", dana, "begin", first="heroes")


async def first_turn(table: Table) -> None:
    """Kira's test and strike, and her turn's end (the Director's pick)."""
    alice, fake = table.alice, table.fake
    with table.picture("roll"):
        await table.run("roll", alice, characteristic="might", edges=1, label="Might test: shove the cart")
    await table.run("turn", alice, "act", combatant="Kira")
    damage = "3+M/6+M/9+M"
    with table.picture("strike-tracker"):
        await table.run("strike", alice, targets="Goblin 1, Goblin 2", damage=damage, bonus=2, type="fire")
    # the turn ping links the tracker once the bot has posted (and pinned) it: on a busy machine that post
    # may still be on its way after the strike's answer
    await fake.wait_until(lambda: any(m.get("pinned") for m in fake.messages.values()), within=WITHIN)
    with table.picture("turn-ping"):
        await table.run("turn", alice, "end")


async def directors_turn(table: Table) -> None:
    """The ogre's villain action (at the end of Kira's turn), then its turn: it leaves Vex dying (Sam is
    pinged), Sam looks at his hero, Vex's turn warns of bleeding."""
    dana, sam = table.dana, table.sam
    await table.run("encounter", dana, "villain use", creature="Ogre", action="Bellow")
    await table.run("turn", dana, "act", combatant="Ogre")
    with table.picture("fall-ping"):
        await table.run("strike", dana, attacker="Ogre", targets="Vex", damage="12/20/27", bonus=2)
    with table.picture("my-hero"):
        await table.click(sam, "enc:me:")
    await table.run("turn", dana, "end")
    with table.picture("dying-turn"):
        await table.run("turn", sam, "act", combatant="Vex")


async def ending(table: Table) -> None:
    """The Director's private view, then the end (confirmed)."""
    dana = table.dana
    with table.picture("private-view"):
        await table.run("encounter", dana, "status", private=True)
    with table.picture("end-summary"):
        await table.run("encounter", dana, "end")
        await table.click(dana, "enc:endok:")


async def montage(table: Table) -> None:
    """An easy montage for the two heroes (both limits 2): an assist and a test, a new round, two tests that
    reach the success limit, then the Director's close."""
    dana, alice, sam = table.dana, table.alice, table.sam
    await table.run("montage", dana, "start", name="Flight from the mill", difficulty="easy")
    await table.run(
        "montage",
        dana,
        "challenge add",
        name="Climb the ridge",
        characteristics="Might, Agility",
        skills="Climb",
        uses=2,
    )
    await table.run(
        "montage", dana, "challenge add", name="Ford the river", characteristics="Agility", difficulty="hard"
    )
    await table.run(
        "montage", dana, "outcome", result="total success", text="You reach the pass before the goblins do."
    )
    await table.run("montage", sam, "assist", hero="Kira", characteristic="agility")
    await table.run("montage", alice, "test", challenge="Climb the ridge", characteristic="might", bonus=2)
    with table.picture("montage"):
        await table.run("montage", alice, "test", challenge="Ford the river")
    with table.picture("montage-end"):
        await table.run("montage", sam, "test", challenge="Climb the ridge", characteristic="agility")
        await table.click(dana, "mtg:close:")


async def negotiation(table: Table) -> None:
    """Baron Vell: arguments to his greed and his legacy, the Director's view (what is revealed, what is
    hidden), then the offer the heroes ask for."""
    dana, alice, sam = table.dana, table.alice, table.sam
    await table.run(
        "negotiation",
        dana,
        "start",
        npc="Baron Vell",
        attitude="neutral",
        motivations="greed, legacy",
        pitfalls="peace",
    )
    with table.picture("negotiation"):
        await table.run("negotiation", alice, "argue", motivation="greed", bonus=2)
        await table.run("negotiation", sam, "argue", motivation="legacy")
    with table.picture("negotiation-director"):
        await table.run("negotiation", dana, "status")
    with table.picture("negotiation-offer"):
        await table.run("negotiation", alice, "offer")
    await table.click(dana, "neg:close:")


async def record(workdir: Path) -> dict[str, Any]:
    """The session's transcript (see tests/wire/fake_discord.py), with the clock fixed."""
    async with running_bot(workdir) as fake:
        await session(fake)
        transcript: dict[str, Any] = fake.transcript()
        if fake.unknown_routes:
            raise RuntimeError(f"the fake did not know: {fake.unknown_routes}")
    fixed_clock(transcript)
    return transcript


def pictures(transcript: dict[str, Any]) -> list[str]:
    """The pictures the session took (`Table.picture`), in order."""
    marks = [event["name"] for event in transcript["events"] if event["kind"] == "mark"]
    return [name for name in marks if not name.endswith(DONE)]


def _window(name: str) -> dict[str, Any]:
    """A picture's window of the transcript, as the renderers take it."""
    return {"start": name, "stop": name + DONE, "with_edited": name in WITH_EDITED}


def texts(transcript: dict[str, Any]) -> dict[str, str]:
    """Each picture's plain text (`<name>.txt` beside `<name>.png`): what the bot sent in its window."""
    return {name: render_text(transcript, **_window(name)) for name in pictures(transcript)}


def fixed_clock(transcript: dict[str, Any]) -> None:
    """Times as at an evening table, 20 seconds apart (so a new run changes no picture but for the bot)."""
    posted: dict[str, str] = {}
    for index, event in enumerate(transcript["events"]):
        message = event.get("message")
        if message is not None:
            when = (EVENING + timedelta(seconds=20 * index)).isoformat()
            message["timestamp"] = posted.setdefault(message["id"], when)


def chromium() -> str:
    named = os.environ.get("CHROMIUM")
    found = named or next((p for p in map(shutil.which, CHROMIUM) if p), None)
    if not found:
        sys.exit(INSTALL.format(names=", ".join(CHROMIUM)))
    return found


def _chromium(browser: str, height: int, *args: str) -> str:
    done = subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
            f"--window-size={WIDTH},{height}",
            *args,
        ],
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done.stdout


def screenshot(browser: str, page: Path, png: Path) -> None:
    """Measure the page's height (its script writes it into the DOM), then photograph exactly that much."""
    dom = _chromium(browser, 2000, "--dump-dom", page.as_uri())
    found = re.search(r'data-height="(\d+)"', dom)
    height = int(found.group(1)) if found else 1200
    _chromium(browser, height, f"--screenshot={png}", page.as_uri())


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--keep", type=Path, help="keep the transcript and the HTML pages in this folder")
    parser.add_argument("--text-only", action="store_true", help="rewrite only the texts (no Chromium)")
    args = parser.parse_args()
    browser = None if args.text_only else chromium()  # before the session: say what to install first
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(args.keep) if args.keep else Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        transcript = asyncio.run(record(Path(tmp)))
        (work / "transcript.json").write_text(json.dumps(transcript, indent=1))
        OUT.mkdir(parents=True, exist_ok=True)
        for name, text in texts(transcript).items():
            (OUT / f"{name}.txt").write_text(text)
            print(f"wrote {OUT / (name + '.txt')}")
        if browser is None:
            return
        for name in pictures(transcript):
            page = work / f"{name}.html"
            page.write_text(render(transcript, **_window(name), width=WIDTH))
            screenshot(browser, page, OUT / f"{name}.png")
            print(f"wrote {OUT / (name + '.png')}")


if __name__ == "__main__":
    main()
