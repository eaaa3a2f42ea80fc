"""Embeds that always fit: every renderer builds its embeds through `make_embed`, and the bot's one sender
(`bot.replies`) passes every embed it sends through `fit_embed`.

Discord rejects a whole message (400, code 50035) when one embed part is too long; `make_embed` trims every
part to its limit (title 256, description 4096, 25 fields of name 256 / value 1024, footer 2048) and the whole
embed to 6000 characters, so a long roster or log can never make a reply fail. Text passed in is shown as
given: wrap user-supplied names in `bot.replies.inert` first.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, cast

import discord

TITLE_MAX = 256
DESCRIPTION_MAX = 4096
FIELDS_MAX = 25
FIELD_NAME_MAX = 256
FIELD_VALUE_MAX = 1024
FOOTER_MAX = 2048
TOTAL_MAX = 6000
ELLIPSIS = "…"


class Colour:
    """The palette: one colour per kind of message."""

    INFO = discord.Colour(0x5865F2)
    HEROES = discord.Colour(0x2ECC71)
    DIRECTOR = discord.Colour(0xE74C3C)
    WARNING = discord.Colour(0xF1C40F)
    NEUTRAL = discord.Colour(0x95A5A6)


@dataclass(frozen=True, slots=True)
class Field:
    name: str
    value: str
    inline: bool = False


def clamp(text: str, limit: int) -> str:
    """`text` cut to at most `limit` characters, ending in `…` when cut."""
    if len(text) <= limit:
        return text
    return text[: max(limit - 1, 0)] + ELLIPSIS if limit > 0 else ""


def make_embed(
    title: str | None = None,
    description: str | None = None,
    *,
    colour: discord.Colour = Colour.INFO,
    fields: Iterable[Field] = (),
    footer: str | None = None,
) -> discord.Embed:
    """An embed with every part trimmed to Discord's limits (fields past 25 are counted in the footer)."""
    embed = discord.Embed(colour=colour)
    _fill(embed, title, description, list(fields), footer, TOTAL_MAX)
    return embed


def fit_embed(embed: discord.Embed, budget: int = TOTAL_MAX) -> discord.Embed:
    """`embed` as it is when every part is within its limit and the whole within `budget` (at most 6,000);
    else a copy trimmed as `make_embed` trims (its colour, author, images and link kept; the author's name
    cut to 256). What the bot's one sender (`bot.replies`) does to every embed it sends."""
    if _fits(embed, budget):
        return embed
    data = cast(dict[str, Any], embed.to_dict())
    for part in ("title", "description", "fields", "footer"):
        data.pop(part, None)
    if "author" in data:
        data["author"]["name"] = clamp(str(data["author"].get("name", "")), TITLE_MAX)
    copy = discord.Embed.from_dict(data)
    fields = [Field(f.name or "", f.value or "", bool(f.inline)) for f in embed.fields]
    author = len(copy.author.name or "")
    _fill(copy, embed.title, embed.description, fields, embed.footer.text, max(budget - author, 0))
    return copy


def _fits(embed: discord.Embed, budget: int) -> bool:
    return (
        len(embed) <= min(budget, TOTAL_MAX)
        and len(embed.title or "") <= TITLE_MAX
        and len(embed.description or "") <= DESCRIPTION_MAX
        and len(embed.fields) <= FIELDS_MAX
        and all(
            len(f.name or "") <= FIELD_NAME_MAX and len(f.value or "") <= FIELD_VALUE_MAX
            for f in embed.fields
        )
        and len(embed.footer.text or "") <= FOOTER_MAX
        and len(embed.author.name or "") <= TITLE_MAX
    )


def _fill(
    embed: discord.Embed,
    title: str | None,
    description: str | None,
    all_fields: list[Field],
    footer: str | None,
    budget: int,
) -> None:
    """Set the text parts on `embed`, each trimmed, in `budget` characters in all: the title, the footer (with
    the count of fields past 25), the fields while they fit, then the description in what is left."""
    budget = min(budget, TOTAL_MAX)
    title_text = clamp(title, min(TITLE_MAX, budget)) if title else None
    budget -= len(title_text or "")
    kept = all_fields[:FIELDS_MAX]
    dropped = len(all_fields) - len(kept)
    footer_text = footer or ""
    if dropped:
        footer_text = f"{footer_text} · {dropped} more not shown".lstrip(" ·")
    footer_text = clamp(footer_text, min(FOOTER_MAX, max(budget, 0)))
    budget -= len(footer_text)
    embed.title = title_text
    for field in kept:
        name = clamp(field.name or "\u200b", FIELD_NAME_MAX)
        value = clamp(field.value or "\u200b", FIELD_VALUE_MAX)
        if len(name) + len(value) > budget - 1:
            break
        budget -= len(name) + len(value)
        embed.add_field(name=name, value=value, inline=field.inline)
    if description:
        embed.description = clamp(description, min(DESCRIPTION_MAX, max(budget, 0)))
    if footer_text:
        embed.set_footer(text=footer_text)
