"""Bot settings: read once from the environment (and `.env`), validated, frozen.

Every problem surfaces as one `SettingsError` whose message is a single actionable line (what is wrong and
how to fix it); `python -m bot` prints it and exits 2. The token is kept out of every repr and log line.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///data/bot.db"
DEFAULT_LOG_LEVEL = "INFO"
DEVELOPER_PORTAL = "https://discord.com/developers/applications"

_SQLITE_DRIVERS = frozenset({"sqlite", "sqlite+aiosqlite"})
_POSTGRES_DRIVERS = frozenset({"postgresql", "postgres", "postgresql+asyncpg"})
_LOG_LEVELS = ("CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG")
_TOKEN_SEGMENT = re.compile(r"[A-Za-z0-9_-]+")


class SettingsError(Exception):
    """A missing or malformed setting; `str(error)` is one line saying what to fix and where."""


@dataclass(frozen=True, slots=True)
class Settings:
    """The validated configuration of one bot process."""

    token: str = field(repr=False)
    database_url: str = DEFAULT_DATABASE_URL
    log_level: str = DEFAULT_LOG_LEVEL
    api_base: str | None = None
    gateway_url: str | None = None
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    dev_guild_id: int | None = None

    @property
    def sharded(self) -> bool:
        """True when the bot must run as an `AutoShardedBot`."""
        return self.shard_count is not None


def parse_token(raw: str | None) -> str:
    """Return the bare bot token, or raise `SettingsError` when it cannot be a Discord bot token."""
    if raw is None or not raw.strip():
        raise SettingsError(
            f"DISCORD_TOKEN is missing: create a bot at {DEVELOPER_PORTAL}, copy its token, "
            "then `cp .env.example .env` and put it after DISCORD_TOKEN= in .env"
        )
    token = raw.strip()
    if token.startswith("Bot "):
        token = token[4:]
    segments = token.split(".")
    if (
        any(ch.isspace() for ch in token)
        or len(segments) != 3
        or not all(_TOKEN_SEGMENT.fullmatch(segment) for segment in segments)
    ):
        raise SettingsError(
            "DISCORD_TOKEN does not look like a bot token (expected three dot-separated parts): "
            f"copy it again from the Bot page at {DEVELOPER_PORTAL} and put DISCORD_TOKEN=... in .env"
        )
    return token


def parse_database_url(raw: str | None) -> str:
    """Validate `DATABASE_URL` (SQLite or PostgreSQL, parseable by SQLAlchemy); return it unchanged."""
    value = (raw or "").strip() or DEFAULT_DATABASE_URL
    hint = f"use e.g. {DEFAULT_DATABASE_URL} or postgresql+asyncpg://user:password@host:5432/dbname"
    try:
        url = make_url(value)
    except (ArgumentError, ValueError):
        raise SettingsError(f"DATABASE_URL is not a database URL: {hint}") from None
    if url.drivername not in _SQLITE_DRIVERS | _POSTGRES_DRIVERS:
        raise SettingsError(
            f"DATABASE_URL uses unsupported driver {url.drivername!r}: only SQLite and PostgreSQL work; "
            f"{hint}"
        )
    if url.drivername in _POSTGRES_DRIVERS and not url.database:
        raise SettingsError(f"DATABASE_URL names no PostgreSQL database: {hint}")
    return value


def sqlite_path(database_url: str) -> Path | None:
    """The file a SQLite URL points at (None for PostgreSQL and in-memory SQLite)."""
    url: URL = make_url(database_url)
    if url.drivername not in _SQLITE_DRIVERS or not url.database or url.database == ":memory:":
        return None
    if url.database.startswith("file:"):
        return None
    return Path(url.database)


def ensure_database_folder(database_url: str) -> None:
    """Create the folder of a SQLite database file; one-line `SettingsError` when that is impossible."""
    path = sqlite_path(database_url)
    if path is None:
        return
    folder = path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise SettingsError(
            f"DATABASE_URL points into {str(folder)!r}, which cannot be created ({reason}): "
            "choose a writable path, e.g. DATABASE_URL=sqlite+aiosqlite:///data/bot.db"
        ) from None
    if not os.access(folder, os.W_OK):
        raise SettingsError(
            f"DATABASE_URL points into {str(folder)!r}, which is not writable: "
            "choose a writable path, e.g. DATABASE_URL=sqlite+aiosqlite:///data/bot.db"
        )


def _optional_int(env: Mapping[str, str], name: str, hint: str) -> int | None:
    raw = env.get(name, "").strip()
    if not raw:
        return None
    try:
        value = int(raw)
    except ValueError:
        raise SettingsError(f"{name} must be a whole number, not {raw!r}: {hint}") from None
    if value < 0:
        raise SettingsError(f"{name} must not be negative: {hint}")
    return value


def _parse_shards(env: Mapping[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    count = _optional_int(env, "SHARD_COUNT", "set SHARD_COUNT=2 for two shards, or leave it empty")
    raw_ids = env.get("SHARD_IDS", "").strip()
    if count is not None and count < 1:
        raise SettingsError(
            "SHARD_COUNT must be at least 1: set SHARD_COUNT=2 for two shards, or leave it empty"
        )
    if not raw_ids:
        return count, None
    if count is None:
        raise SettingsError("SHARD_IDS needs SHARD_COUNT: set both, e.g. SHARD_COUNT=4 and SHARD_IDS=0,2")
    try:
        ids = tuple(int(part) for part in raw_ids.split(","))
    except ValueError:
        raise SettingsError(
            f"SHARD_IDS must be comma-separated numbers, not {raw_ids!r}: e.g. SHARD_IDS=0,2"
        ) from None
    bad = [shard for shard in ids if not 0 <= shard < count]
    if bad:
        raise SettingsError(
            f"SHARD_IDS {bad[0]} is out of range: every id must be between 0 and {count - 1} "
            f"(SHARD_COUNT={count})"
        )
    if len(set(ids)) != len(ids):
        raise SettingsError(
            f"SHARD_IDS lists a shard twice ({raw_ids!r}): give each id once, e.g. SHARD_IDS=0,2"
        )
    return count, ids


def _parse_url(env: Mapping[str, str], name: str, schemes: tuple[str, ...], example: str) -> str | None:
    raw = env.get(name, "").strip()
    if not raw:
        return None
    if not raw.startswith(tuple(f"{scheme}://" for scheme in schemes)) or any(ch.isspace() for ch in raw):
        raise SettingsError(f"{name} must be a {'/'.join(schemes)} URL like {example}, or left empty")
    return raw.rstrip("/")


def _parse_log_level(env: Mapping[str, str]) -> str:
    raw = env.get("LOG_LEVEL", "").strip().upper() or DEFAULT_LOG_LEVEL
    if raw == "WARN":
        raw = "WARNING"
    if raw not in _LOG_LEVELS:
        raise SettingsError(f"LOG_LEVEL must be one of {', '.join(_LOG_LEVELS)}, not {raw!r}")
    return raw


def settings_from_env(env: Mapping[str, str]) -> Settings:
    """Build `Settings` from a mapping of environment variables (pure: no `.env` loading)."""
    shard_count, shard_ids = _parse_shards(env)
    return Settings(
        token=parse_token(env.get("DISCORD_TOKEN")),
        database_url=parse_database_url(env.get("DATABASE_URL")),
        log_level=_parse_log_level(env),
        api_base=_parse_url(env, "DISCORD_API_BASE", ("http", "https"), "http://127.0.0.1:8080/api/v10"),
        gateway_url=_parse_url(env, "DISCORD_GATEWAY_URL", ("ws", "wss"), "ws://127.0.0.1:8080/gateway"),
        shard_count=shard_count,
        shard_ids=shard_ids,
        dev_guild_id=_optional_int(env, "DEV_GUILD_ID", "copy a server id (Developer Mode → Copy Server ID)"),
    )


def load_settings(dotenv_path: str | os.PathLike[str] | None = None) -> Settings:
    """Load `.env` (from the working directory unless a path is given; real variables win) and validate."""
    from dotenv import load_dotenv

    load_dotenv(dotenv_path if dotenv_path is not None else Path.cwd() / ".env", override=False)
    return settings_from_env(os.environ)
