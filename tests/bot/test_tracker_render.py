"""The tracker embed (exts/tracker/_views.py), without Discord: what it shows and that it always fits."""

from __future__ import annotations

import dataclasses

import discord
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.embeds import FIELD_VALUE_MAX, FIELDS_MAX, TOTAL_MAX
from bot.rules.conditions import Condition, Duration
from bot.rules.dice import FixedDice
from bot.rules.encounter import Encounter, NewCreatures, add_creatures, new_encounter_state
from bot.rules.resources import Malice
from bot.rules.stamina import Vitals
from bot.rules.turns import (
    Controller,
    Mode,
    Side,
    add_condition,
    choose_first,
    determine_first,
    end_encounter,
    end_turn,
    mark_surprised,
    next_round,
    set_flags,
    start_turn,
)
from exts.tracker._views import TrackerView, render_final, render_tracker

VIEW = TrackerView("Goblin ambush", tokens=3)
ALICE = 111


def party() -> tuple[NewCreatures, ...]:
    return (
        NewCreatures("Ash", 30, "heroes", is_hero=True, owner_id=ALICE, recoveries=2),
        NewCreatures("Bree", 24, "heroes", is_hero=True, owner_id=222, recoveries=1),
        NewCreatures("Goblin", 10, "director", count=2),
        NewCreatures("Ogre", 20, "director", turns=2),
        NewCreatures("Minion", 4, "director", count=3, squad="Pack"),
        NewCreatures("Wolf", 8, "director", count=2, group="Wolves"),
    )


def build(*specs: NewCreatures, mode: Mode = Mode.DRAW_STEEL) -> Encounter:
    encounter = new_encounter_state(mode)
    for spec in specs or party():
        encounter, _ = add_creatures(encounter, spec)
    return encounter


def begin(encounter: Encounter, first: str = "heroes") -> Encounter:
    """Roll for the first side (a 9: the players choose), choose `first`, start round 1."""
    turns = determine_first(encounter.turns, FixedDice([9])).state
    turns = choose_first(turns, first, Controller.PLAYERS).state
    return encounter.with_turns(next_round(turns).state)


def hurt(encounter: Encounter, name: str, stamina: int) -> Encounter:
    creature = encounter.creature(name)
    return encounter.with_creature(
        dataclasses.replace(creature, vitals=dataclasses.replace(creature.vitals, stamina=stamina))
    )


def text(embed: discord.Embed) -> str:
    parts = [embed.title or "", embed.description or "", embed.footer.text or ""]
    for field in embed.fields:
        parts += [field.name or "", field.value or ""]
    return "\n".join(parts)


def line_of(embed: discord.Embed, name: str) -> str:
    """The tracker line that names `name` in bold."""
    for line in text(embed).splitlines():
        if f"**{name}**" in line:
            return line
    raise AssertionError(f"no line for {name} in:\n{text(embed)}")


def within_limits(embed: discord.Embed) -> None:
    assert len(embed) <= TOTAL_MAX
    assert len(embed.fields) <= FIELDS_MAX
    assert all(len(field.value or "") <= FIELD_VALUE_MAX for field in embed.fields)
    assert len(embed.description or "") <= 4096


# --- what it shows ----------------------------------------------------------------------------------------
def test_setup_shows_name_heroes_stamina_bar_and_monster_states_only() -> None:
    embed = render_tracker(hurt(build(), "Ash", 12), VIEW)
    assert embed.title is not None and "Goblin ambush" in embed.title
    assert "Setting up" in (embed.description or "")
    ash = line_of(embed, "Ash")
    assert "Stamina: 12/30" in ash and "████░░░░░░" in ash and "winded" in ash
    assert "Stamina: 24/24" in line_of(embed, "Bree")
    goblin = line_of(embed, "Goblin 1")
    assert "healthy" in goblin and "10/10" not in goblin and "█" not in goblin
    assert "/20" not in line_of(embed, "Ogre")
    # the squad's pool stays hidden too, its count of living minions does not
    pack = line_of(embed, "Pack")
    assert "3/3 alive" in pack and "12" not in pack


def test_monster_stamina_shown_when_the_guild_allows_it() -> None:
    encounter = hurt(build(), "Goblin 1", 4)
    embed = render_tracker(encounter, dataclasses.replace(VIEW, show_monster_stamina=True))
    goblin = line_of(embed, "Goblin 1")
    assert "Stamina: 4/10" in goblin and "winded" in goblin and "█" in goblin
    assert "Stamina: 12/12" in line_of(embed, "Pack")


def test_round_picking_side_acting_and_acted() -> None:
    encounter = begin(build())
    embed = render_tracker(encounter, VIEW)
    description = embed.description or ""
    assert "Round 1" in description and "Picks now: Heroes" in description
    assert embed.colour == discord.Colour(0x2ECC71)
    assert line_of(embed, "Ash").startswith("⬜")

    acting = encounter.with_turns(start_turn(encounter.turns, "Ash", Controller.PLAYERS).state)
    embed = render_tracker(acting, VIEW)
    assert "Acting: Ash" in (embed.description or "")
    assert line_of(embed, "Ash").startswith("▶️ **Ash** (acting)")

    done = acting.with_turns(end_turn(acting.turns).state)
    embed = render_tracker(done, VIEW)
    assert line_of(embed, "Ash").startswith("✅ **Ash** (acted)")
    assert line_of(embed, "Bree").startswith("⬜ **Bree** █")
    assert "Picks now: Director" in (embed.description or "")
    assert embed.colour == discord.Colour(0xE74C3C)


def test_a_solo_with_a_turn_left_shows_how_many_it_took() -> None:
    encounter = begin(build(), first="director")
    turns = start_turn(encounter.turns, "Ogre", Controller.DIRECTOR).state
    turns = end_turn(turns).state
    line = line_of(render_tracker(encounter.with_turns(turns), VIEW), "Ogre")
    assert line.startswith("✅1/2 **Ogre** (acted 1/2)")


def test_conditions_with_sources_and_durations() -> None:
    encounter = begin(build())
    turns = add_condition(encounter.turns, "Ash", Condition.BLEEDING, Duration.SAVE).state
    turns = add_condition(turns, "Ash", Condition.FRIGHTENED, Duration.EOT, source_id="Ogre").state
    turns = add_condition(
        turns, "Goblin 1", Condition.CUSTOM, Duration.ENCOUNTER, custom_text="on fire"
    ).state
    embed = render_tracker(encounter.with_turns(turns), VIEW)
    ash = line_of(embed, "Ash")
    assert "bleeding (save ends)" in ash and "frightened (Ogre, EoT)" in ash
    assert "on fire (this encounter)" in line_of(embed, "Goblin 1")


def test_a_long_source_of_several_conditions_is_said_once_and_short() -> None:
    """Not a 60-character source name on every condition: a source that gave a creature several conditions
    is said once after them, cut in the middle; a source of one condition stays beside it."""
    knight = "Sir Bartholomew Aldric Fenwick of the Seven Quiet Hills, Warden"
    encounter = begin(build())
    turns = encounter.turns
    for condition in (Condition.DAZED, Condition.SLOWED, Condition.WEAKENED):
        turns = add_condition(turns, "Ash", condition, Duration.SAVE, source_id=knight).state
    turns = add_condition(turns, "Ash", Condition.FRIGHTENED, Duration.EOT, source_id="Ogre").state
    line = line_of(render_tracker(encounter.with_turns(turns), VIEW), "Ash")
    assert "frightened (Ogre, EoT)" in line
    assert "dazed (save ends), slowed (save ends), weakened (save ends) — by Sir Barth…ls, Warden" in line
    assert line.count("Sir Barth") == 1 and knight not in line


def test_tokens_malice_surges_and_resources() -> None:
    encounter = dataclasses.replace(
        build(), malice=Malice(5), surges={"Ash": 2}, resources={"Ash": 0, "Bree": 4}
    )
    embed = render_tracker(encounter, VIEW)
    assert "Hero tokens: 3" in (embed.description or "")
    assert "Malice: 5" in (embed.description or "")
    assert "2 surges" in line_of(embed, "Ash") and "resource" not in line_of(embed, "Ash")
    assert "heroic resource 4" in line_of(embed, "Bree")


def test_a_heros_resource_goes_by_its_class_name() -> None:
    """Not "resource 13": the tracker says the class's word for it (a roster hero's sheet's)."""
    encounter = dataclasses.replace(build(), resources={"Bree": 13})
    view = dataclasses.replace(VIEW, resource_names={"Bree": "Ferocity"})
    line = line_of(render_tracker(encounter, view), "Bree")
    assert "Ferocity 13" in line and "resource" not in line


def test_a_squads_minions_show_their_own_conditions_or_each_once_when_terse() -> None:
    encounter = build()
    turns = encounter.turns
    for minion in ("Minion 1", "Minion 2"):
        turns = add_condition(turns, minion, Condition.SLOWED, Duration.EOT).state
    encounter = encounter.with_turns(turns)
    embed = render_tracker(encounter, VIEW)
    assert "↳ Minion 1 (slowed (EoT)), Minion 2 (slowed (EoT)), Minion 3" in text(embed)
    crowded = render_tracker(crowded_with(encounter), dataclasses.replace(VIEW, show_monster_stamina=True))
    assert "↳" not in text(crowded)  # a terser level
    assert line_of(crowded, "Pack").count("slowed") == 1


def crowded_with(encounter: Encounter) -> Encounter:
    """`encounter` plus enough bleeding goblins that the tracker drops to a terser level."""
    for batch in range(2):
        encounter, names = add_creatures(
            encounter, NewCreatures(f"Gloomfang Ravager {batch}", 10, "director", count=40)
        )
        turns = encounter.turns
        for name in names:
            turns = add_condition(turns, name, Condition.BLEEDING, Duration.SAVE, source_id="Ash").state
        encounter = encounter.with_turns(turns)
    return encounter


def test_groups_squads_and_fallen() -> None:
    encounter = build()
    encounter = encounter.with_turns(set_flags(encounter.turns, "Goblin 2", dead=True).state)
    embed = render_tracker(encounter, VIEW)
    body = text(embed)
    assert "__Group Wolves__" in body
    assert body.index("__Group Wolves__") < body.index("**Wolf 1**") < body.index("**Wolf 2**")
    assert "Minion 1, Minion 2, Minion 3" in body
    assert line_of(embed, "Goblin 2").startswith("💀")


def test_may_act_lists_the_picking_sides_creatures_and_counts_the_rest() -> None:
    description = render_tracker(begin(build()), VIEW).description or ""
    assert "May act: Ash, Bree\n" in description
    crowded = crowd(40)
    turns = end_turn(start_turn(crowded.turns, "Hero 1", Controller.PLAYERS).state).state
    description = render_tracker(crowded.with_turns(turns), VIEW).description or ""
    assert "Picks now: Director" in description and "and 29 more" in description


def test_teams_surprise_round_and_team_names() -> None:
    sides = (Side("red", Controller.PLAYERS, "Red team"), Side("blue", Controller.DIRECTOR, "Blue team"))
    encounter = new_encounter_state(Mode.TEAMS, sides)
    encounter, _ = add_creatures(encounter, NewCreatures("Ash", 30, "red", is_hero=True, owner_id=ALICE))
    encounter, _ = add_creatures(encounter, NewCreatures("Goblin", 10, "blue", count=2))
    turns = mark_surprised(encounter.turns, "Goblin 1").state
    turns = next_round(mark_surprised(turns, "Goblin 2").state).state
    embed = render_tracker(encounter.with_turns(turns), VIEW)
    description = embed.description or ""
    assert "Surprise round" in description and "Picks now: Red team" in description
    assert [field.name for field in embed.fields] == ["Red team (1)", "Blue team (2)"]
    assert "surprised" in line_of(embed, "Goblin 1")


def test_fast_slow_shows_the_part() -> None:
    encounter = build(*party()[:3], mode=Mode.FAST_SLOW)
    encounter = encounter.with_turns(next_round(encounter.turns).state)
    assert "(fast part)" in (render_tracker(encounter, VIEW).description or "")


def test_names_render_inert() -> None:
    encounter = build(
        NewCreatures("@everyone", 10, "heroes", is_hero=True, owner_id=ALICE),
        NewCreatures("<@123>", 10, "director"),
        NewCreatures("**bold** @here", 10, "director"),
    )
    embed = render_tracker(encounter, dataclasses.replace(VIEW, name="@everyone party <@&5>"))
    body = text(embed)
    assert "@everyone" not in body and "@here" not in body
    assert "<@123>" not in body and "<@&5>" not in body
    assert "@\u200beveryone" in body and "<@\u200b123>" in body


def test_final_summary() -> None:
    encounter = begin(build())
    encounter = hurt(encounter, "Ash", 12)
    encounter = encounter.with_turns(set_flags(encounter.turns, "Goblin 1", dead=True).state)
    goblin = encounter.creature("Goblin 1")
    encounter = encounter.with_creature(
        dataclasses.replace(goblin, vitals=Vitals(10, 0, slain=True, death_threshold=0))
    )
    encounter = encounter.with_turns(end_encounter(encounter.turns).state)
    embed = render_final(encounter, VIEW)
    body = text(embed)
    assert "Encounter over" in body and "1 round" in body
    assert "🛡️ Ash (Stamina: 12/30 winded)" in body
    assert "💀 Goblin 1" in body
    assert "🛡️ Goblin 2 (healthy)" in body
    assert "Malice: 0" in body


# --- limits -----------------------------------------------------------------------------------------------
def crowd(count: int, name: str = "Goblin") -> Encounter:
    heroes = [NewCreatures(f"Hero {n}", 30, "heroes", is_hero=True, owner_id=ALICE) for n in range(1, 6)]
    rest = count - len(heroes)
    specs = [*heroes]
    while rest > 0:
        batch = min(rest, 40)
        specs.append(NewCreatures(f"{name} {len(specs)}", 10, "director", count=batch))
        rest -= batch
    encounter = begin(build(*specs))
    turns = encounter.turns
    for creature in encounter.creatures[::3]:
        turns = add_condition(turns, creature.id, Condition.BLEEDING, Duration.SAVE, source_id="Hero 1").state
    return encounter.with_turns(turns)


def test_forty_creatures_fit_with_every_name() -> None:
    encounter = crowd(40)
    embed = render_tracker(encounter, dataclasses.replace(VIEW, show_monster_stamina=True))
    within_limits(embed)
    body = text(embed)
    for creature in encounter.creatures:
        assert f"**{creature.name}**" in body
    assert "more not shown" not in body


def test_a_hundred_long_names_fit_with_every_creature() -> None:
    encounter = crowd(100, name="Gloomfang Ravager of the Sunless Deep Mountains")
    embed = render_tracker(encounter, VIEW)
    within_limits(embed)
    lines = [line for field in embed.fields for line in (field.value or "").splitlines()]
    names = {line.split("**")[1] for line in lines if "**" in line}
    assert len(names) == 100  # every creature keeps a line, and cut names stay apart
    assert "…" in text(embed)
    final = render_final(encounter.with_turns(end_encounter(encounter.turns).state), VIEW)
    within_limits(final)
    assert (
        sum(line.startswith(("🛡️", "💀")) for f in final.fields for line in (f.value or "").splitlines())
        == 100
    )


def test_a_hundred_creatures_with_many_conditions_still_all_fit() -> None:
    encounter = crowd(100, name="Gloomfang Ravager of the Sunless Deep Mountains")
    turns = encounter.turns
    for creature in encounter.creatures:
        for condition in (Condition.DAZED, Condition.SLOWED, Condition.WEAKENED):
            turns = add_condition(turns, creature.id, condition, Duration.SAVE, source_id="Hero 1").state
    embed = render_tracker(encounter.with_turns(turns), VIEW)
    within_limits(embed)
    lines = [line for field in embed.fields for line in (field.value or "").splitlines()]
    assert len({line.split("**")[1] for line in lines if "**" in line}) == 100
    assert "more not shown" not in text(embed)
    assert "4 conditions" in line_of(embed, "Hero 1")  # bleeding from `crowd` too


@settings(max_examples=25, deadline=None)
@given(
    count=st.integers(min_value=1, max_value=40),
    name=st.text(min_size=1, max_size=40).filter(lambda s: s.strip() and "\n" not in s),
    shown=st.booleans(),
)
def test_any_roster_fits(count: int, name: str, shown: bool) -> None:
    try:
        encounter = build(NewCreatures(name, 10, "director", count=count))
    except Exception:  # names the rules refuse are not the renderer's business
        return
    embed = render_tracker(encounter, dataclasses.replace(VIEW, show_monster_stamina=shown, name=name))
    within_limits(embed)
    body = text(embed)
    assert "@everyone" not in body and "@here" not in body
