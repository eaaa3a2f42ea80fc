"""The standard abilities every creature has: Free Strike, Grab, Knockback and Charge.

Rules: Draw Steel, Combat, "Standard Free Strikes", "Free Strike", "Free Strikes", "Grab", "Knockback" and
"Charge".
"""

from __future__ import annotations

from bot.rules.ability import Ability, ActionType, PowerRollSpec
from bot.rules.characteristics import Characteristic
from bot.rules.damage import DamageType

_MIGHT_OR_AGILITY = (Characteristic.MIGHT, Characteristic.AGILITY)
_ONE_TARGET = "One creature or object"
_ONE_GRAB = "Unless otherwise indicated, a creature can grab only one creature at a time."
_SIZE_EFFECT = (
    "You can usually target only creatures of your size or smaller. If your Might score is 2 or higher, you "
    "can target any creature with a size equal to or less than your Might score."
)


FREE_STRIKE = "Free Strike"
MELEE_FREE_STRIKE = "Melee Weapon Free Strike"
RANGED_FREE_STRIKE = "Ranged Weapon Free Strike"
FREE_STRIKES = frozenset({FREE_STRIKE, MELEE_FREE_STRIKE, RANGED_FREE_STRIKE})
"""The names of the free strikes here: a hero's two, a monster's one."""
CHARGE = "Charge"


def is_free_strike(ability: Ability) -> bool:
    """Whether `ability` is a standard free strike (its roll is made as a free strike: "Free Strikes"); every
    creature can use a free strike as a main action (Draw Steel, Combat, "Free Strike", "Free Strikes")."""
    return ability.name in FREE_STRIKES and ability.action is ActionType.MAIN


def is_charge(ability: Ability) -> bool:
    """Whether `ability` is the standard Charge ("Charge"): its strike is the creature's melee free strike
    (`bot.rules.encounter.abilities.charge_strike`); a card of its own called Charge with a roll is not."""
    return ability.name == CHARGE and ability.power_roll is None and ability.action is ActionType.MAIN


def hero_free_strikes(
    *, melee_distance_bonus: int = 0, ranged_distance_bonus: int = 0
) -> tuple[Ability, Ability]:
    """A hero's Melee and Ranged Weapon Free Strikes, their distances lengthened by the kit's bonuses.

    Draw Steel, Combat, "Standard Free Strikes": every hero has a Melee Weapon Free Strike (Charge, Melee,
    Strike, Weapon; Melee 1; Might or Agility: 2 / 5 / 7 + M or A damage) and a Ranged Weapon Free Strike
    (Ranged, Strike, Weapon; Ranged 5; Might or Agility: 2 / 4 / 6 + M or A damage), main actions against one
    creature or object; "your kit can improve the standard options". A kit's damage bonus is added at the
    strike, as for any Melee or Ranged Weapon ability; its distance bonus lengthens the distance here."""
    melee = Ability(
        name=MELEE_FREE_STRIKE,
        action=ActionType.MAIN,
        keywords=("Charge", "Melee", "Strike", "Weapon"),
        distance=f"Melee {1 + max(0, melee_distance_bonus)}",
        target=_ONE_TARGET,
        power_roll=PowerRollSpec(
            _MIGHT_OR_AGILITY, ("2 + M or A damage", "5 + M or A damage", "7 + M or A damage")
        ),
    )
    ranged = Ability(
        name=RANGED_FREE_STRIKE,
        action=ActionType.MAIN,
        keywords=("Ranged", "Strike", "Weapon"),
        distance=f"Ranged {5 + max(0, ranged_distance_bonus)}",
        target=_ONE_TARGET,
        power_roll=PowerRollSpec(
            _MIGHT_OR_AGILITY, ("2 + M or A damage", "4 + M or A damage", "6 + M or A damage")
        ),
    )
    return melee, ranged


def monster_free_strike(damage: int, dtype: DamageType = DamageType.UNTYPED, distance: int = 5) -> Ability:
    """A monster's free strike: `damage` of `dtype` at every tier, melee or at `distance` squares.

    Draw Steel, Combat, "Free Strike", "Free Strikes": every creature can use a free strike as a main action.
    A monster's free strike deals the damage and type its stat block gives, melee or at its free-strike
    distance: its three tiers are that damage, so the roll changes nothing but a critical."""
    kind = "" if dtype is DamageType.UNTYPED else f" {dtype.value}"
    tier = f"{max(0, damage)}{kind} damage"
    return Ability(
        name=FREE_STRIKE,
        action=ActionType.MAIN,
        keywords=("Melee", "Ranged", "Strike"),
        distance=f"Melee 1 or Ranged {max(1, distance)}",
        target=_ONE_TARGET,
        power_roll=PowerRollSpec((), (tier, tier, tier)),
        effect="A monster's free strike deals its free strike damage whatever the roll.",
    )


def _melee_maneuver(name: str, tiers: tuple[str, str, str], effect: str) -> Ability:
    """A maneuver against one adjacent creature, Power Roll + Might (Grab, Knockback), with the tiers and
    effect quoted from Draw Steel, Combat, "Grab", "Knockback"."""
    return Ability(
        name=name,
        action=ActionType.MANEUVER,
        keywords=("Melee",),
        distance="Melee 1",
        target="One creature",
        power_roll=PowerRollSpec((Characteristic.MIGHT,), tiers),
        effect=effect,
    )


def grab() -> Ability:
    """Grab ("Grab"): keep a foe close and locked down."""
    return _melee_maneuver(
        "Grab",
        (
            "No effect.",
            "You can grab the target, but if you do, the target can make a melee free strike against you "
            "before they are grabbed.",
            "The target is grabbed by you.",
        ),
        f"{_SIZE_EFFECT}\n\n{_ONE_GRAB}",
    )


def knockback() -> Ability:
    """Knockback ("Knockback"): shove an adjacent creature away."""
    return _melee_maneuver("Knockback", ("Push 1", "Push 2", "Push 3"), _SIZE_EFFECT)


def charge() -> Ability:
    """The Charge main action (Draw Steel, Combat, "Charge"): move up to your speed in a straight line, then
    a melee free strike (or an ability with the Charge keyword) against a target."""
    return Ability(
        name=CHARGE,
        action=ActionType.MAIN,
        distance="Self",
        target="Self",
        effect=(
            "Move up to your speed in a straight line without jumping, then make a melee free strike against "
            "a target when you end your move. If you have an ability with the Charge keyword, you can use it "
            "against the target instead of a free strike. You can't move through difficult terrain or shift "
            "when you charge."
        ),
    )


def hero_standard_abilities(
    *, melee_distance_bonus: int = 0, ranged_distance_bonus: int = 0
) -> tuple[Ability, ...]:
    """Every hero's standard abilities: both free strikes, Grab, Knockback and Charge."""
    strikes = hero_free_strikes(
        melee_distance_bonus=melee_distance_bonus, ranged_distance_bonus=ranged_distance_bonus
    )
    return (*strikes, grab(), knockback(), charge())
