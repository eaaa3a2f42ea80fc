"""What an encounter remembers about saving throws: the saves owed and the heroes' failed saves still open
to a hero token (the rules are `bot.rules.encounter.saves`)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.rules.conditions import Condition, ConditionInstance


@dataclass(frozen=True, slots=True)
class SaveOwed:
    """One saving throw a creature may roll against one of its "save ends" conditions; `extra` when Heal or
    an ability granted it (not a turn's end)."""

    creature_id: str
    condition: Condition
    custom_text: str = ""
    extra: bool = False

    def against(self, instance: ConditionInstance) -> bool:
        return instance.key == (self.creature_id, self.condition, self.custom_text.strip().casefold())


@dataclass(frozen=True, slots=True)
class FailedSave:
    """A hero's failed save, open to a hero token while the turn engine stands where it failed (`round`,
    `turns` taken this round, how many of them `ended`)."""

    creature_id: str
    condition: Condition
    custom_text: str = ""
    round: int = 0
    turns: int = 0
    ended: int = 0
