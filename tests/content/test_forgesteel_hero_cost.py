"""The hero reader's cost: a crafted file under 2 MB is read (or refused) within 1 s of CPU, every count that
could multiply the work is capped while reading, not after, and the reading stops at its CPU budget.

The crafted files are `tests/content/hero_bomb.py`'s; `bench/import_hero.py` shows the cost against size."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from bot.content.ability_entry import ABILITIES_MAX
from bot.content.forgesteel import hero_abilities
from bot.content.forgesteel.files import MAX_BYTES, ForgeSteelError, OverBudget, ReadBudget, TooMany
from bot.content.forgesteel.hero import read_hero
from bot.content.forgesteel.hero_features import FEATURES_MAX, MAX_DEPTH
from bot.content.forgesteel.hero_resources import RESOURCES_MAX
from bot.content.forgesteel.hero_sheet import to_sheet
from bot.content.forgesteel.hero_stats import KITS_MAX
from tests.content.forgesteel_files import invented_bytes
from tests.content.forgesteel_hero_kit import ability, feature, hero, kit, to_bytes
from tests.content.hero_bomb import base, multiplying, widest

#: The largest crafted file: just under the 2 MB an upload may be.
SIZE = MAX_BYTES - 4096
CPU_MAX = 1.0


class CountingBudget(ReadBudget):
    """A budget that never runs out, counting the list items read (how far the reader got)."""

    def __init__(self) -> None:
        super().__init__(seconds=3600.0)
        self.items = 0

    def spend(self, items: int) -> None:
        self.items += items + 1


def _cpu(read: Callable[[], Any]) -> tuple[float, Any]:
    """The calling thread's CPU seconds for `read()`, and what it returned or raised."""
    start = time.thread_time()
    try:
        outcome: Any = read()
    except ForgeSteelError as error:
        outcome = error
    return time.thread_time() - start, outcome


def test_the_worst_crafted_file_is_refused_within_a_second_of_cpu() -> None:
    """Read naively, this file's features and abilities multiply into minutes of CPU."""
    data = multiplying(SIZE)
    assert len(data) <= MAX_BYTES
    cpu, outcome = _cpu(lambda: to_sheet(read_hero(data)))
    assert isinstance(outcome, TooMany), outcome
    assert "\n" not in str(outcome) and "export it again" in str(outcome)
    assert cpu <= CPU_MAX


def test_the_widest_file_accepted_is_read_within_a_second_of_cpu() -> None:
    """Every count at its cap, the rest in abilities the reader must index: accepted, and still cheap."""
    data = widest(SIZE)
    assert len(data) <= MAX_BYTES
    cpu, outcome = _cpu(lambda: to_sheet(read_hero(data)))
    assert not isinstance(outcome, ForgeSteelError), outcome
    assert len(outcome.abilities) == ABILITIES_MAX
    assert cpu <= CPU_MAX


def test_features_are_capped_while_they_are_walked() -> None:
    many = [feature("Text", f"Note {i}") for i in range(FEATURES_MAX * 10)]
    budget = CountingBudget()
    with pytest.raises(TooMany, match=f"more than {FEATURES_MAX} features"):
        read_hero(to_bytes(hero(class_features=[*base(), *many])), budget)
    # the list is handed out whole (one unit an item), then the walk stopped at the cap: walking all of them
    # would cost another unit or more each
    assert budget.items < len(many) + 2 * FEATURES_MAX
    read_hero(to_bytes(hero(class_features=[*base(), *many[: FEATURES_MAX - 10]])))  # under the cap: read


def test_abilities_named_are_capped_before_any_card_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same ability named again and again: refused at the 61st name, before a single card is made."""
    read: list[object] = []
    real = hero_abilities.read_ability
    monkeypatch.setattr(hero_abilities, "read_ability", lambda raw: read.append(raw) or real(raw))

    def picks(count: int) -> bytes:
        chooser = feature("Class Ability", "Picks", selectedIDs=["a"] * count, count=count)
        return to_bytes(hero(class_features=[*base(), chooser], abilities=[ability("a", "Anvil")]))

    with pytest.raises(TooMany, match=f"more than {ABILITIES_MAX} abilities"):
        read_hero(picks(ABILITIES_MAX * 100))
    assert read == []
    found = read_hero(picks(ABILITIES_MAX))
    assert len(found.abilities) == ABILITIES_MAX and len(read) == 1  # named 60 times, read once


def test_class_ability_sources_are_indexed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each Class Ability feature that may pick from anywhere used to index every source again."""
    walked: list[object] = []
    real = hero_abilities._level_abilities

    def counting(owners: list[Any]) -> Any:
        walked.append(owners)
        return real(owners)

    monkeypatch.setattr(hero_abilities, "_level_abilities", counting)
    choosers = [
        feature("Class Ability", f"Pick {i}", selectedIDs=["a"], allowAnySource=True, source={})
        for i in range(40)
    ]
    found = read_hero(to_bytes(hero(class_features=[*base(), *choosers], abilities=[ability("a", "Anvil")])))
    assert len(found.abilities) == 40
    assert len(walked) == 3  # the class's levels, the selected and the unselected subclasses': once each


def test_kits_and_heroic_resources_are_capped() -> None:
    kits = feature("Kit", "Kits", selected=[kit(f"Kit {i}") for i in range(KITS_MAX + 1)], count=1)
    with pytest.raises(TooMany, match=f"more than {KITS_MAX} kits"):
        read_hero(to_bytes(hero(class_features=[kits])))
    resources = [
        feature("Heroic Resource", f"Resource {i}", type="heroic", gains=[], value=0)
        for i in range(RESOURCES_MAX + 1)
    ]
    one_kit = feature("Kit", "Kit", selected=[kit("Panther")], count=1)
    with pytest.raises(TooMany, match=f"more than {RESOURCES_MAX} heroic resources"):
        read_hero(to_bytes(hero(class_features=[one_kit, *resources])))


def test_ability_choices_nest_no_deeper_than_forge_steel_writes_them() -> None:
    nested: dict[str, Any] = {"type": "Ability", "data": {"ability": ability("deep", "Deep")}}
    for _ in range(MAX_DEPTH + 2):
        nested = {"type": "Choice", "data": {"options": [{"feature": nested, "value": 1}]}}
    chooser = feature("Class Ability", "Pick", selectedIDs=["deep"], source={"fromClassLevels": True})
    with pytest.raises(ForgeSteelError, match="nest deeper"):
        read_hero(to_bytes(hero(class_features=[*base(), chooser, nested])))


def test_text_many_abilities_show_is_capped_while_the_cards_are_made() -> None:
    """One long Package Content text shown on 60 cards: refused as the cards are made, not as the sheet is."""
    packaged = ability("a", "Anvil")
    packaged["sections"].append({"type": "package", "tag": "t"})
    content = feature("Package Content", "Long", tag="t")
    content["description"] = "x" * (hero_abilities.CARDS_TEXT_MAX // 10)
    chooser = feature("Class Ability", "Picks", selectedIDs=["a"] * ABILITIES_MAX, count=ABILITIES_MAX)
    with pytest.raises(TooMany, match="ability texts come to over"):
        read_hero(to_bytes(hero(class_features=[*base(), chooser, content], abilities=[packaged])))


def test_one_card_over_the_text_cap_is_refused_as_it_is_read() -> None:
    """Not left out with a warning, nor kept for the sheet to refuse: the file is refused there."""
    long = ability("a", "Anvil")
    long["sections"][0]["roll"]["tier1"] = "2 damage; " * (hero_abilities.CARDS_TEXT_MAX // 10)
    chooser = feature("Class Ability", "Pick", selectedIDs=["a"])
    with pytest.raises(TooMany, match="ability texts come to over"):
        read_hero(to_bytes(hero(class_features=[*base(), chooser], abilities=[long])))


def test_reading_stops_at_its_cpu_budget() -> None:
    """A clock past the budget at its first look: the reader stops there, with a one-line refusal."""
    ticks = iter([0.0, 10.0])
    budget = ReadBudget(seconds=1.0, clock=lambda: next(ticks, 10.0))
    with pytest.raises(OverBudget) as refused:
        read_hero(widest(200_000), budget)
    assert "\n" not in str(refused.value) and "export it again" in str(refused.value)
    assert read_hero(invented_bytes("Brannoc.ds-hero"), ReadBudget(seconds=1.0)).name == "Brannoc"
