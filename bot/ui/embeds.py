"""Embeds that always fit: every renderer builds its embeds through `make_embed`.

Discord rejects a whole message (400, code 50035) when one embed part is too long; `make_embed` trims every
part to its limit (title 256, description 4096, 25 fields of name 256 / value 1024, footer 2048) and the whole
embed to 6000 characters, so a long roster or log can never make a reply fail. Text passed in is shown as
given: wrap user-supplied names in `bot.replies.inert` first.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

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
    budget = TOTAL_MAX
    title_text = clamp(title, TITLE_MAX) if title else None
    budget -= len(title_text or "")
    all_fields = list(fields)
    kept = all_fields[:FIELDS_MAX]
    dropped = len(all_fields) - len(kept)
    footer_text = footer or ""
    if dropped:
        footer_text = f"{footer_text} · {dropped} more not shown".lstrip(" ·")
    footer_text = clamp(footer_text, FOOTER_MAX)
    budget -= len(footer_text)
    embed = discord.Embed(title=title_text, colour=colour)
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
    return embed
