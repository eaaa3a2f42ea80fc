"""Persistence and concurrency: SQLModel on SQLAlchemy's async engine, Alembic migrations, event log, undo.

See docs/store.md. Everything a caller needs is exported here.
"""

from bot.store.errors import (
    AlreadyApplied,
    AlreadyDone,
    CannotSave,
    CannotUndo,
    DiskFull,
    EncounterExists,
    InvalidValue,
    NoEncounter,
    NothingToUndo,
    OtherServer,
    ReadOnly,
    SaveUncertain,
    StaleState,
    StoreError,
    StoreUnavailable,
)
from bot.store.reminders import Claim, Reminder
from bot.store.store import Store
from bot.store.table import (
    COMBAT,
    SCENE_KIND,
    CampaignInfo,
    Change,
    ChannelKey,
    Committed,
    EncounterDoc,
    EncounterInfo,
    Event,
    GuildSettings,
    Hero,
    Table,
    scene_kind,
)

__all__ = [
    "COMBAT",
    "SCENE_KIND",
    "AlreadyApplied",
    "AlreadyDone",
    "CampaignInfo",
    "CannotSave",
    "CannotUndo",
    "Change",
    "ChannelKey",
    "Claim",
    "Committed",
    "DiskFull",
    "EncounterDoc",
    "EncounterExists",
    "EncounterInfo",
    "Event",
    "GuildSettings",
    "Hero",
    "InvalidValue",
    "NoEncounter",
    "NothingToUndo",
    "OtherServer",
    "ReadOnly",
    "Reminder",
    "SaveUncertain",
    "StaleState",
    "Store",
    "StoreError",
    "StoreUnavailable",
    "Table",
    "scene_kind",
]
