"""Minion squads: a shared Stamina pool; minions die as the pool drops past each minion's Stamina.

Rules: Draw Steel: Monsters, "Minions", with the damage order of Draw Steel, Combat, "Damage"
(`bot.rules.damage.scale_damage`, then `resist_damage`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from bot.rules.damage import DamageModifiers, DamageType, PartDamage, Step, resist_damage, scale_damage
from bot.rules.errors import RuleError


class MinionError(RuleError):
    """A minion squad request the rules refuse."""


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


@dataclass(frozen=True, slots=True)
class Squad:
    """A minion squad: living minions in order, the fallen, each minion's Stamina and the shared pool
    (Draw Steel Monsters, "Minions").

    The pool is the sum of the minions' Stamina. Every time it drops past a multiple of one minion's Stamina
    a minion dies: minions alive = ceil(pool / minion Stamina)."""

    id: str
    minion_stamina: int
    alive: tuple[str, ...]
    pool: int
    dead: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.minion_stamina < 1:
            raise MinionError("A minion's Stamina must be at least 1.")
        if self.pool < 0 or _ceil_div(self.pool, self.minion_stamina) != len(self.alive):
            raise MinionError("The squad's Stamina pool doesn't match its living minions.")
        if len(set(self.alive) | set(self.dead)) != len(self.alive) + len(self.dead):
            raise MinionError("Each minion can be in a squad only once.")

    @property
    def winded(self) -> bool:
        """Minions are never winded."""
        return False

    @property
    def defeated(self) -> bool:
        return not self.alive


def new_squad(squad_id: str, minion_ids: Sequence[str], minion_stamina: int) -> Squad:
    """A fresh squad at full pool."""
    if not minion_ids:
        raise MinionError("A squad needs at least one minion.")
    return Squad(squad_id, minion_stamina, tuple(minion_ids), len(minion_ids) * minion_stamina)


@dataclass(frozen=True, slots=True)
class SquadDamage:
    """Damage dealt to a squad: the squad before and after, the steps, the damage and who died."""

    before: Squad
    after: Squad
    steps: tuple[Step, ...]
    dealt: int
    pool_loss: int
    killed: tuple[str, ...]


def damage_squad(
    squad: Squad,
    amount: int | Sequence[int],
    targets: Sequence[str],
    area: bool = False,
    dtype: DamageType = DamageType.UNTYPED,
    modifiers: DamageModifiers | None = None,
    multiplier: int = 1,
    halved: bool = False,
) -> SquadDamage:
    """Deal one effect's damage to minions of a squad: `amount` to each of `targets` (or one amount per
    target, in order: a strike's tiers can differ per target).

    1. each target's damage is multiplied and halved (`scale_damage`);
    2. area damage only: each minion hit counts at most one minion's Stamina;
    3. weakness and immunity apply ONCE, to the squad's whole damage (`resist_damage`): four 5-Stamina
       minions with fire weakness 3 hit by 2 fire in an area on three of them lose 2 × 3 + 3 = 9, not 15;
    4. the pool takes it all. Area damage kills only minions in the area: after a weakness, the pool stops
       short of killing any other. Damage that isn't area damage goes to the pool in full and may kill more
       minions than it named: those named first, then the others in squad order (the Director's choice;
       the caller can reorder `alive`).
    """
    amounts = _checked_amounts(squad, amount, targets)
    hit = tuple(targets)
    scaled = _scaled(squad, amounts, area, multiplier, halved)
    resisted = resist_damage(scaled.value, dtype, modifiers)
    dealt = resisted.value
    pool = _pool_after(squad, len(hit), dealt, area)
    deaths = len(squad.alive) - _ceil_div(pool, squad.minion_stamina)
    candidates = hit if area else hit + tuple(m for m in squad.alive if m not in hit)
    killed = candidates[:deaths]
    note = f"pool {squad.pool} → {pool}" + (f"; {len(killed)} minion(s) die" if killed else "")
    steps = (*scaled.steps, *resisted.steps, Step("squad pool", dealt, 0, note))
    after = dataclasses.replace(
        squad,
        pool=pool,
        alive=tuple(m for m in squad.alive if m not in killed),
        dead=squad.dead + killed,
    )
    return SquadDamage(squad, after, steps, dealt, squad.pool - pool, killed)


def _checked_amounts(squad: Squad, amount: int | Sequence[int], targets: Sequence[str]) -> list[int]:
    """The damage to each target, in order; refuses targets that aren't living minions of the squad, a
    minion named twice, and a count of amounts that isn't one per target."""
    if not targets:
        raise MinionError("Name the minion (or minions) that took the damage.")
    missing = [t for t in targets if t not in squad.alive]
    if missing:
        raise MinionError(f"{missing[0]} isn't a living minion of this squad: pick one that is.")
    if len(set(targets)) != len(targets):
        raise MinionError("Name each minion once.")
    amounts = [amount] * len(targets) if isinstance(amount, int) else list(amount)
    if len(amounts) != len(targets):
        raise MinionError("Give one amount of damage per minion hit.")
    return amounts


def _scaled(squad: Squad, amounts: Sequence[int], area: bool, multiplier: int, halved: bool) -> PartDamage:
    """Steps 1 and 2 of `damage_squad`: each target's damage scaled, then area damage capped per minion."""
    steps: list[Step] = []
    scaled = [scale_damage(a, multiplier, halved).value for a in amounts]
    if multiplier != 1 or halved:
        steps.append(
            Step(
                "halved" if halved else "multiplier", sum(amounts), sum(scaled), _scaling(multiplier, halved)
            )
        )
    total = sum(scaled)
    if area:
        capped = sum(min(v, squad.minion_stamina) for v in scaled)
        if capped != total:
            note = f"area: each minion hit takes at most {squad.minion_stamina}"
            steps.append(Step("area cap", total, capped, note))
        total = capped
    return PartDamage(total, tuple(steps))


def _pool_after(squad: Squad, hit: int, dealt: int, area: bool) -> int:
    """The pool after `dealt` damage to `hit` minions: area damage stops short of killing a minion outside the
    area."""
    spared = len(squad.alive) - hit if area else 0
    floor = (spared - 1) * squad.minion_stamina + 1 if spared > 0 else 0  # keeps every spared minion alive
    return min(squad.pool, max(floor, squad.pool - dealt))


def _scaling(multiplier: int, halved: bool) -> str:
    parts = ([f"×{multiplier}"] if multiplier != 1 else []) + (["halved, rounded down"] if halved else [])
    return ", ".join(parts)


def undo_squad(record: SquadDamage) -> Squad:
    """The squad exactly as it was before the damage."""
    return record.before


def refuse_healing(squad: Squad) -> None:
    """Minions never regain Stamina nor gain temporary Stamina: always raises `MinionError`."""
    raise MinionError(f"Minions can't regain Stamina or gain temporary Stamina (squad {squad.id}).")
