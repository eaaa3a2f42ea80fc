"""docs/permissions.md's table against the code: every row's cells against `bot.permissions` (pure), every
rule and every registered command and button in the table, and the rows whose authority is the server's
(the settings, the roster, hero tokens, Victories, respite, starting encounters) plus a few of the
encounter's run end to end through SimCord for every column.

The requirement: "A table in `docs/permissions.md` lists every command and button against these roles. A
table-driven test covers every row of it: server Director role, Manage Server, channel-only Manage Channels,
the encounter's starter, the hero's owner, another player, and a stranger. The doc and the code must not
drift: the test reads the same table."
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands
from simcord import ChannelHandle, MemberActor

from bot.permissions import (
    CAMPAIGN_CHANGES,
    RULES,
    TOKEN_SPENDS,
    Actor,
    Authority,
    Standing,
    allowed,
    standing,
    undo_rule,
)
from tests.bot.conftest import Table

DOC = Path(__file__).resolve().parents[2] / "docs" / "permissions.md"
COLUMNS = (
    "Director role",
    "Manage Server",
    "Manage Channels (channel only)",
    "Encounter's starter",
    "Hero's owner",
    "Another player",
    "Stranger",
)
ROLE, DANA, MAX, MO, SAM, ALICE, BOB, CY = 10, 1, 2, 3, 4, 5, 6, 7
ACTORS = dict(
    zip(
        COLUMNS,
        (
            Actor.of(DANA, [ROLE]),
            Actor.of(MAX, manage_server=True),
            Actor.of(
                MO
            ),  # a channel's overwrite gives no Actor anything (the SimCord rows check the adapter)
            Actor.of(SAM),
            Actor.of(ALICE),
            Actor.of(BOB),
            Actor.of(CY),
        ),
        strict=True,
    )
)
OWNED_BY_ALICE = {"Ash", "alice's roll", "alice's change", "alice's token spend"}
ACTS_ON = {"—", "Ash", "Goblin", "no Director role", "the players' choice", *OWNED_BY_ALICE}


@dataclass(frozen=True, slots=True)
class Row:
    key: str
    acts_on: str
    cells: dict[str, bool]

    @property
    def id(self) -> str:
        return f"{self.key} [{self.acts_on}]"


def read_table(text: str) -> list[Row]:
    """The rows of the markdown table whose header starts with `| Key |`."""
    lines = [line.strip() for line in text.splitlines()]
    start = next(i for i, line in enumerate(lines) if line.startswith("| Key |"))
    header = [c.strip() for c in lines[start].strip("|").split("|")]
    assert header[:3] == ["Key", "What", "Acts on"] and tuple(header[3:]) == COLUMNS, header
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert len(cells) == len(header), line
        key = re.fullmatch(r"`([^`]+)`", cells[0])
        assert key is not None, f"the key is one `code` span: {line}"
        assert set(cells[3:]) <= {"yes", "no"}, line
        assert cells[2] in ACTS_ON, f"unknown 'Acts on': {cells[2]}"
        rows.append(Row(key[1], cells[2], dict(zip(COLUMNS, (c == "yes" for c in cells[3:]), strict=True))))
    return rows


ROWS = read_table(DOC.read_text(encoding="utf-8"))


def standing_of(column: str, acts_on: str) -> Standing:
    """Where the column's member stands for a row (the members as docs/permissions.md describes them)."""
    actor = ACTORS[column]
    return standing(
        actor,
        director_role_id=None if acts_on == "no Director role" else ROLE,
        encounter_director_id=SAM,
        owner_id=ALICE if acts_on in OWNED_BY_ALICE else None,
        in_encounter=actor.user_id in (ALICE, BOB),
    )


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row.id)
def test_every_row_is_what_the_code_decides(row: Row) -> None:
    assert row.key in RULES, f"{row.key} is no key of bot.permissions.RULES"
    authority = RULES[row.key].authority
    decided = {column: allowed(authority, standing_of(column, row.acts_on)) for column in COLUMNS}
    assert decided == row.cells


def test_heal_is_called_a_main_action() -> None:
    """Draw Steel, Combat, "Heal" is a main action, not a maneuver: the row says so."""
    lines = DOC.read_text(encoding="utf-8").splitlines()
    (row,) = [line for line in lines if line.startswith("| `/turn heal`")]
    assert "the Heal main action" in row and "maneuver" not in row


def test_every_rule_has_a_row() -> None:
    assert set(RULES) == {row.key for row in ROWS}


@pytest.mark.parametrize(
    ("kind", "key"),
    [
        ("strike", "/encounter undo"),
        ("encounter.hero", "/encounter undo"),
        ("tokens.spend", "/encounter undo (hero tokens)"),
        ("tokens.rescue", "/encounter undo (hero tokens)"),
        ("token", "/encounter undo (hero tokens)"),
        ("tokens.award", None),
        ("hero.claim", None),
        ("hero.edit", None),
        ("victories.award", None),
    ],
)
def test_an_undo_needs_the_row_of_the_change_it_undoes(kind: str, key: str | None) -> None:
    """Undoing a change is decided from its stored kind (`undo_rule`): one of the table's undo rows, or None
    for the campaign's changes, which no encounter's undo takes back."""
    assert undo_rule(kind) == key
    assert key is None or key in {row.key for row in ROWS}


def test_the_kinds_undo_decides_on_are_the_kinds_commands_commit() -> None:
    """Every kind `undo_rule` names is one a command commits with (a renamed kind would slip into the
    encounter's undo history, or out of its hero-token row)."""
    root = DOC.parents[1]
    source = "\n".join(
        p.read_text(encoding="utf-8") for d in ("bot", "exts") for p in (root / d).rglob("*.py")
    )
    committed = set(re.findall(r'(?:commit|play|apply)\(\s*\w+,\s*"([a-z._]+)"', source))
    committed |= set(re.findall(r'self\._change\(\s*\w+,\s*\w+,\s*"([a-z._]+)"', source))
    committed |= set(re.findall(r'play_scene\(\s*\w+,\s*\w+,\s*\w+,\s*"([a-z._]+)"', source))
    named = CAMPAIGN_CHANGES | TOKEN_SPENDS
    assert not named - committed, named - committed


def test_every_authority_is_used() -> None:
    assert {rule.authority for rule in RULES.values()} == set(Authority)


def button_keys(template: str) -> set[str]:
    """`enc:(?P<action>act|end):…` -> {"enc:act", "enc:end"}; `roll:dg:(?P<to>…` -> {"roll:dg"}."""
    family, rest = template.split(":", 1)
    actions = re.match(r"\(\?P<action>([a-z|]+)\)", rest)
    if actions is not None:
        return {f"{family}:{action}" for action in actions[1].split("|")}
    literal = re.match(r"[a-z]+", rest)
    assert literal is not None, template
    return {f"{family}:{literal[0]}"}


def dynamic_items() -> list[type[discord.ui.DynamicItem[Any]]]:
    """The bot's persistent items: the leaf classes (a base such as `ActionButton` is no button)."""
    found: list[type[discord.ui.DynamicItem[Any]]] = []
    todo: list[type[Any]] = [discord.ui.DynamicItem]
    while todo:
        for sub in todo.pop().__subclasses__():
            todo.append(sub)
            if sub.__module__.startswith(("bot.", "exts.")) and not sub.__subclasses__():
                found.append(sub)
    return found


async def test_every_command_and_button_has_a_row(table: Table) -> None:
    bot = table.env.bot
    keys = {row.key for row in ROWS}
    names = [
        f"/{command.qualified_name}"
        for command in bot.tree.walk_commands()
        if isinstance(command, app_commands.Command)
    ]
    missing = [n for n in names if not any(k == n or k.startswith(f"{n} ") for k in keys)]
    assert names and not missing, f"commands without a row in docs/permissions.md: {missing}"
    items = dynamic_items()
    buttons = set().union(*(button_keys(item.__discord_ui_compiled_template__.pattern) for item in items))
    assert {"roll:rr", "enc:act", "enc:pick"} <= buttons
    assert buttons <= keys, f"buttons without a row: {buttons - keys}"


# --- end to end: the rows the server decides, and some of the encounter's -----------------------------------
@dataclass
class Server:
    table: Table
    members: dict[str, MemberActor]
    eve: MemberActor
    ooc: ChannelHandle


Invoke = Callable[[Server], tuple[str, dict[str, Any]]]
THREAD = {"/encounter start"}
INVOKE: dict[str, Invoke] = {
    "/settings": lambda s: ("settings", {"turn_pings": True}),
    "/hero create player:": lambda s: (
        "hero create",
        {"name": "Zed", "stamina": 20, "recoveries": 6, "player": s.eve},
    ),
    "/hero edit": lambda s: ("hero edit", {"hero": "Ash", "level": 2}),
    "/hero claim player:": lambda s: ("hero claim", {"hero": "Ash", "player": s.eve}),
    "/hero delete": lambda s: ("hero delete", {"hero": "Ash"}),
    "/encounter hero": lambda s: ("encounter hero", {"name": "Ash"}),
    "/campaign join": lambda s: ("campaign join", {"channel": s.ooc}),
    "/campaign leave": lambda s: ("campaign leave", {}),
    "/tokens award": lambda s: ("tokens award", {"count": 1}),
    "/tokens reset": lambda s: ("tokens reset", {}),
    "/tokens spend": lambda s: ("tokens spend", {"use": "reroll", "hero": "Ash"}),
    "/victories award:": lambda s: ("victories", {"award": 1}),
    "/respite": lambda s: ("respite", {}),
    "/encounter start": lambda s: ("encounter start", {}),
    "/encounter add side:director": lambda s: (
        "encounter add",
        {"name": "Orc", "stamina": 5, "side": "director"},
    ),
    "/encounter surprise": lambda s: ("encounter surprise", {"combatants": "Goblin"}),
    "/encounter status private:": lambda s: ("encounter status", {"private": True}),
    "/malice gain": lambda s: ("malice gain", {"amount": 1}),
}
END_TO_END = [row for row in ROWS if row.key in INVOKE]


async def server_of(table: Table, *, director_role: bool) -> Server:
    """The server docs/permissions.md describes: sam starts the encounter in #combat before the Director role
    is set and adds a Goblin, alice and bob bring in Ash and Bram; the party has 50 hero tokens."""
    from tests.bot.test_heroes import create
    from tests.bot.test_tokens import set_tokens

    members = dict(
        zip(
            COLUMNS,
            (
                table.director,
                table.add_server_manager("max"),
                table.add_channel_only_manager("mo"),
                table.add_player("sam"),
                table.alice,
                table.bob,
                table.add_player("cy"),
            ),
            strict=True,
        )
    )
    await create(table, table.alice)
    await create(table, table.bob, name="Bram")
    sam = members["Encounter's starter"]
    for who, command, options in (
        (sam, "encounter start", {}),
        (table.alice, "encounter hero", {"name": "Ash"}),  # only a hero's player brings them in
        (table.bob, "encounter hero", {"name": "Bram"}),
        (sam, "encounter add", {"name": "Goblin", "stamina": 10, "side": "director"}),
    ):
        result = await who.slash(table.channel, command, **options)
        assert not result.ephemeral, (command, result.response.content)
    if director_role:
        await table.configure_director_role()
    table.allow_command("settings", table.guild.default_role)  # shown to all: the bot itself decides
    await set_tokens(table, 50)
    return Server(table, members, table.add_player("eve"), table.guild.create_text_channel("ooc"))


@pytest.mark.parametrize("row", END_TO_END, ids=lambda row: row.id)
async def test_the_row_end_to_end(table: Table, row: Row) -> None:
    server = await server_of(table, director_role=row.acts_on != "no Director role")
    name, options = INVOKE[row.key](server)
    where = table.thread if row.key in THREAD else table.channel
    decided = {}
    for column in COLUMNS:
        result = await server.members[column].slash(where, name, **options)
        message = result.response if result.response is not None else result.followups[0]
        decided[column] = not (result.ephemeral and message.content.startswith("Only "))
    assert decided == row.cells
