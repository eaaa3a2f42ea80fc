"""Harm and help on the encounter aggregate (bot.rules.encounter.harm): damage steps, minions, deaths and the
turn engine's flags, healing, temporary Stamina, corrections, Catch Breath, strikes, conditions, saves and
Malice."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules import codec
from bot.rules.characteristics import Characteristics
from bot.rules.conditions import Condition, Duration
from bot.rules.damage import DamageModifiers, DamageType, TieredDamage
from bot.rules.dice import FixedDice
from bot.rules.encounter import (
    Encounter,
    NewCreatures,
    UnknownCreature,
    add_creatures,
    flow,
    harm,
    new_encounter_state,
)
from bot.rules.errors import RuleError
from bot.rules.power import PowerRoll
from bot.rules.resources import Malice
from bot.rules.squads import MinionError
from bot.rules.stamina import StaminaError
from bot.rules.turns import ActionKind, Controller, Mode, current, mark_surprised

ASH_PLAYER = 7


def table() -> Encounter:
    enc = new_encounter_state()
    specs = [
        NewCreatures(
            "Ash",
            30,
            "heroes",
            is_hero=True,
            owner_id=ASH_PLAYER,
            recoveries=2,
            characteristics=Characteristics.parse("M2 A3 R0 I0 P1"),
        ),
        NewCreatures("Goblin", 10, "director", count=2),
        NewCreatures("Minion", 4, "director", count=3, squad="Pack"),
        NewCreatures("Ogre", 20, "director", modifiers=DamageModifiers.parse("fire 5", "cold 3")),
    ]
    for spec in specs:
        enc, _ = add_creatures(enc, spec)
    return enc


def roll(d1: int, d2: int, bonus: int = 0, edges: int = 0, banes: int = 0) -> PowerRoll:
    return PowerRoll(dice=(d1, d2), bonus=bonus, edges=edges, banes=banes, main_action=True)


# --- damage ---------------------------------------------------------------------------------------------
def test_damage_kills_a_monster_and_flags_its_entry_dead() -> None:
    enc, hit = harm.damage(table(), "goblin 1", 12)
    assert hit.target == "Goblin 1" and hit.dealt == 12 and hit.killed == ("Goblin 1",)
    assert enc.creature("Goblin 1").vitals.dead
    entry = enc.turns.entry("Goblin 1")
    assert entry is not None and entry.dead
    with pytest.raises(harm.HarmError, match="dead already"):
        harm.damage(enc, "Goblin 1", 1)


def test_weakness_then_immunity_then_temporary_stamina() -> None:
    enc, _ = harm.give_temporary(table(), "Ogre", 4)
    enc, hit = harm.damage(enc, "Ogre", 9, DamageType.FIRE)
    assert hit.dealt == 4  # fire immunity 5
    assert [s.name for s in hit.steps] == ["immunity", "temporary Stamina", "Stamina"]
    assert enc.creature("Ogre").vitals.stamina == 20 and enc.creature("Ogre").vitals.temporary == 0
    enc, hit = harm.damage(enc, "Ogre", 2, DamageType.COLD)
    assert hit.dealt == 5 and enc.creature("Ogre").vitals.stamina == 15


def test_a_hero_goes_dying_then_dies() -> None:
    enc, hit = harm.damage(table(), "Ash", 31)
    ash = enc.creature("Ash")
    assert ash.vitals.dying and not hit.killed
    entry = enc.turns.entry("Ash")
    assert entry is not None and not entry.dead
    enc, hit = harm.damage(enc, "Ash", 14)  # -15 = the negative of the winded value
    assert hit.killed == ("Ash",)
    entry = enc.turns.entry("Ash")
    assert entry is not None and entry.dead


def test_damage_to_one_minion_kills_several_and_the_last_kills_the_squad() -> None:
    enc, hit = harm.damage(table(), "Minion 2", 9)
    assert hit.squad_after is not None and hit.squad_after.pool == 3
    assert hit.killed == ("Minion 2", "Minion 1")
    entry = enc.turns.entry("Pack")
    assert entry is not None and not entry.dead
    with pytest.raises(harm.HarmError, match="dead already"):
        harm.damage(enc, "Minion 1", 1)
    enc, hit = harm.damage(enc, "pack", 5)  # the squad's name: its first living minion
    assert hit.target == "Minion 3" and hit.killed == ("Minion 3",)
    entry = enc.turns.entry("Pack")
    assert entry is not None and entry.dead
    with pytest.raises(harm.HarmError, match="Every minion"):
        harm.damage(enc, "Pack", 1)


@pytest.mark.parametrize("amount", [-1, harm.AMOUNT_MAX + 1])
def test_amounts_out_of_range_are_refused(amount: int) -> None:
    for fn in (harm.damage, harm.heal, harm.give_temporary):
        with pytest.raises(harm.HarmError, match="type"):
            fn(table(), "Ash", amount)


def test_unknown_target() -> None:
    with pytest.raises(UnknownCreature, match="Gobbo"):
        harm.damage(table(), "Gobbo", 3)


# --- healing, temporary Stamina, set, Catch Breath ----------------------------------------------------------
def test_heal_caps_at_the_maximum_and_revives_the_flags() -> None:
    enc, _ = harm.damage(table(), "Ash", 20)
    enc, healed = harm.heal(enc, "Ash", 50)
    assert healed.before.stamina == 10 and healed.after.stamina == 30


def test_minions_cannot_heal_or_gain_temporary_stamina_or_be_set() -> None:
    with pytest.raises(MinionError):
        harm.heal(table(), "Minion 1", 1)
    with pytest.raises(MinionError):
        harm.give_temporary(table(), "Minion 1", 1)
    with pytest.raises(harm.HarmError, match="/stamina damage"):
        harm.set_stamina(table(), "Minion 1", 1)


def test_temporary_stamina_keeps_the_greater() -> None:
    enc, _ = harm.give_temporary(table(), "Ash", 5)
    enc, change = harm.give_temporary(enc, "Ash", 3)
    assert change.after.temporary == 5


def test_set_brings_a_dead_monster_back_and_clears_the_flag() -> None:
    enc, _ = harm.damage(table(), "Goblin 2", 10)
    enc, change = harm.set_stamina(enc, "Goblin 2", 4)
    assert change.after.stamina == 4 and not change.after.dead
    entry = enc.turns.entry("Goblin 2")
    assert entry is not None and not entry.dead
    with pytest.raises(harm.HarmError, match="from 0 to 10"):
        harm.set_stamina(enc, "Goblin 2", 11)
    with pytest.raises(harm.HarmError, match="negative"):
        harm.set_stamina(enc, "Goblin 2", -1)


def test_catch_breath_spends_a_recovery() -> None:
    enc, _ = harm.damage(table(), "Ash", 20)
    enc, change = harm.catch_breath(enc, "Ash")
    assert change.after.stamina == 20 and change.after.recoveries == 1
    enc, _ = harm.catch_breath(enc, "Ash")
    with pytest.raises(StaminaError, match="No Recoveries"):
        harm.catch_breath(enc, "Ash")
    with pytest.raises(StaminaError, match="Director creatures"):
        harm.catch_breath(enc, "Goblin 1")


# --- strikes ---------------------------------------------------------------------------------------------
def test_strike_each_target_its_own_tier_surprise_gives_an_edge() -> None:
    enc = table()
    enc = enc.with_turns(mark_surprised(enc.turns, "Goblin 2").state)
    # natural 10 + 1 = 11: tier 1; against the surprised goblin an edge: 13, tier 2
    enc, result = harm.strike(
        enc, roll(5, 5, bonus=1), "Ash", ["Goblin 1", "goblin 2"], TieredDamage.parse("3/6/9")
    )
    first, second = result.targets
    assert (first.target, first.tier, first.amount) == ("Goblin 1", 1, 3)
    assert (second.target, second.tier, second.amount, second.edges) == ("Goblin 2", 2, 6, 1)
    assert enc.creature("Goblin 1").vitals.stamina == 7
    assert enc.creature("Goblin 2").vitals.stamina == 4


def test_strike_letters_surges_and_type() -> None:
    enc = dataclasses.replace(table(), surges={"Ash": 3})
    enc, result = harm.strike(
        enc,
        roll(9, 9),
        "Ash",
        ["Ogre", "Goblin 1"],
        TieredDamage.parse("2+M/5+M/7+M"),
        DamageType.FIRE,
        surges=2,
    )
    ogre, goblin = result.targets
    assert ogre.tier == 3 and ogre.surge_bonus == 6 and ogre.amount == 9 + 6
    assert ogre.hit is not None and ogre.hit.dealt == 10  # fire immunity 5
    assert goblin.surge_bonus == 0 and goblin.amount == 9
    assert enc.surges == {"Ash": 1}
    with pytest.raises(harm.HarmError, match="at most 1"):
        harm.strike(enc, roll(9, 9), "Ash", ["Ogre"], TieredDamage.parse("3/6/9"), surges=2)


def test_area_strike_on_several_minions_of_a_squad_kills_only_those_hit() -> None:
    """Only area damage is capped per minion (`area=True`), and only minions in the area die."""
    enc, result = harm.strike(
        table(), roll(10, 10), "Ash", ["Minion 1", "Minion 3"], TieredDamage.parse("9/9/9"), area=True
    )
    assert [t.hit.killed for t in result.targets if t.hit] == [("Minion 1", "Minion 3")]
    squad = enc.squad("Pack")
    assert squad is not None and squad.alive == ("Minion 2",)
    assert result.roll.critical


def test_strike_on_several_minions_without_area_puts_its_full_damage_into_the_pool() -> None:
    """ "A non-area strike that names several minions of one squad puts its full damage into the
    pool, and may drop more minions than it named." """
    enc, result = harm.strike(
        table(), roll(10, 10), "Ash", ["Minion 1", "Minion 3"], TieredDamage.parse("7/7/7")
    )
    first, second = result.targets
    assert first.hit is not None and first.hit.dealt == 14 and second.hit is None and second.pool == "Pack"
    assert first.hit.killed == ("Minion 1", "Minion 3", "Minion 2")
    squad = enc.squad("Pack")
    assert squad is not None and squad.defeated


def test_strike_on_a_squad_applies_weakness_once() -> None:
    """ "Weakness and immunity apply once to the squad's whole damage, after the per-minion area
    cap, not once per minion." """
    base = table()
    pack = [c for c in base.creatures if c.squad_id == "Pack"]
    weak = DamageModifiers.parse("", "fire 3")
    for c in pack:
        base = base.with_creature(dataclasses.replace(c, modifiers=weak))
    _, result = harm.strike(
        base, roll(1, 2), "Ash", ["Minion 1", "Minion 2"], TieredDamage.parse("2/2/2 fire"), area=True
    )
    hit = result.targets[0].hit
    assert hit is not None and hit.dealt == 2 + 2 + 3 and hit.squad_after is not None
    assert hit.squad_after.pool == 12 - 7


def test_halved_strike_and_damage_halve_before_immunity() -> None:
    """Draw Steel, Combat, "DAMAGE IMMUNITY": "if an ally first halved the damage with a triggered action,
    your hero would take 4 damage before immunity is applied, with immunity then reducing the damage to 0"."""
    _, hit = harm.damage(table(), "Ogre", 8, DamageType.FIRE, halved=True)
    assert hit.dealt == 0 and [s.name for s in hit.steps][:2] == ["halved", "immunity"]
    _, result = harm.strike(
        table(), roll(1, 2), "Ash", ["Ogre"], TieredDamage.parse("16/16/16 fire"), halved=True
    )
    assert result.targets[0].hit is not None and result.targets[0].hit.dealt == 8 - 5


# --- dice damage ("2d6 + 3"): rolled with the injected dice, the total before weakness and immunity ---------
def test_dice_damage_is_rolled_once_per_tier_and_each_target_there_takes_it() -> None:
    """One power roll, one damage roll: the two goblins at tier 1 take the same 2d6 + 3 (dice 4 and 2); the
    surprised one, at tier 2, takes its own tier's roll (dice 6 and 6)."""
    enc = table()
    enc = enc.with_turns(mark_surprised(enc.turns, "Goblin 2").state)
    damage = TieredDamage.parse("2d6+3/2d6+5/2d6+7")
    _, result = harm.strike(
        enc,
        roll(5, 5, bonus=1),
        "Ash",
        ["Goblin 1", "Goblin 2", "Ogre"],
        damage,
        dice=FixedDice([4, 2, 6, 6]),
    )
    first, second, third = result.targets
    assert (first.tier, first.amount, second.tier, second.amount, third.amount) == (1, 9, 2, 17, 9)
    assert first.rolled is not None and first.rolled.dice.results == (4, 2) and first.rolled.flat == 3
    assert first.rolled.format() == "2d6 [4, 2] + 3 = 9"
    assert third.rolled == first.rolled and second.rolled is not None and second.rolled.total == 17


def test_dice_damage_then_surges_weakness_and_immunity() -> None:
    """The rolled total is the damage the tier gives: surges add to it on the first target, then weakness and
    immunity apply to the whole (Draw Steel, Combat, "DAMAGE WEAKNESS": weakness first, then immunity)."""
    enc = dataclasses.replace(table(), surges={"Ash": 1})
    _, result = harm.strike(
        enc,
        roll(9, 9),
        "Ash",
        ["Ogre"],
        TieredDamage.parse("1d6+M cold"),
        surges=1,
        dice=FixedDice([5]),
    )
    (ogre,) = result.targets
    assert ogre.rolled is not None and ogre.rolled.total == 5 + 2 and ogre.amount == 7 + 3  # surge: A3
    assert ogre.hit is not None and ogre.hit.incoming == 10 and ogre.hit.dealt == 10 + 3  # cold weakness 3


def test_dice_damage_to_a_squad_is_one_roll_capped_per_minion_in_an_area() -> None:
    """Minions of one squad hit by an area strike: each takes the tier's one roll, capped at its Stamina
    (Monsters "Minions"); FixedDice holds exactly one roll, so a second would fail."""
    enc, result = harm.strike(
        table(),
        roll(10, 10),
        "Ash",
        ["Minion 1", "Minion 2"],
        TieredDamage.parse("1d6+1"),
        area=True,
        dice=FixedDice([6]),
    )
    assert [t.rolled.total for t in result.targets if t.rolled is not None] == [7, 7]
    hit = result.targets[0].hit
    assert hit is not None and hit.killed == ("Minion 1", "Minion 2")
    squad = enc.squad("Pack")
    assert squad is not None and squad.pool == 12 - 4 - 4  # each hit capped at a minion's Stamina 4


def test_a_d3_in_the_damage_is_read_as_the_basics_say() -> None:
    """Draw Steel, The Basics, "D3s": a d3 is a d6 read 1-2 → 1, 3-4 → 2, 5-6 → 3."""
    _, result = harm.strike(
        table(), roll(1, 2), "Ash", ["Goblin 1"], TieredDamage.parse("1d3"), dice=FixedDice([6])
    )
    assert result.targets[0].amount == 3


def test_a_strike_with_dice_damage_needs_the_dice() -> None:
    with pytest.raises(ValueError, match="needs the dice"):
        harm.strike(table(), roll(1, 2), "Ash", ["Goblin 1"], TieredDamage.parse("2d6"))


def test_strike_without_damage_only_rolls() -> None:
    before = table()
    enc, result = harm.strike(before, roll(1, 2), "Ash", ["Ogre"])
    assert enc == before and result.targets[0].hit is None and result.targets[0].tier == 1


@pytest.mark.parametrize(
    ("targets", "message"),
    [
        ([], "at least one target"),
        (["Goblin 1", "goblin 1"], "named twice"),
        (["Goblin 1"] * (harm.STRIKE_TARGETS_MAX + 1), "at most"),
        (["Nobody"], "No creature named"),
    ],
)
def test_strike_bad_targets(targets: list[str], message: str) -> None:
    with pytest.raises(RuleError, match=message):
        harm.strike(table(), roll(5, 5), "Ash", targets, TieredDamage.parse("3/6/9"))


def test_the_dead_do_not_strike() -> None:
    enc, _ = harm.damage(table(), "Minion 1", 4)
    enc, _ = harm.damage(enc, "Goblin 1", 10)
    for dead in ("Minion 1", "Goblin 1"):
        with pytest.raises(harm.HarmError, match="dead and can't strike"):
            harm.strike(enc, roll(5, 5), dead, ["Ash"])
    harm.strike(enc, roll(5, 5), "Minion 2", ["Ash"])  # a living minion of the same squad can


def test_strike_refuses_conflicting_types_and_surges_without_damage() -> None:
    enc = dataclasses.replace(table(), surges={"Ash": 1})
    with pytest.raises(harm.HarmError, match="type once"):
        harm.strike(enc, roll(5, 5), "Ash", ["Ogre"], TieredDamage.parse("3/6/9 cold"), DamageType.FIRE)
    with pytest.raises(harm.HarmError, match="give the damage"):
        harm.strike(enc, roll(5, 5), "Ash", ["Ogre"], None, surges=1)


# --- conditions (saving throws: tests/rules/test_saves.py) -------------------------------------------------
def test_conditions_add_and_remove() -> None:
    enc, added = harm.add_condition(table(), "ogre", Condition.SLOWED, Duration.SAVE, source="Ash")
    assert added is not None and added.creature_id == "Ogre" and added.source_id == "Ash"
    enc, again = harm.add_condition(enc, "Ogre", Condition.SLOWED, Duration.EOT)
    assert again is None  # the longer duration stays
    enc, _ = harm.add_condition(enc, "Ogre", Condition.CUSTOM, Duration.SAVE, custom_text="marked")
    assert len(enc.turns.conditions_of("Ogre")) == 2
    enc, removed = harm.remove_condition(enc, "Ogre", Condition.CUSTOM, "Marked")
    assert removed == "Ogre" and len(enc.turns.conditions_of("Ogre")) == 1


def test_prone_target_gives_an_edge_to_a_melee_strike_only() -> None:
    enc, _ = harm.add_condition(table(), "Goblin 1", Condition.PRONE, Duration.UNTIL_REMOVED)
    _, ranged = harm.strike(enc, roll(5, 5), "Ash", ["Goblin 1"], TieredDamage.parse("3/6/9"))
    assert ranged.targets[0].edges == 0 and ranged.targets[0].tier == 1
    _, melee = harm.strike(enc, roll(5, 5), "Ash", ["Goblin 1"], TieredDamage.parse("3/6/9"), melee=True)
    assert melee.targets[0].edges == 1 and melee.targets[0].tier == 2


# --- Malice ----------------------------------------------------------------------------------------------
def test_malice_gain_and_spend() -> None:
    enc = harm.gain_malice(table(), 5)
    enc = harm.spend_malice(enc, 3)
    assert enc.malice == Malice(2)
    with pytest.raises(RuleError, match="Not enough Malice"):
        harm.spend_malice(enc, 3)
    with pytest.raises(harm.HarmError, match="at least 1"):
        harm.gain_malice(enc, 0)
    with pytest.raises(harm.HarmError, match="at most"):
        harm.gain_malice(enc, harm.MALICE_MAX)


# --- properties ------------------------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["Ash", "Goblin 1", "Minion 2", "Ogre"]), st.integers(0, 40)), max_size=8
    )
)
def test_flags_follow_stamina_and_state_round_trips(blows: list[tuple[str, int]]) -> None:
    enc = table()
    for name, amount in blows:
        try:
            enc, _ = harm.damage(enc, name, amount, DamageType.FIRE)
        except RuleError:
            continue
    for creature in enc.creatures:
        entry = enc.entry_of(creature.id)
        if creature.squad_id is None:
            assert entry.dead == creature.vitals.dead
        else:
            squad = enc.squad(creature.squad_id)
            assert squad is not None and entry.dead == squad.defeated
    assert codec.load(Encounter, codec.to_data(enc)) == enc


def test_knock_out_instead_of_killing_then_any_damage_kills() -> None:
    enc, hit = harm.damage(table(), "Goblin 1", 12, knock_out=True)
    assert hit.knocked_out and not hit.killed and not enc.creature("Goblin 1").vitals.dead
    entry = enc.turns.entry("Goblin 1")
    assert entry is not None and entry.unconscious and not entry.dead
    # an ability roll against an unconscious creature has a double edge: 5 + 5 = 10 is tier 1, becomes tier 2
    enc, result = harm.strike(enc, roll(5, 5), "Ash", ["Goblin 1"], TieredDamage.parse("1/1/1"))
    assert result.targets[0].edges == 2 and result.targets[0].tier == 2
    assert result.targets[0].hit is not None and result.targets[0].hit.killed == ("Goblin 1",)
    entry = enc.turns.entry("Goblin 1")
    assert entry is not None and entry.dead


def test_the_unconscious_neither_strike_nor_catch_breath() -> None:
    enc = table()
    ash = enc.creature("Ash")
    out = dataclasses.replace(ash.vitals, knocked_out=True)
    enc = enc.with_creature(dataclasses.replace(ash, vitals=out))
    with pytest.raises(harm.HarmError, match="unconscious and can't take main actions"):
        harm.strike(enc, roll(5, 5), "Ash", ["Goblin 1"], TieredDamage.parse("3/6/9"))
    with pytest.raises(harm.HarmError, match="unconscious and can't use maneuvers"):
        harm.catch_breath(enc, "Ash")


def test_hero_token_surges_add_up_and_the_dead_gain_none() -> None:
    enc, total = harm.gain_surges(table(), "ash")
    assert total == harm.TOKEN_SURGES and enc.surges == {"Ash": 2}
    enc, total = harm.gain_surges(enc, "Ash", 3)
    assert total == 5
    for bad in (0, harm.SURGES_MAX + 1):
        with pytest.raises(harm.HarmError, match="Gain from 1"):
            harm.gain_surges(enc, "Ash", bad)
    enc, _ = harm.damage(enc, "Goblin 1", 10)
    with pytest.raises(harm.HarmError, match="dead"):
        harm.gain_surges(enc, "Goblin 1")


def _on_turn(mode: Mode, enforce: bool) -> Encounter:
    """Ash's turn in progress (Goblins waiting) in `mode`."""
    enc = new_encounter_state(mode, enforce_actions=enforce)
    enc, _ = add_creatures(enc, NewCreatures("Ash", 30, "heroes", is_hero=True, owner_id=ASH_PLAYER))
    enc, _ = add_creatures(enc, NewCreatures("Goblin", 10, enc.turns.sides[-1].id, count=2))
    enc = flow.begin(enc, FixedDice([10, 9, 1, 2, 3, 4]), first=enc.turns.sides[0].id).encounter
    return flow.act(enc, "Ash", Controller.PLAYERS, FixedDice([])).encounter


@pytest.mark.parametrize(
    ("mode", "kind"),
    [(Mode.DRAW_STEEL, ActionKind.MAIN), (Mode.AGILITY, ActionKind.MAIN), (Mode.TEAMS, ActionKind.ACTION)],
)
def test_a_strike_on_its_own_turn_uses_the_main_action(mode: Mode, kind: ActionKind) -> None:
    enc, _ = harm.strike(_on_turn(mode, False), roll(5, 5), "Ash", ["Goblin 1"], TieredDamage.parse("1/2/3"))
    now = current(enc.turns)
    assert now is not None and now.used == (kind,)


def test_with_enforcement_a_second_main_action_is_refused_and_a_critical_gives_one_back() -> None:
    enc = _on_turn(Mode.DRAW_STEEL, True)
    crit, _ = harm.strike(enc, roll(10, 9), "Ash", ["Goblin 1"], TieredDamage.parse("1/2/3"))
    now = current(crit.turns)
    assert now is not None and now.used == ()  # the critical's extra main action
    enc, _ = harm.strike(crit, roll(5, 5), "Ash", ["Goblin 1"], TieredDamage.parse("1/2/3"))
    with pytest.raises(RuleError, match="No main action left"):
        harm.strike(enc, roll(5, 5), "Ash", ["Goblin 2"], TieredDamage.parse("1/2/3"))
    # a goblin's strike on Ash's turn (a free strike, a triggered action) uses none of its own
    after, _ = harm.strike(enc, roll(5, 5), "Goblin 2", ["Ash"], TieredDamage.parse("1/2/3"))
    assert after.turns.turns == enc.turns.turns


def test_catch_breath_on_its_own_turn_is_a_maneuver() -> None:
    enc = _on_turn(Mode.DRAW_STEEL, True)
    hurt = dataclasses.replace(enc.creature("Ash").vitals, stamina=10, recoveries=3)
    enc = enc.with_creature(dataclasses.replace(enc.creature("Ash"), vitals=hurt))
    enc, _ = harm.catch_breath(enc, "Ash")
    enc, _ = harm.catch_breath(enc, "Ash")  # the main action becomes a second maneuver
    now = current(enc.turns)
    assert now is not None and now.used == (ActionKind.MANEUVER, ActionKind.MANEUVER)
    with pytest.raises(RuleError, match="No main action left"):
        harm.catch_breath(enc, "Ash")
