"""Fuzz `/hero import` through SimCord's real dispatch: mutated fixture heroes (deleted keys, wrong types,
huge numbers, hostile text) never store half a hero ("mutated fixtures never crash them and
never store half a hero").

After each upload, either the command was refused in one line and the roster is exactly as before, or the
roster holds the whole hero: the sheet the import computes from that file on its own (`read_hero`,
`to_sheet`; a re-import keeping the bot's play state, `keep_play_state`). The download itself is tested in
test_attachments.py and test_hero_import.py; here the file's bytes come straight from SimCord's CDN.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
from pathlib import Path

import discord
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from simcord.env import Env

from bot.content.forgesteel.files import ForgeSteelError
from bot.content.forgesteel.hero import read_hero
from bot.content.forgesteel.hero_sheet import to_sheet
from bot.play import sheet_of
from bot.rules import codec
from bot.rules.dice import SeededDice
from bot.rules.hero import HeroSheet, keep_play_state
from bot.settings import Settings
from bot.store import ChannelKey, Store
from exts.heroes import _import as hero_import
from tests.bot.conftest import TOKEN, build_bot, is_user_facing, make_table
from tests.content.forgesteel_files import invented_bytes
from tests.content.fuzz_kit import mutate
from tests.content.test_forgesteel_hero_fuzz import HERO_VALUES

HERO_FILES = ("Brannoc.ds-hero", "Ysolde.ds-hero", "Marra.ds-hero")
HOSTILE = st.sampled_from(["@everyone", "<@123456789012345678>", "**Ash**", "x" * 300, "Ke\x00th", "\u200b"])


@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, bytes]:
    """A fixture hero with 1-3 of its values deleted or replaced."""
    file = draw(st.sampled_from(HERO_FILES))
    tree = mutate(json.loads(invented_bytes(file)), draw, draw(st.integers(1, 3)), HERO_VALUES | HOSTILE)
    return file, json.dumps(tree).encode()


def expected_sheet(data: bytes, before: HeroSheet | None) -> HeroSheet | None:
    """The sheet the roster should hold after importing `data` (None: the import must be refused)."""
    try:
        sheet = to_sheet(read_hero(data))
    except ForgeSteelError:
        return None
    return sheet if before is None else keep_play_state(sheet, before)


def _same_hero(stored: HeroSheet, want: HeroSheet) -> bool:
    return bool(codec.to_data(stored) == codec.to_data(want))


async def _run(uploads: list[tuple[str, bytes]], workdir: Path, monkeypatch: pytest.MonkeyPatch) -> int:
    """Import each upload in turn as Alice; returns how many were stored."""
    url = f"sqlite+aiosqlite:///{workdir}/bot.db"
    store = await Store.open(url, migrate=True)
    env = Env(build_bot(Settings(token=TOKEN, database_url=url), store, SeededDice(1)))

    async def from_cdn(attachment: discord.Attachment, *, what: str) -> bytes:
        body = env.backend.cdn.get(attachment.url)
        assert body is not None
        return body

    monkeypatch.setattr(hero_import, "download", from_cdn)
    stored_count = 0
    try:
        await env.start()
        table = make_table(env, store)
        key = ChannelKey(table.guild.id, table.channel.id)
        for name, data in uploads:
            before = {h.id: (h.name, h.data) for h in (await store.view(key)).heroes.values()}
            cursor = len(env.errors_since(0))
            result = await table.alice.slash(table.channel, "hero import", file=(name, data))
            assert result.acknowledged
            unexpected = [e for e in env.errors_since(cursor) if not is_user_facing(e)]
            assert not unexpected, unexpected
            after = {h.id: h for h in (await store.view(key)).heroes.values()}
            changed = {i for i, h in after.items() if before.get(i) != (h.name, h.data)}
            if not changed:
                continue  # refused: nothing stored
            (hero_id,) = changed  # one hero, whole
            old = before.get(hero_id)
            prior = codec.load(HeroSheet, old[1]) if old is not None else None
            want = expected_sheet(data, prior)
            assert want is not None, "a file the import refuses changed the roster"
            assert _same_hero(sheet_of(after[hero_id]), want)
            stored_count += 1
    finally:
        env.check_errors = False
        await env.shutdown()
        await store.close()
    return stored_count


@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(uploads=st.lists(mutated(), min_size=3, max_size=6))
def test_mutated_heroes_through_the_command_never_store_half_a_hero(uploads: list[tuple[str, bytes]]) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch, tempfile.TemporaryDirectory() as workdir:
        stored = asyncio.run(_run(uploads, Path(workdir), monkeypatch))
    event(f"stored {min(stored, 1)}")


def test_the_fuzz_can_see_a_stored_hero() -> None:
    """The property above checks stored heroes too: an unmutated file is stored whole."""
    with pytest.MonkeyPatch.context() as monkeypatch, tempfile.TemporaryDirectory() as workdir:
        stored = asyncio.run(
            _run([("Brannoc.ds-hero", invented_bytes("Brannoc.ds-hero"))], Path(workdir), monkeypatch)
        )
    assert stored == 1
