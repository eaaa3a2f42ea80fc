"""`make_embed` keeps every embed within Discord's limits."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.embeds import (
    DESCRIPTION_MAX,
    FIELD_VALUE_MAX,
    FIELDS_MAX,
    TITLE_MAX,
    TOTAL_MAX,
    Colour,
    Field,
    clamp,
    make_embed,
)


def test_short_text_is_unchanged() -> None:
    embed = make_embed("Round 1", "Heroes pick first.", fields=[Field("Ash", "Stamina 20/20", inline=True)])
    assert embed.title == "Round 1"
    assert embed.description == "Heroes pick first."
    assert [(f.name, f.value, f.inline) for f in embed.fields] == [("Ash", "Stamina 20/20", True)]
    assert embed.colour == Colour.INFO
    assert embed.footer.text is None


def test_every_part_is_trimmed() -> None:
    embed = make_embed(
        "T" * 1000, "D" * 9000, fields=[Field("N", "V" * 5000)] * 40, footer="F", colour=Colour.DIRECTOR
    )
    assert len(embed.title or "") == TITLE_MAX and (embed.title or "").endswith("…")
    assert len(embed.fields) <= FIELDS_MAX
    assert all(len(f.value or "") <= FIELD_VALUE_MAX for f in embed.fields)
    assert len(embed.description or "") <= DESCRIPTION_MAX
    assert len(embed) <= TOTAL_MAX
    assert embed.footer.text == "F · 15 more not shown"


def test_clamp() -> None:
    assert clamp("abc", 3) == "abc"
    assert clamp("abcd", 3) == "ab…"
    assert clamp("abcd", 0) == ""


@settings(max_examples=60, deadline=None)
@given(
    title=st.text(max_size=400),
    description=st.text(max_size=6000),
    fields=st.lists(st.tuples(st.text(max_size=300), st.text(max_size=1500)), max_size=40),
    footer=st.text(max_size=3000),
)
def test_never_over_the_limits(
    title: str, description: str, fields: list[tuple[str, str]], footer: str
) -> None:
    embed = make_embed(title, description, fields=[Field(n, v) for n, v in fields], footer=footer)
    assert len(embed) <= TOTAL_MAX
    assert len(embed.title or "") <= TITLE_MAX
    assert len(embed.description or "") <= DESCRIPTION_MAX
    assert len(embed.fields) <= FIELDS_MAX
