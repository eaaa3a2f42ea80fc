"""The one sender of the bot's messages, `inert` for user-supplied text, and `fail` for refusals.

`send` answers an interaction (never acknowledging twice), `edit_response` edits the message a button was
pressed on, `post` and `edit` send and edit with the bot token; each pings nobody unless the caller passes
`discord.AllowedMentions`, and each fits its message to Discord's limits (`fit`). `inert(text)` makes a
user-supplied name safe to show; `fail(message)` raises the `UserError` the error hook shows as one line.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NoReturn

import discord
from discord import app_commands
from discord.utils import MISSING

from bot.embeds import TOTAL_MAX, fit_embed
from bot.in_time import settled

NO_MENTIONS = discord.AllowedMentions.none()
MAX_CONTENT = 2000
#: What a cut at a line ends with at the most ("\n… and 99999 more lines").
_CUT_NOTE_MAX = 30
_PING = re.compile(r"<@[!&]?\d+>")

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


@dataclass(frozen=True, slots=True)
class Fitted:
    """A message's content and embeds within Discord's limits (`fit`)."""

    content: str | None
    embeds: list[discord.Embed]


def fit(content: str | None, embeds: Sequence[discord.Embed] = ()) -> Fitted:
    """`content` within 2,000 characters (`fit_content`) and `embeds` within their limits, 6,000 characters
    in all (an embed past that is trimmed to what is left, and one with nothing left is dropped)."""
    fitted: list[discord.Embed] = []
    budget = TOTAL_MAX
    for embed in embeds:
        if budget <= 0:
            break
        fitted.append(fit_embed(embed, budget))
        budget -= len(fitted[-1])
    return Fitted(None if content is None else fit_content(content), fitted)


def fit_content(text: str, limit: int = MAX_CONTENT) -> str:
    """`text` within `limit` characters: cut at a line, ending "… and N more lines", when that keeps at least
    half of it, else mid-line with "…"; a mention (`<@1>`, `<@&2>`) is never cut in two, and each one the cut
    drops is added at the end, so the message still pings whom it was meant to."""
    if len(text) <= limit:
        return text
    mentions = list(dict.fromkeys(_PING.findall(text)))
    reserve = len(" ".join(mentions)) + 1 if mentions else 0
    room = max(limit - reserve - _CUT_NOTE_MAX, 0)
    head = text[:room]
    broken = head.rfind("<")
    if broken > head.rfind(">"):  # don't end inside a mention
        head = head[:broken]
    line = head.rfind("\n")
    if line >= room // 2:
        more = text[line + 1 :].count("\n") + 1
        kept = f"{text[:line]}\n… and {more} more line{'s' if more > 1 else ''}"
    else:
        kept = head.rstrip() + "…"
    lost = [m for m in mentions if m not in kept]
    while lost and len(kept) + len(" ".join(lost)) + 1 > limit:  # more mentions than a message holds
        lost.pop()
    return f"{kept} {' '.join(lost)}" if lost else kept


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
    fitted = fit(content, [*([embed] if embed is not None else []), *embeds])
    content, all_embeds = fitted.content, fitted.embeds
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


async def edit_response(
    interaction: discord.Interaction[Any],
    *,
    content: str | None,
    embed: discord.Embed | None,
    view: discord.ui.View | None,
) -> None:
    """Edit the message `interaction`'s component is on, in place: the response itself (type 7) if it is
    still open, else the original response (after a deferral)."""
    fitted = fit(content, [embed] if embed is not None else [])
    embeds = fitted.embeds
    if interaction.response.is_done():
        await interaction.edit_original_response(content=fitted.content, embeds=embeds, view=view)
    else:
        await interaction.response.edit_message(content=fitted.content, embeds=embeds, view=view)


async def drop_buttons(interaction: discord.Interaction[Any]) -> None:
    """Take the buttons off the message `interaction`'s component is on (a press that ended what they were
    for), its text and embeds kept. Edited with the bot's token, so the press's own answer stays free; a
    message the bot can't edit keeps them (a later press is refused anyway)."""
    message = interaction.message
    if message is None:
        return
    with contextlib.suppress(discord.HTTPException):
        await message.edit(view=None, allowed_mentions=NO_MENTIONS)


async def post(
    channel: discord.abc.Messageable,
    *,
    content: str | None = None,
    embed: discord.Embed | None = None,
    view: discord.ui.View | None = None,
    mentions: discord.AllowedMentions | None = None,
) -> discord.Message:
    """Send a message in `channel` with the bot token (Discord's refusals are raised for the caller)."""
    fitted = fit(content, [embed] if embed is not None else [])
    parts: dict[str, Any] = {"allowed_mentions": mentions if mentions is not None else NO_MENTIONS}
    if fitted.content is not None:
        parts["content"] = fitted.content
    if fitted.embeds:
        parts["embeds"] = fitted.embeds
    if view is not None:
        parts["view"] = view
    return await channel.send(**parts)


async def edit(
    message: discord.PartialMessage,
    *,
    embed: discord.Embed,
    view: discord.ui.View | None,
) -> discord.Message:
    """Edit a message the bot posted (its embed and view; it pings nobody); the message as edited."""
    fitted = fit(None, [embed])
    return await message.edit(embeds=fitted.embeds, view=view, allowed_mentions=NO_MENTIONS)
