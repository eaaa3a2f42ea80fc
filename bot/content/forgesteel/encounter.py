"""A Forge Steel encounter (`.ds-encounter`): which monsters it brings, by id, and how many.

The file has no stat blocks: the bot resolves the ids in the server's bestiary and says which it couldn't.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from bot.content.forgesteel.files import BadValue, Kind, load_export
from bot.content.monster import Organization
from bot.rules.encounter.model import CREATURES_MAX

MINION_GROUP = 4
"""A minion slot's `count` is in groups of this many minions."""
SLOTS_MAX = 200
"""Most slots an encounter file may have: an encounter holds at most `CREATURES_MAX` creatures, and each slot
is one id the bestiary looks up; a file past it is refused while it is read."""


@dataclass(frozen=True, slots=True)
class EncounterSlot:
    """One slot: a monster id, the slot's count, the minion-count adjustment, and its group's faction
    (Forge Steel's `Enemy`, `Ally` ...)."""

    monster_id: str
    count: int = 1
    minion_adjustment: int = 0
    faction: str = "Enemy"

    def creatures(self, organization: Organization) -> int:
        """How many creatures the slot brings once its monster's organization is known (at least 0).

        A slot of minions counts groups of four: it brings `count × 4 + minionCountAdjustment` minions, any
        other slot `count` creatures (Forge Steel's `MonsterLogic.getRoleMultiplier` and its encounter
        runner)."""
        if organization is Organization.MINION:
            return max(0, self.count * MINION_GROUP + self.minion_adjustment)
        return max(0, self.count)


@dataclass(frozen=True, slots=True)
class EncounterFile:
    """An encounter's name and its slots, in the file's order."""

    name: str
    slots: tuple[EncounterSlot, ...]

    @property
    def monster_ids(self) -> tuple[str, ...]:
        """Every monster id the slots name, each once, in order."""
        return tuple(dict.fromkeys(s.monster_id for s in self.slots))

    def missing(self, known: Collection[str]) -> tuple[str, ...]:
        """The monster ids the slots name that aren't in `known` (the bestiary's ids), each once, in order:
        what the bot must say it couldn't resolve."""
        return tuple(i for i in self.monster_ids if i not in known)


def read_encounter(data: bytes) -> EncounterFile:
    """A `.ds-encounter` export's slots (or a `ForgeSteelError` saying what to upload instead).

    Forge Steel's `Encounter` (`src/models/encounter.ts`) holds groups of slots; a slot names a monster by
    `monsterID` (found in a monster group, not in the file), a `count`, and `customization`."""
    _, top = load_export(data, Kind.ENCOUNTER)
    slots: list[EncounterSlot] = []
    for group in top.objects("groups", "encounter group"):
        faction = group.text("faction", "Enemy")
        for slot in group.objects("slots", "encounter slot"):
            if len(slots) >= SLOTS_MAX:
                raise BadValue(
                    f"That encounter has more than {SLOTS_MAX} monster slots, and an encounter holds at most "
                    f"{CREATURES_MAX} creatures: split it in Forge Steel and import each part."
                )
            customization = slot.obj("customization", "slot customization")
            slots.append(
                EncounterSlot(
                    monster_id=slot.text("monsterID"),
                    count=slot.integer("count", 1),
                    minion_adjustment=customization.integer("minionCountAdjustment"),
                    faction=faction,
                )
            )
    return EncounterFile(top.text("name"), tuple(slots))
