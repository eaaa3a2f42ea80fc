"""/strike through SimCord: one roll, each target its own tier and damage steps, minions, dying and dead
heroes, surges, permissions, bad input on every option, inert names, and the targets autocomplete."""

from __future__ import annotations

import dataclasses

import pytest
from discord import app_commands
from simcord.env import Env

from bot.autocomplete import never_fails
from bot.rules.dice import Dice, FixedDice
from bot.rules.encounter import Encounter, NewCreatures, flow, harm, new_encounter_state
from bot.rules.turns import Controller, mark_surprised
from tests.bot import harm_kit
from tests.bot.conftest import Table


@pytest.fixture
def dice() -> Dice:
    # 7 + 9 (tier 2), 10 + 9 (a critical), 5 + 5, then 9 + 9 for every later roll a test makes.
    return FixedDice([7, 9, 10, 9, 5, 5, *([9] * 40)])


def surprise(name: str):  # type: ignore[no-untyped-def]
    def fn(enc: Encounter) -> Encounter:
        return enc.with_turns(mark_surprised(enc.turns, name).state)

    return fn


async def summaries(table: Table) -> list[str]:
    view = await table.store.view(harm_kit.key(table))
    assert view.encounter is not None and view.encounter.id is not None
    return [e.summary for e in await table.store.events(view.encounter.id, guild_id=table.guild.id)]


async def test_one_roll_each_target_its_own_tier(table: Table) -> None:
    await harm_kit.start(table)
    await harm_kit.edit(table, surprise("Goblin 2"))

    text = await harm_kit.strike(
        table, table.alice, targets="Goblin 1, goblin 2", damage="3/6/9", type="fire"
    )

    lines = text.splitlines()
    assert lines[1] == "Dice: 7 + 9 · Total: 16 · Tier 2"
    assert lines[2].startswith("**Goblin 1** — Tier 2: 6 fire damage")
    assert "Stamina: 4/10 · winded" in lines[2]
    assert lines[3].startswith("**Goblin 2** — Tier 3 (Total: 18, edge (+2)): 9 fire damage")
    assert "Stamina: 1/10" in lines[3]
    enc = await harm_kit.current(table)
    assert enc.creature("Goblin 1").vitals.stamina == 4
    assert enc.creature("Goblin 2").vitals.stamina == 1
    assert (
        "Ash strikes Goblin 1 (tier 2): 6 fire damage, Goblin 1 is winded; Goblin 2 (tier 3): 9 fire damage"
        in (await summaries(table))[-1]
    )


async def test_a_kill_a_critical_and_the_event_summary(table: Table) -> None:
    await harm_kit.start(table)
    await harm_kit.strike(table, table.alice, targets="Goblin 2", damage="1/1/1")  # uses 7 + 9

    text = await harm_kit.strike(table, table.alice, targets="Goblin 1", damage="3/6/10")

    assert "Dice: 10 + 9 · Total: 19 · Tier 3 · Critical" in text
    assert "Stamina: 0/10 · dead" in text
    assert (await harm_kit.entry(table, "Goblin 1")).dead
    assert (await summaries(table))[-1] == "Ash strikes Goblin 1 (tier 3): 10 damage, Goblin 1 dies"


async def test_letters_bonus_edges_and_surges(table: Table) -> None:
    await harm_kit.start(table)
    await harm_kit.edit(table, lambda enc: dataclasses.replace(enc, surges={"Ash": 3}))

    text = await harm_kit.strike(
        table,
        table.alice,
        targets="Ogre",
        damage="2+M/5+M/7+M",
        bonus=2,
        edges=1,
        banes=2,
        surges=2,
        effect="push 1; push 2; push 3 and prone",
    )

    # 7 + 9 + 2, one edge against two banes leaves a bane: 16, tier 2 -> 5+2 = 7, plus 2 surges of A3: 13
    assert "Dice: 7 + 9 · bonus +2 · bane (−2) · Total: 16 · Tier 2" in text
    assert "13 damage (of 13 with surges +6)" in text and "effect: push 2" in text
    assert "Stamina: 7/20" in text
    enc = await harm_kit.current(table)
    assert enc.surges == {"Ash": 1}


async def test_weakness_immunity_and_temporary_stamina(table: Table) -> None:
    await harm_kit.start(table)
    await harm_kit.edit(table, lambda enc: harm.give_temporary(enc, "Ogre", 4)[0])

    goblin = {"attacker": "Goblin 1", "targets": "Ogre", "damage": "3/6/9"}
    cold = await harm_kit.strike(table, table.director, **goblin, type="cold")
    fire = await harm_kit.strike(table, table.director, **goblin, type="fire")

    assert "9 cold damage (of 6: cold weakness 3, 4 temporary Stamina absorbed) · Stamina: 15/20" in cold
    assert "Tier 3" in fire
    assert "4 fire damage (of 9: fire immunity 5) · Stamina: 11/20" in fire


async def test_minions_die_from_one_hit_and_the_squad_falls(table: Table) -> None:
    await harm_kit.start(table)

    one = await harm_kit.strike(table, table.alice, targets="Minion 1", damage="9/9/9")
    two = await harm_kit.strike(table, table.alice, targets="Minion 3", damage="9/9/9")

    assert "Stamina: 3/12 · 2 minions killed: Minion 1, Minion 2" in one
    assert "squad defeated" in two
    assert (await harm_kit.entry(table, "Pack")).dead
    again = await table.alice.slash(table.channel, "strike", targets="Minion 1", damage="1/1/1")
    assert again.ephemeral and again.response is not None
    assert "Minion 1 is dead already" in again.response.content


async def test_area_option_caps_minions_and_a_plain_strike_fills_the_pool(table: Table) -> None:
    """ "Only area damage is capped per minion. A non-area strike that names several minions of one
    squad puts its full damage into the pool, and may drop more minions than it named. `/strike area:true`
    ... says which is which." """
    await harm_kit.start(table)

    area = await harm_kit.strike(table, table.alice, targets="Minion 1, Minion 2", damage="9/9/9", area=True)
    assert "2 minions killed: Minion 1, Minion 2" in area
    assert "Minion 3" not in area.split("killed:")[1]
    await table.director.slash(table.channel, "encounter undo")

    plain = await harm_kit.strike(table, table.alice, targets="Minion 1, Minion 2", damage="7/7/7")
    assert "3 minions killed: Minion 1, Minion 2, Minion 3" in plain
    assert "to Pack's pool with the others" in plain


async def test_halved_strike_halves_before_immunity(table: Table) -> None:
    """Draw Steel, Combat, "DAMAGE IMMUNITY": "Damage immunity should be the last thing applied"."""
    await harm_kit.start(table)
    text = await harm_kit.strike(
        table, table.alice, targets="Ogre", damage="16/16/16", type="fire", halved=True
    )
    assert "3 fire damage (of 16: halved, rounded down, fire immunity 5)" in text


async def test_a_hero_dying_then_dead(table: Table) -> None:
    await harm_kit.start(table)

    dying = await harm_kit.strike(table, table.director, attacker="Ogre", targets="Ash", damage="31/31/31")
    dead = await harm_kit.strike(table, table.director, attacker="Ogre", targets="Ash", damage="14/14/14")

    assert "Stamina: -1/30 · dying" in dying
    assert "Stamina: -15/30 · dead" in dead
    assert (await summaries(table))[-2].endswith("Ash is dying")
    assert (await harm_kit.entry(table, "Ash")).dead


@pytest.mark.parametrize(
    ("who", "attacker", "message"),
    [
        ("stranger", "Ash", "Only Ash's player or the Director can strike with Ash."),
        ("bob", "Ash", "Only Ash's player or the Director can strike with Ash."),
        ("alice", "Goblin 1", "Only the Director can strike with Goblin 1."),
        ("stranger", None, "You control no creature in this encounter: name one with the attacker option."),
        ("director", None, "You control no creature in this encounter: name one with the attacker option."),
    ],
)
async def test_who_may_strike(table: Table, who: str, attacker: str | None, message: str) -> None:
    await harm_kit.start(table)
    member = harm_kit.member(table, who)
    options = {"targets": "Goblin 1", "damage": "3/6/9"} | ({"attacker": attacker} if attacker else {})
    assert await harm_kit.refused_unchanged(table, "strike", by=member, **options) == message


@pytest.mark.parametrize(
    ("options", "hint"),
    [
        ({"targets": "Gobbo"}, "No creature named 'Gobbo'"),
        ({"targets": "Goblin 1", "damage": "lots"}, "Damage must look like 3/6/9"),
        ({"targets": ", ".join(["Goblin 1"] * 11)}, "at most 10 targets"),
        ({"targets": " , "}, "Name at least one target"),
        ({"targets": "Goblin 1, goblin 1"}, "named twice"),
        ({"targets": "Goblin 1", "edges": -1}, "Edges and banes"),
        ({"targets": "Goblin 1", "banes": 11}, "Edges and banes"),
        ({"targets": "Goblin 1", "bonus": 500}, "bonus runs from"),
        ({"targets": "Goblin 1", "damage": "3/6/9", "surges": 4}, "0 to 3 surges"),
        ({"targets": "Goblin 1", "damage": "3/6/9", "surges": 1}, "has 0 surge(s)"),
        ({"targets": "Goblin 1", "surges": 0, "effect": "a; b"}, "one per tier"),
        ({"targets": "Goblin 1", "damage": "3/6/9 cold", "type": "fire"}, "give the type once"),
        ({"targets": "Goblin 1", "attacker": "Nobody"}, "No creature named 'Nobody'"),
        ({"targets": "x" * 1001}, "at most 1000 characters"),
    ],
)
async def test_bad_input_gets_a_one_line_hint_and_stores_nothing(
    table: Table, options: dict[str, object], hint: str
) -> None:
    await harm_kit.start(table)
    assert hint in await harm_kit.refused_unchanged(table, "strike", by=table.alice, **options)


async def test_no_encounter_here(table: Table) -> None:
    await harm_kit.start(table)  # in #combat, not in the thread

    result = await table.alice.slash(table.thread, "strike", targets="Goblin 1", damage="3/6/9")

    assert result.ephemeral and result.response is not None
    assert "No encounter in this channel" in result.response.content


async def test_names_render_inert(simcord_env: Env, table: Table) -> None:
    await harm_kit.start(
        table,
        (
            NewCreatures("Ash", 30, "heroes", is_hero=True, owner_id=table.alice.id),
            NewCreatures("@everyone **boss**", 10, "director"),
        ),
    )

    result = await table.alice.slash(table.channel, "strike", targets="@everyone **boss**", damage="3/6/9")

    assert result.response is not None
    text = result.response.content
    assert "@everyone" not in text and "@\u200beveryone \\*\\*boss\\*\\*" in text
    assert not result.response._message.mention_everyone


async def test_targets_autocomplete(table: Table) -> None:
    await harm_kit.start(table)
    await harm_kit.edit(table, lambda enc: harm.damage(enc, "Minion 1", 4)[0])

    typed = await table.alice.autocomplete(table.channel, "strike", "targets", "Goblin 1, gob")
    minions = await table.alice.autocomplete(table.channel, "strike", "attacker", "MIN")
    nothing = await table.alice.autocomplete(table.thread, "strike", "targets", "gob")

    assert [c["value"] for c in typed] == ["Goblin 1, Goblin 2"]
    assert [c["value"] for c in minions] == ["Minion 2", "Minion 3", "Minion 1"]  # the dead last
    assert nothing == []


async def test_knock_out_instead_of_killing(table: Table) -> None:
    await harm_kit.start(table)

    text = await harm_kit.strike(
        table, table.director, attacker="Ogre", targets="Ash", damage="50/50/50", knock_out=True
    )

    assert "Stamina: -20/30 · knocked out" in text
    assert (await summaries(table))[-1] == "Ogre strikes Ash (tier 2): 50 damage, Ash is knocked out"
    entry = await harm_kit.entry(table, "Ash")
    assert entry.unconscious and not entry.dead


def test_autocomplete_offers_at_most_25_short_enough_choices() -> None:
    from bot.autocomplete import CHOICES_MAX, VALUE_MAX, name_choices, target_choices
    from bot.rules.encounter import add_creatures, new_encounter_state

    enc, _ = add_creatures(new_encounter_state(), NewCreatures("Goblin", 10, "director", count=40))
    enc, _ = add_creatures(enc, NewCreatures("G" * 60, 10, "director"))

    assert len(name_choices(enc, "gob")) == CHOICES_MAX
    assert [c.value for c in name_choices(enc, "goblin 4")] == ["Goblin 4", "Goblin 40"]
    long_prefix = ", ".join(f"Goblin {n}" for n in range(1, 8)) + ", G"
    offered = [c.value for c in target_choices(enc, long_prefix)]
    assert offered and all(len(v) <= VALUE_MAX for v in offered)
    assert all(v.startswith("Goblin 1, Goblin 2, ") for v in offered)
    assert "Goblin 1, Goblin 2, Goblin 3, Goblin 4, Goblin 5, Goblin 6, Goblin 7, Goblin 1" not in offered


async def test_melee_against_a_prone_target_gains_an_edge(table: Table) -> None:
    await harm_kit.start(table)
    await table.director.slash(table.channel, "condition add", target="Goblin 1", condition="prone")

    ranged = await harm_kit.strike(table, table.alice, targets="Goblin 1")  # 7 + 9
    melee = await harm_kit.strike(table, table.alice, targets="Goblin 1", melee=True)  # 10 + 9

    assert ranged.splitlines()[2] == "**Goblin 1** — Tier 2"
    # the edge applies to the only target: the headline has it, the target's line repeats nothing
    assert melee.splitlines()[1:3] == [
        "Dice: 10 + 9 · edge (+2) · Total: 21 · Tier 3 · Critical",
        "**Goblin 1** — Tier 3",
    ]


async def test_ten_long_named_targets_fit_one_message(table: Table) -> None:
    names = [f"{'_' * 55} {n}" for n in range(10)]
    await harm_kit.start(
        table,
        (
            NewCreatures("Ash", 30, "heroes", is_hero=True, owner_id=table.alice.id),
            *(NewCreatures(name, 10, "director") for name in names),
        ),
    )
    effect = "; ".join(f"tier {n} " + "x" * 90 for n in (1, 2, 3))

    text = await harm_kit.strike(table, table.alice, targets=", ".join(names), damage="3/6/9", effect=effect)

    assert len(text) <= 2000 and not text.endswith("…")
    assert text.count("Stamina: 4/10") == 10  # every target's line survives
    assert "Tier 2 effect: tier 2 xxx" in text


async def test_with_the_action_economy_enforced_a_second_strike_in_a_turn_is_refused(table: Table) -> None:
    encounter = new_encounter_state(enforce_actions=True)
    await harm_kit.start(table, encounter=encounter)

    def ash_acts(enc: Encounter) -> Encounter:
        enc = flow.begin(enc, FixedDice([]), first="heroes").encounter
        return flow.act(enc, "Ash", Controller.PLAYERS, FixedDice([])).encounter

    await harm_kit.edit(table, ash_acts)
    # a goblin's free strike on Ash's turn uses no action (7 + 9)
    free = await table.director.slash(
        table.channel, "strike", targets="Bree", damage="1/1/1", attacker="Goblin 2"
    )
    crit = await table.alice.slash(table.channel, "strike", targets="Goblin 1", damage="1/1/1")  # 10 + 9
    main = await table.alice.slash(table.channel, "strike", targets="Goblin 1", damage="1/1/1")  # 5 + 5
    refused = await table.alice.slash(table.channel, "strike", targets="Goblin 1", damage="1/1/1")
    assert (
        not free.ephemeral and not crit.ephemeral and not main.ephemeral
    )  # a critical: an extra main action
    assert refused.ephemeral and refused.response is not None
    assert "No main action left" in refused.response.content
    assert (await harm_kit.current(table)).creature("Goblin 1").vitals.stamina == 8


async def test_an_autocomplete_that_breaks_offers_nothing() -> None:
    @never_fails
    async def broken(_interaction: object, _current: str) -> list[app_commands.Choice[str]]:
        raise RuntimeError("the store is away")

    assert await broken(None, "gob") == []  # type: ignore[arg-type]  # never read
