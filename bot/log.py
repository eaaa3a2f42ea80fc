"""Logging: one format for the whole process, the level from `LOG_LEVEL`, and secrets redacted everywhere."""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Iterable
from typing import TextIO

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
REDACTED = "[redacted]"
#: The token part of Discord's interaction and webhook URLs (`/webhooks/<app id>/<token>`,
#: `/interactions/<id>/<token>/callback`): whoever holds it can answer or edit as the bot for 15 minutes.
_URL_TOKEN = re.compile(r"(/(?:webhooks|interactions)/\d+/)[^/?#\s'\"]+")


class RedactingFilter(logging.Filter):
    """Replace every known secret, and the token of every interaction or webhook URL, in a record's message
    and traceback text with `[redacted]`, at every level (discord.py logs each request's URL at DEBUG).

    Installed on the handler (not a logger) so records from every library logger pass through it.
    """

    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__()
        self._secrets = tuple(sorted({s for s in secrets if s}, key=len, reverse=True))

    def redact(self, text: str) -> str:
        for secret in self._secrets:
            text = text.replace(secret, REDACTED)
        if "/webhooks/" in text or "/interactions/" in text:
            text = _URL_TOKEN.sub(rf"\1{REDACTED}", text)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = self.redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        return True


def configure_logging(
    level: str = "INFO", *, secrets: Iterable[str] = (), stream: TextIO | None = None
) -> None:
    """Send every logger to one stream handler with `LOG_FORMAT`, the given level and the redaction filter."""
    handler = logging.StreamHandler(stream if stream is not None else sys.stderr)
    handler.setFormatter(logging.Formatter(LOG_FORMAT))
    handler.addFilter(RedactingFilter(secrets))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    # Library chatter: Alembic announces every plugin and migration step at INFO; discord.py's gateway
    # at DEBUG is huge. Keep both one step quieter than ours.
    debug = level == "DEBUG"
    logging.getLogger("alembic").setLevel(logging.INFO if debug else logging.WARNING)
    logging.getLogger("discord.gateway").setLevel(logging.INFO if debug else logging.NOTSET)
