"""Hostile input: random option values for every command, through SimCord's real dispatch.

The commands are read from the bot's own command tree (the JSON Discord receives), so every command and option
is covered as soon as it exists, within what Discord's client lets a user send (types, choices, ranges,
lengths). Values are hostile where they can be: random Unicode, markdown, mentions, `@everyone`, huge and
negative numbers, maximum-length names, a thousand creatures. Each example is a fresh bot and store with a
small encounter set up through the real commands, then a random script of commands by the Director, two
players and a stranger. After every command:
- the interaction was acknowledged, and nothing the bot raised was unexpected (the harness's error check);
- every message fits Discord's limits (2,000 characters of content, embeds of 6,000 and 25 fields);
- nothing pings: no message allows a mention of anyone but the members the turn pings name, and
  `@everyone` never;
- the store is consistent: the channel reads back and its encounter state loads as the rules core's value.
"""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from simcord.backend.errors import SetupError
from simcord.env import Env

from bot.client import DrawSteelBot
from bot.play import encounter_of
from bot.rules.dice import SeededDice
from bot.settings import Settings
from bot.store import ChannelKey, Store
from tests.bot.conftest import TOKEN, Table, build_bot, is_user_facing, make_table

STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 3, 4, 5, 6, 7, 8, 9, 10, 11
SUBCOMMAND, GROUP = 1, 2
HOSTILE_TEXT = (
    "@everyone",
    "@here",
    "<@123456789012345678>",
    "<@&123456789012345678>",
    "**bold** __under__ `code` ||spoiler||",
    "> quote\n# heading",
    "Goblin 1, Goblin 2, Ash",
    "3/6/9",
    "2+M/5+M/7+M fire",
    "M2 A1 R0 I-1 P1",
    "fire 5, all 2",
    "Ash",
    "Goblin",
    "Goblin 1",
    "heroes",
    "director",
    "",
    " ",
    "\u200b",
    "𒀱" * 40,
    "x" * 1000,
)
CONTENT_MAX = 2000
EMBED_TOTAL_MAX = 6000
FIELDS_MAX = 25


def leaves(payload: dict[str, Any], prefix: str = "") -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """(qualified name, options) of every invokable command in a command's Discord JSON."""
    name = f"{prefix} {payload['name']}".strip()
    options = payload.get("options") or []
    subs = [o for o in options if o["type"] in (SUBCOMMAND, GROUP)]
    if not subs:
        yield name, options
        return
    for sub in subs:
        yield from leaves(sub, name)


def command_catalogue(bot: DrawSteelBot) -> list[tuple[str, list[dict[str, Any]]]]:
    """Every slash command of the bot with its options, as Discord sees them."""
    out: list[tuple[str, list[dict[str, Any]]]] = []
    for command in bot.tree.get_commands():
        payload = command.to_dict(bot.tree)
        if payload.get("type", 1) == 1:
            out.extend(leaves(payload))
    return sorted(out)


def text_values(option: dict[str, Any]) -> st.SearchStrategy[str]:
    low = option.get("min_length", 0)
    high = option.get("max_length", 6000)
    hostile = st.sampled_from([t[:high] for t in HOSTILE_TEXT if len(t[:high]) >= low])
    unicode = st.text(min_size=max(low, 0), max_size=min(high, 120))
    numeric = st.integers(-(10**6), 10**6).map(str).filter(lambda t: low <= len(t) <= high)
    return st.one_of(hostile, unicode, numeric)


def value_strategy(option: dict[str, Any], members: list[Any], table: Table) -> st.SearchStrategy[Any]:
    kind = option["type"]
    if option.get("choices"):
        return st.sampled_from([c["value"] for c in option["choices"]])
    if kind == STRING:
        return text_values(option)
    if kind in (INTEGER, NUMBER):
        low = option.get("min_value", -(2**53) + 1)
        high = option.get("max_value", 2**53 - 1)
        edges = [v for v in (low, high, 0, 1, -1, 2, 3, 1000, -1000) if low <= v <= high]
        return st.one_of(st.sampled_from(edges), st.integers(int(low), int(high)))
    if kind == BOOLEAN:
        return st.booleans()
    if kind in (USER, MENTIONABLE):
        return st.sampled_from(members)
    if kind == ROLE:
        return st.just(table.director_role)
    if kind == CHANNEL:
        return st.just(table.channel)
    return st.nothing()


@st.composite
def invocation(
    draw: st.DrawFn, catalogue: list[tuple[str, list[dict[str, Any]]]], members: list[Any], table: Table
) -> tuple[int, str, dict[str, Any]]:
    name, options = draw(st.sampled_from(catalogue))
    values: dict[str, Any] = {}
    for option in options:
        if option["type"] == ATTACHMENT:
            continue
        if option.get("required") or draw(st.booleans()):
            values[option["name"]] = draw(value_strategy(option, members, table))
    actor = draw(st.integers(0, 3))
    return actor, name, values


def embed_length(embed: dict[str, Any]) -> int:
    """Discord's count toward the 6,000-character limit of an embed."""
    total = len(embed.get("title", "")) + len(embed.get("description", ""))
    total += len((embed.get("footer") or {}).get("text", "")) + len(
        (embed.get("author") or {}).get("name", "")
    )
    for field in embed.get("fields", []):
        total += len(field.get("name", "")) + len(field.get("value", ""))
    return total


def check_channel(env: Env, channel_id: int, members: set[int], director_role: int) -> None:
    """Every message in the channel (replies, followups, tracker, pings) fits Discord's limits, and pings
    no role but the Director role, never @everyone, and no one outside the table."""
    for message in env.backend.messages.get(channel_id, {}).values():
        assert len(message.content) <= CONTENT_MAX
        for embed in message.embeds:
            assert embed_length(embed) <= EMBED_TOTAL_MAX
            assert len(embed.get("fields", [])) <= FIELDS_MAX
        assert not message.mention_everyone, message.content
        assert set(message.ping_role_ids) <= {director_role}, message.content
        assert set(message.ping_user_ids) <= members, message.content


async def setup_encounter(table: Table, commands: set[str]) -> None:
    """A small encounter through the real commands, when they exist: two heroes, a squad, a solo."""
    steps: list[tuple[str, dict[str, Any]]] = [
        ("encounter start", {"name": "Fuzz ambush"}),
        ("encounter add", {"name": "Ash", "stamina": 30, "side": "heroes", "player": table.alice}),
        ("encounter add", {"name": "Brick", "stamina": 24, "side": "heroes", "player": table.bob}),
        ("encounter add", {"name": "Goblin", "stamina": 5, "side": "director", "count": 3, "squad": "Gobs"}),
        ("encounter add", {"name": "Ogre", "stamina": 60, "side": "director", "turns": 2}),
        ("encounter begin", {"first": "heroes"}),
    ]
    for name, options in steps:
        if name in commands:
            await table.director.slash(table.channel, name, **options)


async def run_script(script_seed: int, draw_script: Any, workdir: Path) -> int:
    """Start a fresh bot, set up, run the drawn script; returns how many commands were dispatched."""
    url = f"sqlite+aiosqlite:///{workdir}/bot.db"
    store = await Store.open(url, migrate=True)
    bot = build_bot(Settings(token=TOKEN, database_url=url), store, SeededDice(script_seed))
    env = Env(bot)
    dispatched = 0
    try:
        await env.start()
        table = make_table(env, store)
        stranger = table.add_player("stranger")
        actors = [table.director, table.alice, table.bob, stranger]
        catalogue = command_catalogue(bot)
        await setup_encounter(table, {name for name, _ in catalogue})
        key = ChannelKey(table.guild.id, table.channel.id)
        members = [table.director, table.alice, table.bob, stranger]
        allowed = {m.id for m in members}
        for actor_index, name, values in draw_script(catalogue, members, table):
            cursor = len(env.errors_since(0))
            try:
                result = await actors[actor_index].slash(table.channel, name, **values)
            except SetupError:
                continue  # Discord's own validation refused the option values: never reaches the bot
            dispatched += 1
            unexpected = [e for e in env.errors_since(cursor) if not is_user_facing(e)]
            assert not unexpected, (name, values, unexpected)
            assert result.acknowledged, (name, values)
            check_channel(env, table.channel.id, allowed, table.director_role.id)
            snapshot = await store.view(key)
            if snapshot.encounter is not None and snapshot.encounter.active:
                encounter_of(snapshot)
    finally:
        env.check_errors = False
        await env.shutdown()
        await store.close()
    return dispatched


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck), derandomize=False)
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_random_commands_never_crash_and_stay_within_limits(data: st.DataObject, seed: int) -> None:
    def draw_script(
        catalogue: list[tuple[str, list[dict[str, Any]]]], members: list[Any], table: Table
    ) -> list[tuple[int, str, dict[str, Any]]]:
        return data.draw(st.lists(invocation(catalogue, members, table), min_size=5, max_size=25))

    with tempfile.TemporaryDirectory() as workdir:
        dispatched = asyncio.run(run_script(seed, draw_script, Path(workdir)))
    assert dispatched >= 1
