"""Typed turn-engine errors. Each message is one line saying what to do instead; a refused request changes
nothing (the old state is a value and is returned untouched)."""

from __future__ import annotations

from bot.rules.errors import RuleError


class TurnError(RuleError):
    """Any request the turn engine refuses."""


class BadSetup(TurnError):
    """The encounter's sides or entries are malformed."""


class UnknownEntry(TurnError):
    def __init__(self, entry_id: str) -> None:
        super().__init__(
            f"No combatant '{entry_id}' in this encounter: pick one from the list, or see /encounter status."
        )


class UnknownSide(TurnError):
    def __init__(self, side_id: str) -> None:
        super().__init__(f"No side '{side_id}' in this encounter: use heroes, director or a team's name.")


class DuplicateEntry(TurnError):
    def __init__(self, entry_id: str) -> None:
        super().__init__(f"'{entry_id}' is already in this encounter: pick another id or remove it first.")


class NotInRound(TurnError):
    def __init__(self, between_rounds: bool = False) -> None:
        super().__init__(
            "Nobody can act in a new round: heal or add a creature and the next round starts, or end the "
            "encounter with /encounter end."
            if between_rounds
            else "No round is running: the Director begins combat with /encounter begin."
        )


class WrongPhase(TurnError):
    """The request belongs to another phase of combat (setup, between rounds, ...)."""


class TurnInProgress(TurnError):
    def __init__(self, entry_id: str) -> None:
        super().__init__(f"It's still {entry_id}'s turn: end it with /turn end first.")


class NoTurnInProgress(TurnError):
    def __init__(self) -> None:
        super().__init__("Nobody is taking a turn right now: start one with /turn act.")


class WrongSide(TurnError):
    def __init__(self, picking: str) -> None:
        super().__init__(
            f"It's the {picking}'s pick: wait for them, or the Director can override with /turn act."
        )


class NotYourPick(TurnError):
    def __init__(self, picking: str) -> None:
        super().__init__(f"Only the {picking} (or the Director) can pick who acts now.")


class NotYourCreature(TurnError):
    def __init__(self, entry_id: str) -> None:
        super().__init__(f"Only {entry_id}'s controller or the Director can have them act out of turn.")


class AlreadyActed(TurnError):
    def __init__(self, entry_id: str) -> None:
        super().__init__(f"{entry_id} has already taken all their turns this round: pick someone who hasn't.")


class NotEligible(TurnError):
    """The entry can't act now; the message says why."""


class TwiceInARow(NotEligible):
    def __init__(self, entry_id: str) -> None:
        super().__init__(f"{entry_id} just acted and can't take two turns in a row: pick another creature.")


class GroupInProgress(NotEligible):
    def __init__(self, group: str) -> None:
        super().__init__(f"Group {group} is still acting: pick one of its members who hasn't acted.")


class OutOfOrder(NotEligible):
    def __init__(self, expected: str) -> None:
        super().__init__(f"By Agility order {expected} acts next: pick them, or the Director can override.")


class WrongPart(NotEligible):
    """Fast/slow: the creature can't act in this part of the round (or the players haven't finished)."""


class FirstAlreadyDetermined(TurnError):
    def __init__(self) -> None:
        super().__init__("Who goes first is already settled for this encounter.")


class FirstNotDetermined(TurnError):
    def __init__(self) -> None:
        super().__init__("Decide who goes first before the round starts: use /encounter begin.")


class NotYourChoice(TurnError):
    def __init__(self, chooser: str) -> None:
        super().__init__(f"The {chooser} choose which side goes first.")


class CannotBeSurprised(TurnError):
    def __init__(self, entry_id: str) -> None:
        super().__init__(f"{entry_id} can't be surprised: leave them out of the surprise.")


class NotAHero(TurnError):
    """Agility swaps are between two heroes on the players' side."""


class ConditionNotFound(TurnError):
    def __init__(self, creature_id: str, label: str) -> None:
        super().__init__(f"{creature_id} isn't {label}: see the tracker (/encounter status).")


class NoSave(TurnError):
    def __init__(self, creature_id: str, label: str) -> None:
        super().__init__(f"{creature_id}'s {label} isn't 'save ends': there's nothing to save against.")


class ActionNotAvailable(TurnError):
    """Action enforcement is on and the creature has no such action left; the message says what's left."""
