"""Kit damage bonuses: which apply with several kits, and to which abilities (bot/rules/kit.py)."""

from __future__ import annotations

import pytest

from bot.rules.kit import Kit, KitDamageBonus, Reach, damage_bonuses


def test_identical_bonuses_show_once_with_both_names() -> None:
    kits = [Kit("Cloak", melee_damage=(1, 1, 1)), Kit("Dagger", melee_damage=(1, 1, 1))]
    assert damage_bonuses(kits) == (KitDamageBonus("Cloak / Dagger", Reach.MELEE, (1, 1, 1)),)


def test_a_bonus_lower_on_every_tier_is_dropped() -> None:
    """The better kit's bonus applies; one lower on only some tiers is kept (the player picks)."""
    low, high, mixed = (0, 0, 1), (1, 1, 2), (2, 0, 0)
    found = damage_bonuses(
        [Kit("Low", melee_damage=low), Kit("High", melee_damage=high), Kit("Mixed", melee_damage=mixed)]
    )
    assert [b.name for b in found] == ["High", "Mixed"]


def test_melee_and_ranged_are_kept_apart() -> None:
    found = damage_bonuses(
        [Kit("Bow", melee_damage=(0, 0, 0), ranged_damage=(2, 2, 2)), Kit("Axe", melee_damage=(1, 1, 1))]
    )
    assert [(b.name, b.reach) for b in found] == [("Bow", Reach.RANGED), ("Axe", Reach.MELEE)]


@pytest.mark.parametrize(
    ("reach", "keywords", "applies"),
    [
        (Reach.MELEE, ("Melee", "Strike", "Weapon"), True),
        (Reach.MELEE, ("Area", "Melee", "Weapon"), True),
        (Reach.MELEE, ("Melee", "Magic", "Strike"), False),
        (Reach.MELEE, ("Ranged", "Strike", "Weapon"), False),
        (Reach.RANGED, ("ranged", "weapon"), True),
    ],
)
def test_a_bonus_applies_to_weapon_abilities_of_its_reach(
    reach: Reach, keywords: tuple[str, ...], applies: bool
) -> None:
    """ "the kit damage bonus added to Melee or Ranged weapon abilities"."""
    assert KitDamageBonus("Kit", reach, (1, 2, 3)).applies_to(keywords) is applies
