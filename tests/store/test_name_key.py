"""The roster compares hero names by the rules' one name key ("names compare by one key (NFKC,
casefold, invisibles removed), so `Ash` and `Ash` followed by a zero-width space are the same name")."""

from __future__ import annotations

import pytest

from bot.store import ChannelKey, InvalidValue, Table


def test_hero_names_compare_by_the_name_key() -> None:
    table = Table(ChannelKey(1, 2), 0)
    ash = table.add_hero(7, "Ash", {})
    assert table.hero_named("Ash\u200b") is ash
    assert table.hero_named("\u202eＡＳＨ") is ash
    with pytest.raises(InvalidValue, match="already a hero named"):
        table.add_hero(8, "ash\u2060", {})
