"""The one way cogs answer an interaction: `send`, `inert` for user-supplied text, and `fail` for refusals.

- `send` responds if the interaction is not yet acknowledged and follows up otherwise, so nothing is ever
  acknowledged twice; it pings nobody unless the caller passes an explicit `discord.AllowedMentions`.
- `inert(text)` makes a user-supplied name safe to show: mentions render as text and never ping, markdown
  shows literally.
- `fail(message)` raises `UserError`; the tree's error hook shows `message` as a one-line ephemeral reply.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any, NoReturn

import discord
from discord import app_commands
from discord.utils import MISSING

from bot.in_time import settled

NO_MENTIONS = discord.AllowedMentions.none()
MAX_CONTENT = 2000

_ZWSP = "\u200b"
_MARKDOWN = re.compile(r"([\\*_~`|\[\]()])")
_LINE_START = re.compile(r"^(\s*)([>#-])", re.MULTILINE)
_MENTION = re.compile(r"<(@[!&]?|#)(\d+)>")
_EVERYONE = re.compile(r"@(everyone|here)")


class UserError(app_commands.AppCommandError):
    """A request the bot refuses; `str(error)` is one line telling the user what to do instead.

    It is an `AppCommandError`, so raising it from a command body, a check or a transformer reaches the
    tree's error hook unwrapped.
    """

    def __init__(self, message: str) -> None:
        super().__init__(one_line(message))


def one_line(text: str, limit: int = 300) -> str:
    """The first non-empty line of `text`, trimmed to `limit` characters."""
    line = next((part.strip() for part in str(text).splitlines() if part.strip()), "")
    return line if len(line) <= limit else line[: limit - 1] + "…"


def fail(message: str) -> NoReturn:
    """Refuse the current command with a one-line, user-facing reason."""
    raise UserError(message)


@lru_cache(maxsize=4096)
def inert(text: str) -> str:
    """Neutralise mentions and markdown in user-supplied text so it renders as typed and pings nobody.

    `@everyone`/`@here` get a zero-width space after the `@`; `<@123>`, `<@!1>`, `<@&1>` and `<#1>` keep their
    digits but gain a zero-width space so they are not parsed; markdown characters (and `>`, `#`, `-` at
    the start of a line) are backslash-escaped. (Remembered for the last 4,096 texts: every reply and tracker
    shows the same creature names again.)
    """
    text = _MARKDOWN.sub(r"\\\1", text)
    text = _LINE_START.sub(r"\1\\\2", text)
    text = _MENTION.sub(lambda m: f"<{m.group(1)}{_ZWSP}{m.group(2)}>", text)
    return _EVERYONE.sub(lambda m: f"@{_ZWSP}{m.group(1)}", text)


def inert_names(text: str, names: Iterable[str]) -> str:
    """`text` with every occurrence of each of `names` made `inert` (longest first, in one pass): for a line
    built elsewhere that quotes names as they are (a rule's refusal). Names without markdown or mentions are
    left alone, so the rest of the line keeps its own formatting."""
    risky = sorted({n for n in names if n and inert(n) != n}, key=len, reverse=True)
    if not risky:
        return text
    pattern = re.compile("|".join(re.escape(n) for n in risky))
    return pattern.sub(lambda m: inert(m.group(0)), text)


async def send(
    interaction: discord.Interaction[Any],
    *,
    content: str | None = None,
    embed: discord.Embed | None = None,
    embeds: Sequence[discord.Embed] = (),
    view: discord.ui.View | None = None,
    ephemeral: bool = False,
    mentions: discord.AllowedMentions | None = None,
    files: Sequence[discord.File] = (),
) -> None:
    """Answer `interaction`: the initial response if it is still open, a followup otherwise (after a deferral
    under way, `bot.in_time`).

    Pings nobody unless `mentions` is an explicit `discord.AllowedMentions(users=[...], roles=[...])`.
    """
    allowed = mentions if mentions is not None else NO_MENTIONS
    all_embeds = [*([embed] if embed is not None else []), *embeds]
    if content is not None and len(content) > MAX_CONTENT:
        content = content[: MAX_CONTENT - 1] + "…"
    await settled(interaction)
    if not interaction.response.is_done():
        await interaction.response.send_message(
            content=content,
            embeds=all_embeds or MISSING,
            view=view or MISSING,
            ephemeral=ephemeral,
            allowed_mentions=allowed,
            files=list(files) or MISSING,
        )
        return
    await interaction.followup.send(
        content=content or MISSING,
        embeds=all_embeds or MISSING,
        view=view or MISSING,
        ephemeral=ephemeral,
        allowed_mentions=allowed,
        files=list(files) or MISSING,
    )
