"""Settings: validation, one-line errors, `.env` loading, and the token kept out of every output."""

from __future__ import annotations

import io
import logging
from pathlib import Path

import pytest

from bot.log import REDACTED, RedactingFilter, configure_logging
from bot.settings import (
    DEFAULT_DATABASE_URL,
    Settings,
    SettingsError,
    ensure_database_folder,
    load_settings,
    parse_token,
    settings_from_env,
    sqlite_path,
)
from tests.wire.harness import SETTINGS as ENV_KEYS

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz_-0123456789"


def env(**values: str) -> dict[str, str]:
    return {"DISCORD_TOKEN": TOKEN, **values}


def error_of(values: dict[str, str]) -> str:
    with pytest.raises(SettingsError) as caught:
        settings_from_env(values)
    message = str(caught.value)
    assert "\n" not in message
    assert TOKEN not in message
    return message


def test_defaults() -> None:
    settings = settings_from_env(env())
    assert settings == Settings(token=TOKEN)
    assert settings.database_url == DEFAULT_DATABASE_URL
    assert settings.log_level == "INFO"
    assert settings.api_base is None and settings.gateway_url is None
    assert settings.shard_count is None and settings.shard_ids is None and not settings.sharded
    assert settings.dev_guild_id is None


def test_every_setting() -> None:
    settings = settings_from_env(
        env(
            DATABASE_URL="postgresql+asyncpg://u:p@127.0.0.1:5432/db",
            LOG_LEVEL="debug",
            DISCORD_API_BASE="http://127.0.0.1:9000/api/v10/",
            DISCORD_GATEWAY_URL="ws://127.0.0.1:9000/gateway",
            SHARD_COUNT="4",
            SHARD_IDS="0, 2",
            DEV_GUILD_ID="123456789012345678",
        )
    )
    assert settings.database_url == "postgresql+asyncpg://u:p@127.0.0.1:5432/db"
    assert settings.log_level == "DEBUG"
    assert settings.api_base == "http://127.0.0.1:9000/api/v10"
    assert settings.gateway_url == "ws://127.0.0.1:9000/gateway"
    assert (settings.shard_count, settings.shard_ids, settings.sharded) == (4, (0, 2), True)
    assert settings.dev_guild_id == 123456789012345678


def test_missing_token_says_where_to_get_one() -> None:
    for values in ({}, {"DISCORD_TOKEN": ""}, {"DISCORD_TOKEN": "   "}):
        message = error_of(values)
        assert message.startswith("DISCORD_TOKEN is missing")
        assert "https://discord.com/developers/applications" in message
        # the first step of the README's setup, spelled out
        assert "`cp .env.example .env`" in message and "DISCORD_TOKEN= in .env" in message


@pytest.mark.parametrize(
    "raw",
    ["abc", "a.b", "a.b.c.d", "a..c", "a.b c.d", "a.b.c!", "Bot  a.b.c", "a.b.\u00e9"],
)
def test_malformed_tokens_are_refused(raw: str) -> None:
    message = error_of({"DISCORD_TOKEN": raw})
    assert "does not look like a bot token" in message
    assert raw not in message or len(raw) < 4


def test_bot_prefix_and_surrounding_space_are_stripped() -> None:
    assert parse_token(f"Bot {TOKEN}") == TOKEN
    assert parse_token(f"  {TOKEN}\n") == TOKEN


@pytest.mark.parametrize(
    "url",
    [
        "sqlite:///data/x.db",
        "sqlite+aiosqlite:///:memory:",
        "postgres://u@h/db",
        "postgresql://u@h:5432/db",
        "postgresql+asyncpg://u:p@h/db",
    ],
)
def test_supported_database_urls(url: str) -> None:
    assert settings_from_env(env(DATABASE_URL=url)).database_url == url


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("not a url", "is not a database URL"),
        ("mysql://u@h/db", "unsupported driver 'mysql'"),
        ("postgresql+psycopg2://u@h/db", "unsupported driver"),
        ("postgresql+asyncpg://u@h", "names no PostgreSQL database"),
    ],
)
def test_bad_database_urls(url: str, words: str) -> None:
    message = error_of(env(DATABASE_URL=url))
    assert words in message
    assert "sqlite+aiosqlite:///data/bot.db" in message


@pytest.mark.parametrize(
    ("values", "words"),
    [
        ({"SHARD_COUNT": "two"}, "SHARD_COUNT must be a whole number"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be at least 1"),
        ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,2"}, "SHARD_IDS 2 is out of range"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,x"}, "comma-separated numbers"),
        ({"SHARD_COUNT": "3", "SHARD_IDS": "1,1"}, "lists a shard twice"),
        ({"DEV_GUILD_ID": "my server"}, "DEV_GUILD_ID must be a whole number"),
        ({"LOG_LEVEL": "LOUD"}, "LOG_LEVEL must be one of"),
        ({"DISCORD_API_BASE": "127.0.0.1:80"}, "DISCORD_API_BASE must be a http/https URL"),
        ({"DISCORD_GATEWAY_URL": "http://x/gateway"}, "DISCORD_GATEWAY_URL must be a ws/wss URL"),
    ],
)
def test_other_settings_errors(values: dict[str, str], words: str) -> None:
    assert words in error_of(env(**values))


def test_token_is_not_in_repr() -> None:
    settings = settings_from_env(env())
    assert TOKEN not in repr(settings)
    assert TOKEN not in str(settings)
    assert "token" not in repr(settings)


def test_dotenv_is_loaded_from_the_working_directory_and_real_env_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for key in ENV_KEYS:
        monkeypatch.delenv(key, raising=False)
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={TOKEN}\nLOG_LEVEL=WARNING\nDEV_GUILD_ID=42\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LOG_LEVEL", "ERROR")
    settings = load_settings()
    assert settings.token == TOKEN
    assert settings.log_level == "ERROR"  # the real variable wins over .env
    assert settings.dev_guild_id == 42


def test_sqlite_folder_is_created(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path}/a/b/bot.db"
    assert sqlite_path(url) == tmp_path / "a" / "b" / "bot.db"
    ensure_database_folder(url)
    assert (tmp_path / "a" / "b").is_dir()
    assert sqlite_path("sqlite+aiosqlite:///:memory:") is None
    assert sqlite_path("postgresql+asyncpg://u@h/db") is None


def test_uncreatable_sqlite_folder_is_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(SettingsError) as caught:
        ensure_database_folder(f"sqlite+aiosqlite:///{blocker}/sub/bot.db")
    assert "cannot be created" in str(caught.value)
    assert "\n" not in str(caught.value)


def test_redacting_filter_hides_the_token_in_messages_args_and_tracebacks() -> None:
    stream = io.StringIO()
    configure_logging("DEBUG", secrets=[TOKEN], stream=stream)
    try:
        logger = logging.getLogger("discord.http")
        logger.info("token is %s", TOKEN)
        logger.warning(f"inline {TOKEN}")
        try:
            raise RuntimeError(f"boom {TOKEN}")
        except RuntimeError:
            logger.exception("failed")
    finally:
        logging.getLogger().handlers.clear()
    output = stream.getvalue()
    assert TOKEN not in output
    assert output.count(REDACTED) == 3
    assert "RuntimeError" in output


@pytest.mark.parametrize("level", [logging.DEBUG, logging.INFO, logging.ERROR])
def test_interaction_and_webhook_tokens_are_redacted_at_every_level(level: int) -> None:
    """ "interaction tokens in webhook URLs are redacted at every log level, DEBUG included"."""
    secret = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5OmFiY2RlZg.x-y_z"
    stream = io.StringIO()
    configure_logging("DEBUG", secrets=[TOKEN], stream=stream)
    try:
        http, webhook = logging.getLogger("discord.http"), logging.getLogger("discord.webhook.async_")
        base = "https://discord.com/api/v10"
        http.log(level, "%s %s with %s has returned %s", "POST", f"{base}/webhooks/42/{secret}", None, 200)
        webhook.log(level, "Webhook ID %s with %s %s", 1, "POST", f"{base}/interactions/7/{secret}/callback")
        http.log(level, "PATCH %s/webhooks/42/%s/messages/@original?wait=1", base, secret)
        try:
            raise RuntimeError(f"404 for url='{base}/webhooks/42/{secret}'")
        except RuntimeError:
            http.log(level, "failed", exc_info=True)
    finally:
        logging.getLogger().handlers.clear()
    output = stream.getvalue()
    assert secret not in output
    assert "/interactions/7/[redacted]/callback" in output and "/webhooks/42/[redacted]/messages" in output


def test_redact_is_a_no_op_without_secrets() -> None:
    assert RedactingFilter([]).redact("x") == "x"
    assert RedactingFilter(["", "ab"]).redact("cabd") == f"c{REDACTED}d"
