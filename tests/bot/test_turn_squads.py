"""A minion squad takes its turn through every way the bot offers it: `/turn act` with
the name the autocomplete and the tracker offer, the tracker's select, a minion's name, `/turn skip`; and an
enemy group's members act one after another.

Draw Steel, Combat, "Enemies Act In Groups": "When a group of enemies acts, the Director chooses a
single creature or minion squad to take a turn. Once that turn is over, the Director chooses another creature
in that group to take a turn, continuing until all members of the group have taken their turn."
"""

from __future__ import annotations

import pytest

from bot.rules.turns import current
from tests.bot import encounter_kit as kit
from tests.bot.conftest import Table
from tests.bot.test_turn import options, select_id


async def _squad_and_ogre(table: Table, group: str | None = None) -> None:
    """Ash (alice) against a squad of four rats and an ogre; the Director's side goes first."""
    await kit.start(table)
    await kit.add(table, name="Ash", stamina=30, side="heroes", player=table.alice)
    extra = {"group": group} if group is not None else {}
    await kit.add(table, name="Rat", stamina=5, side="director", count=4, squad="Rats", **extra)
    await kit.add(table, name="Ogre", stamina=40, side="director", **extra)
    await kit.begin(table, first="director")


async def test_the_squad_acts_with_the_name_the_autocomplete_offers(table: Table) -> None:
    """The turn-order text lets the Director choose "a single creature or minion squad" to act: the value
    the autocomplete offers for the squad starts the squad's turn, and the squad acts as one."""
    await _squad_and_ogre(table)
    offered = [
        c["value"] for c in await table.director.autocomplete(table.channel, "turn act", "combatant", "")
    ]
    assert offered == ["Rats", "Ogre"]
    text = kit.ok(await table.director.slash(table.channel, "turn act", combatant=offered[0]))
    assert "**Rats** starts their turn" in text
    turn = current((await kit.stored(table)).turns)
    assert turn is not None and turn.entry == "Rats" and not turn.override
    text = kit.ok(await table.director.slash(table.channel, "turn end"))
    assert "Rats**'s turn ends" in text


async def test_the_squad_acts_from_the_trackers_select(table: Table) -> None:
    await _squad_and_ogre(table)
    shown = kit.tracker(table.channel)
    assert options(shown) == ["Rats", "Ogre"]
    text = kit.ok(await table.director.select(shown, ["Rats"], custom_id=select_id(shown)))
    assert "**Rats** starts their turn" in text


async def test_a_minions_name_starts_its_squads_turn(table: Table) -> None:
    await _squad_and_ogre(table)
    text = kit.ok(await table.director.slash(table.channel, "turn act", combatant="Rat 3"))
    assert "**Rats** starts their turn" in text


async def test_the_squad_passes_its_turn(table: Table) -> None:
    await _squad_and_ogre(table)
    text = kit.ok(await table.director.slash(table.channel, "turn skip", combatant="Rats"))
    assert "**Rats** passes their turn" in text
    enc = await kit.stored(table)
    assert [(t.entry, t.ended) for t in enc.turns.turns] == [("Rats", True)]


@pytest.mark.parametrize("first", ["Rats", "Ogre"])
async def test_an_enemy_groups_members_act_one_after_another(table: Table, first: str) -> None:
    """A group is one pick: once its first member's turn is over the Director chooses another member of that
    group, so the group's squad and ogre act back to back before the heroes pick."""
    await _squad_and_ogre(table, group="Pack")
    kit.ok(await table.director.slash(table.channel, "turn act", combatant=first))
    text = kit.ok(await table.director.slash(table.channel, "turn end"))
    second = "Ogre" if first == "Rats" else "Rats"
    refusal = kit.refused(await table.alice.slash(table.channel, "turn act", combatant="Ash"))
    assert "Pack is still acting" in refusal
    shown = kit.tracker(table.channel)
    assert options(shown) == [second]
    assert text
    text = kit.ok(await table.director.slash(table.channel, "turn act", combatant=second))
    assert f"**{second}** starts their turn" in text and "out of order" not in text


async def test_a_squads_turn_end_names_each_minion_once(table: Table) -> None:
    """A turn change names each creature once: Rat 1's two conditions that end with the squad's turn are one
    line, and Rat 2's two saves (the Director's creatures roll theirs) another."""
    await _squad_and_ogre(table)
    for rat, condition, duration in (
        ("Rat 1", "slowed", "eot"),
        ("Rat 1", "dazed", "eot"),
        ("Rat 2", "frightened", "save"),
        ("Rat 2", "weakened", "save"),
    ):
        kit.ok(
            await table.director.slash(
                table.channel, "condition add", target=rat, condition=condition, duration=duration
            )
        )
    kit.ok(await table.director.slash(table.channel, "turn act", combatant="Rats"))

    text = kit.ok(await table.director.slash(table.channel, "turn end"))

    assert text.count("Rat 1") == 1 and text.count("Rat 2") == 1, text
    assert "Rat 1 is no longer slowed or dazed." in text
    assert "🎲 **Rat 2** saves against frightened: d10 " in text and "; against weakened: d10 " in text
