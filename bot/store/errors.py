"""Typed store errors. Each carries a one-line, user-facing message (exts show `str(error)`)."""

from __future__ import annotations


class StoreError(Exception):
    """Base of every store error; `str(error)` is one line a player or Director can act on."""

    default_message = "The bot could not save that — try again."

    def __init__(self, message: str | None = None) -> None:
        super().__init__(message or self.default_message)

    @property
    def message(self) -> str:
        """The one-line message."""
        return str(self)


class NoEncounter(StoreError):
    """The channel has no active encounter, or the encounter asked for does not exist."""

    default_message = "No encounter in this channel — start one with /encounter start."


class OtherServer(StoreError):
    """A channel or encounter asked for by id belongs to another server: nothing of it is read or written
    (Discord never offers another server's channel; the store refuses it anyway)."""

    default_message = "That channel is not on this server."

    @classmethod
    def encounter(cls) -> OtherServer:
        return cls("That encounter is not on this server.")


class EncounterExists(StoreError):
    """An encounter is already running in this channel or thread."""

    default_message = (
        "An encounter is already running in this channel — end it with /encounter end, or use a thread."
    )


class StaleState(StoreError):
    """The channel changed (another command or process) between reading and writing; nothing was written."""

    default_message = "This encounter changed while you were acting — try again."


class NothingToUndo(StoreError):
    """Every change of the active encounter since its start is already undone."""

    default_message = "Nothing left to undo in this encounter."


class CannotUndo(StoreError):
    """The change an undo would take back touched the campaign's hero-token pool or roster, and can't be
    taken back over what changed there since; nothing was written. The message names the change and why."""

    default_message = "That change can't be undone any more."


class InvalidValue(StoreError):
    """A name, number or piece of data the store refuses to save; the message says what to change."""

    default_message = "That value cannot be saved."


class StoreUnavailable(StoreError):
    """The database did not answer within the store's wait limit (locked by another process, unreachable,
    restarting); nothing was written, so trying again is safe."""

    default_message = "The database is busy — try again in a moment."


class SaveUncertain(StoreUnavailable):
    """The database stopped answering while a change was being committed and could not be asked afterwards
    whether it was saved: the user must look before repeating it (repeating could apply it twice)."""

    default_message = (
        "The database stopped answering while saving that — check the tracker or /encounter log "
        "before trying again."
    )


class AlreadyApplied(StoreError):
    """This interaction's change is already saved (another process, e.g. the other shard of a rolling
    restart, applied it): nothing was written. The bot answers nothing: the other process does."""

    default_message = "That was already done."


class AlreadyDone(StoreError):
    """Something that may happen only once (a change's `once` key) has happened already; nothing was
    written."""

    default_message = "That was already done: it can only be done once."


class CannotSave(StoreError):
    """The database refuses every write for a reason no retry fixes (a full disk, a read-only database);
    nothing was written. Logged once at ERROR by the store, not per command."""

    default_message = "The bot can't save right now: the database refuses to write. Nothing changed."


class DiskFull(CannotSave):
    """The server's disk (or the database's size limit) is full."""

    default_message = "The bot can't save right now: the server's disk is full. Nothing changed."


class ReadOnly(CannotSave):
    """The database (its file, or the server) is read-only."""

    default_message = "The bot can't save right now: the database is read-only. Nothing changed."
