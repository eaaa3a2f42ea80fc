"""The tracker's controls: persistent buttons (Act / End turn / Undo / Save) and the select menu of who may
act, each carrying the encounter id and state version in its custom id.

Owned by the encounter/turn work (cogs/encounter.py, cogs/turn.py); the tracker service (bot/tracker.py)
attaches `tracker_view(...)` to every tracker message it posts or edits.
"""

from __future__ import annotations

import discord

from bot.rules.encounter import Encounter


def tracker_view(encounter_id: int, version: int, encounter: Encounter) -> discord.ui.View:
    """The controls for a tracker showing `encounter` at channel `version`."""
    return discord.ui.View(timeout=None)
