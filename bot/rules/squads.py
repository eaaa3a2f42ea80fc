"""Minion squads: a shared Stamina pool; minions die as the pool drops past each minion's Stamina.

Rules: Draw Steel Monsters, "Minions" (not in ../shared/rules; as the project brief gives them), with the
damage order of draw-steel-combat.txt "Damage" (through `bot.rules.damage.modify_damage`).

- The pool is the sum of the minions' Stamina. Every time it drops past a multiple of one minion's Stamina a
  minion dies: minions alive = ceil(pool / minion Stamina).
- Single-target damage goes to the pool and can kill several minions: the target first, then the others in
  squad order (the Director's choice; the caller can reorder `alive`).
- Area damage: each minion hit counts at most its own Stamina, and only minions in the area die.
- Immunity and weakness apply once to the damage, not once per minion.
- Minions are never winded, never regain Stamina and never gain temporary Stamina (`MinionError`).

Public API: `Squad`, `new_squad(id, minion_ids, minion_stamina)`, `damage_squad(...) -> SquadDamage`,
`undo_squad(record)`, `refuse_healing(squad)`, `MinionError`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from bot.rules.damage import DamageModifiers, DamageType, Step, modify_damage
from bot.rules.errors import RuleError


class MinionError(RuleError):
    """A minion squad request the rules refuse."""


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


@dataclass(frozen=True, slots=True)
class Squad:
    """A minion squad: living minions in order, the fallen, each minion's Stamina and the shared pool."""

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
    amount: int,
    targets: Sequence[str],
    area: bool = False,
    dtype: DamageType = DamageType.UNTYPED,
    modifiers: DamageModifiers | None = None,
    multiplier: int = 1,
    halved: bool = False,
) -> SquadDamage:
    """Deal damage to minions of a squad: one target (`area=False`) or every minion hit by an area."""
    if not targets:
        raise MinionError("Name the minion (or minions) that took the damage.")
    missing = [t for t in targets if t not in squad.alive]
    if missing:
        raise MinionError(f"{missing[0]} isn't a living minion of this squad: pick one that is.")
    if not area and len(targets) != 1:
        raise MinionError("Single-target damage hits one minion: name one, or mark the damage as an area.")
    dealt, steps = modify_damage(amount, dtype, modifiers, multiplier, halved)
    hit = tuple(dict.fromkeys(targets))
    loss = len(hit) * min(dealt, squad.minion_stamina) if area else dealt
    pool = max(0, squad.pool - loss)
    deaths = len(squad.alive) - _ceil_div(pool, squad.minion_stamina)
    candidates = hit if area else hit + tuple(m for m in squad.alive if m not in hit)
    killed = candidates[:deaths]
    note = f"pool {squad.pool} → {pool}" + (f"; {len(killed)} minion(s) die" if killed else "")
    steps = (*steps, Step("squad pool", dealt, 0, note))
    after = dataclasses.replace(
        squad,
        pool=pool,
        alive=tuple(m for m in squad.alive if m not in killed),
        dead=squad.dead + killed,
    )
    return SquadDamage(squad, after, steps, dealt, squad.pool - pool, killed)


def undo_squad(record: SquadDamage) -> Squad:
    """The squad exactly as it was before the damage."""
    return record.before


def refuse_healing(squad: Squad) -> None:
    """Minions never regain Stamina nor gain temporary Stamina: always raises `MinionError`."""
    raise MinionError(f"Minions can't regain Stamina or gain temporary Stamina (squad {squad.id}).")
