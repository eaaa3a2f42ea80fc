"""Every message the bot sends fits Discord's limits (`bot.replies.fit`): content within 2,000 characters with
every mention kept, embeds within theirs and 6,000 in all. Discord refuses a message past them with a 400,
and a turn ping past them reached nobody. Also: every send in the bot goes through `bot.replies`.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import discord
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.embeds import FIELD_VALUE_MAX, FIELDS_MAX, TOTAL_MAX
from bot.replies import MAX_CONTENT, fit, fit_content
from bot.rules.conditions import Condition, Duration
from bot.rules.encounter import NewCreatures
from bot.rules.turns.condition_changes import add_condition
from tests.bot import encounter_kit as kit
from tests.bot import harm_kit
from tests.bot.conftest import Table

MENTION = re.compile(r"<@[!&]?\d+>")
ROOT = Path(__file__).resolve().parents[2]


def test_short_content_is_sent_as_it_is() -> None:
    assert fit_content("<@1> — the heroes pick") == "<@1> — the heroes pick"


def test_a_long_list_is_cut_at_a_line_and_says_how_many_more() -> None:
    text = "<@&5> <@1> — pick\n" + "\n".join(f"line {n} " + "x" * 50 for n in range(100))
    cut = fit_content(text)
    assert len(cut) <= MAX_CONTENT
    assert cut.startswith("<@&5> <@1> — pick\nline 0 ")
    shown = cut.count("\nline ")
    assert cut.endswith(f"\n… and {100 - shown} more lines")


def test_mentions_the_cut_would_drop_are_kept() -> None:
    text = "Round 2 " + "y" * 2500 + " <@12345678901234567> <@&765432109876543210>"
    cut = fit_content(text)
    assert len(cut) <= MAX_CONTENT
    assert cut.endswith("… <@12345678901234567> <@&765432109876543210>")


def test_a_mention_is_never_cut_in_two() -> None:
    for start in range(1930, 1990):
        text = "z" * start + "<@123456789012345678> " + "w" * 200
        cut = fit_content(text)
        assert len(cut) <= MAX_CONTENT
        assert MENTION.findall(cut) == ["<@123456789012345678>"], start


@settings(max_examples=80, deadline=None)
@given(
    parts=st.lists(
        st.one_of(
            st.text(max_size=300),
            st.integers(1, 10**19).map(lambda n: f"<@{n}>"),
            st.integers(1, 10**19).map(lambda n: f"<@&{n}>"),
            st.just("\n"),
        ),
        max_size=40,
    ),
    pad=st.integers(0, 3000),
)
def test_any_content_fits_with_its_mentions(parts: list[str], pad: int) -> None:
    text = "".join(parts) + "p" * pad
    cut = fit_content(text)
    assert len(cut) <= MAX_CONTENT
    assert set(MENTION.findall(text)) <= set(MENTION.findall(cut))


def test_embeds_fit_each_and_together() -> None:
    big = discord.Embed(title="T" * 300, description="D" * 5000)
    for n in range(30):
        big.add_field(name=f"F{n}", value="V" * 2000)
    fitted = fit("c" * 2500, [big, discord.Embed(description="E" * 3000)])
    assert fitted.content is not None and len(fitted.content) <= MAX_CONTENT
    first = fitted.embeds[0]
    assert len(first.fields) <= FIELDS_MAX
    assert all(len(f.value or "") <= FIELD_VALUE_MAX for f in first.fields)
    assert sum(len(e) for e in fitted.embeds) <= TOTAL_MAX
    small = discord.Embed(title="ok", description="fine")
    assert fit(None, [small]).embeds == [small]  # an embed within its limits is sent as it is


def _conditions(heroes: list[str]) -> Any:
    def edit(encounter: Any) -> Any:
        turns = encounter.turns
        for hero in heroes:
            for n in range(20):
                text = f"{hero} is marked by the {n}th sigil of a long custom curse".ljust(60, ".")
                turns = add_condition(turns, hero, Condition.CUSTOM, Duration.SAVE, custom_text=text).state
        return encounter.with_turns(turns)

    return edit


async def test_a_ping_with_twenty_long_conditions_per_hero_is_sent_with_every_mention(table: Table) -> None:
    """Eight heroes of eight players, each with twenty 60-character custom conditions: the heroes' ping is
    far past 2,000 characters as rendered. It is sent, within 2,000, pinging all eight."""
    players = [table.alice, table.bob, *(table.add_player(f"player{n}") for n in range(6))]
    heroes = [f"Hero {n}" for n in range(len(players))]
    specs = tuple(
        NewCreatures(name, 30, "heroes", is_hero=True, owner_id=player.id)
        for name, player in zip(heroes, players, strict=True)
    )
    await harm_kit.start(table, (*specs, NewCreatures("Goblin", 10, "director")))
    await harm_kit.edit(table, _conditions(heroes))
    await kit.begin(table, first="director")
    kit.ok(await table.director.slash(table.channel, "turn act", combatant="Goblin"))

    kit.ok(await table.director.slash(table.channel, "turn end"))

    pinged = [(content, users) for content, users, _ in kit.pings(table) if "pick who acts" in content]
    assert len(pinged) == 1, kit.pings(table)
    content, users = pinged[0]
    assert len(content) <= MAX_CONTENT
    assert sorted(users) == sorted(p.id for p in players)
    assert all(f"<@{p.id}>" in content for p in players)
    assert "more" in content  # what doesn't fit is counted, not dropped in silence


SENDS = re.compile(r"\.(send|send_message|edit_message|edit_original_response)\(|\bmessage\.edit\(")


def test_every_send_goes_through_the_one_sender() -> None:
    """No module but `bot/replies.py` sends or edits a message itself (each would skip `fit`)."""
    offenders = []
    for path in sorted([*ROOT.glob("bot/**/*.py"), *ROOT.glob("exts/**/*.py")]):
        if path.relative_to(ROOT).as_posix() == "bot/replies.py":
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if SENDS.search(line) and not line.lstrip().startswith("#"):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert offenders == []
