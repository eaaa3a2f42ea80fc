"""The /strike ability: reply (exts/combat/_ability_strike_views.py): its lines, within Discord's 2,000
characters however
many targets, names and card texts, and the event summary."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.ability import Ability, ActionType, PowerRollSpec
from bot.rules.characteristics import Characteristic, Characteristics
from bot.rules.dice import FixedDice
from bot.rules.encounter import Encounter, NewCreatures, add_creatures, new_encounter_state
from bot.rules.encounter.ability_strike import strike_with
from bot.rules.names import NAME_MAX
from bot.rules.power import roll_power
from bot.ui.combat import CONTENT_MAX
from exts.combat._ability_strike_views import ability_strike_reply, ability_strike_summary


def _table(targets: int, name: str, tiers: tuple[str, str, str]) -> Encounter:
    card = Ability(
        "Hex",
        ActionType.MAIN,
        ("Magic", "Ranged"),
        cost=0,
        power_roll=PowerRollSpec((Characteristic.REASON,), tiers),
    )
    enc = new_encounter_state()
    striker = NewCreatures(
        "Vex",
        30,
        "heroes",
        is_hero=True,
        owner_id=1,
        characteristics=Characteristics.parse("R3"),
        abilities=(card,),
    )
    enc, _ = add_creatures(enc, striker)
    enc, _ = add_creatures(enc, NewCreatures(name, 100, "director", count=targets, stability=1))
    return enc


def test_the_reply_lists_each_target_with_its_effects() -> None:
    enc = _table(
        2, "Goblin", ("5 + R psychic damage; R < [average] dazed (save ends); push 2; it shifts 1",) * 3
    )
    _, used = strike_with(enc, roll_power(FixedDice([5, 5])), "Vex", "hex", ["Goblin 1", "Goblin 2"])
    assert ability_strike_reply(used, None, ()).splitlines() == [
        "⚔️ **Vex** uses **Hex** (8/8/8 psychic damage · Reason)",
        "Dice: 5 + 5 · bonus +3 · Total: 13 · Tier 2",
        "**Goblin 1** — Tier 2: 8 psychic damage · Stamina: 92/100",
        "↳ R < 2: dazed (save ends) — lands (R 0)",
        "↳ push 2 → 1, stability 1",
        "↳ it shifts 1",
        "**Goblin 2** — Tier 2: 8 psychic damage · Stamina: 92/100",
        "↳ R < 2: dazed (save ends) — lands (R 0)",
        "↳ push 2 → 1, stability 1",
        "↳ it shifts 1",
    ]
    assert ability_strike_summary(used) == (
        "Vex strikes Goblin 1 (tier 2): 8 psychic damage; Goblin 2 (tier 2): 8 psychic damage (Hex); "
        "Goblin 1 is dazed; Goblin 2 is dazed"
    )


@settings(deadline=None, max_examples=25)
@given(
    targets=st.integers(min_value=1, max_value=10),
    clauses=st.lists(st.text(alphabet="abc *_@<>#-", min_size=1, max_size=300), min_size=0, max_size=6),
)
def test_the_reply_stays_within_discords_limit(targets: int, clauses: list[str]) -> None:
    text = "; ".join(["9 damage", "R < [strong] slowed (EoT)", "slide 3", *clauses])
    name = "N" * (NAME_MAX - 3)
    enc = _table(targets, name, (text, text, text))
    names = [f"{name} {n}" for n in range(1, targets + 1)] if targets > 1 else [name]
    _, used = strike_with(enc, roll_power(FixedDice([5, 5])), "Vex", "Hex", names)
    reply = ability_strike_reply(used, ("an effect " * 30,) * 3, ())
    assert len(reply) <= CONTENT_MAX
    lines = reply.splitlines()
    assert lines[1].startswith("Dice: 5 + 5")
    assert sum(line.startswith("**N") for line in lines) == targets  # every target keeps its line


@pytest.mark.parametrize(
    ("tier", "line"),
    [
        (
            "2 damage; M < [weak] slowed (EoT)",
            "↳ M < 1: slowed (until the end of its next turn (EoT)) — resisted (M 1)",
        ),
        (
            "2 damage; I < 3 can't stand (save ends)",
            "↳ I < 3: can't stand \\(save ends\\) — lands (I 0), apply it by hand",
        ),
        ("2 damage; the target is grabbed", "↳ grabbed (until removed)"),
    ],
)
def test_effect_lines(tier: str, line: str) -> None:
    enc = _table(1, "Ogre", (tier, tier, tier))
    ogre = enc.creature("Ogre")
    enc = enc.with_creature(dataclasses.replace(ogre, characteristics=Characteristics.parse("M1")))
    _, used = strike_with(enc, roll_power(FixedDice([5, 5])), "Vex", "Hex", ["Ogre"])
    assert line in ability_strike_reply(used, None, ()).splitlines()
