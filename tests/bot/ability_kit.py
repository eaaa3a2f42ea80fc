"""Setup for the strike-by-ability tests: the Forge Steel fixture heroes on the channel's roster and the
fixture monsters brought in as the bestiary brings them (`bot.content.bestiary.add_monsters`), all written
straight into the store (the Director `dana` started the encounter). The files are read in place from
../shared/fixtures/forgesteel.

The table: Keth (alice's Dwarf Fury, M2 A2, Panther kit melee +0/+0/+4, Ferocity) and Jennet (bob's Human
Censor, M3 A-1, Mountain kit, Wrath), roster heroes; the Director's Goblin Assassin 1 (a horde: Sword Stab,
Shadow Chains for 3 Malice), Goblin Warrior 1 (Bury the Point: M < n bleeding), the Goblin Sniper squad (three
minions of Stamina 3 sharing a pool) and the Thorn Dragon (a solo, stability 6, poison immunity 5).
"""

from __future__ import annotations

import dataclasses

from bot.content.bestiary import add_monsters
from bot.content.forgesteel.hero import read_hero
from bot.content.forgesteel.hero_sheet import to_sheet
from bot.content.forgesteel.monster import read_monster, read_monster_group
from bot.rules import codec
from bot.rules.encounter import Encounter, add_hero, new_encounter_state
from bot.rules.resources import Malice
from bot.store import Change, Table
from tests.bot import harm_kit
from tests.bot.conftest import Table as Harness
from tests.content.forgesteel_files import fixture_bytes

GOBLINS = {m.name: m for m in read_monster_group(fixture_bytes("Goblin.ds-monster-group")).monsters}
DRAGON = read_monster(fixture_bytes("Thorn Dragon.ds-monster"))
SHEETS = {name: to_sheet(read_hero(fixture_bytes(f"{name}.ds-hero"))) for name in ("Keth", "Jennet")}


class Loaded:
    """Dice that roll what a test loads, then 5s."""

    def __init__(self) -> None:
        self.queue: list[int] = []

    def load(self, *values: int) -> None:
        self.queue.extend(values)

    def randint(self, low: int, high: int) -> int:
        return self.queue.pop(0) if self.queue else min(high, max(low, 5))


async def start(harness: Harness, *, malice: int = 0, resources: dict[str, int] | None = None) -> None:
    """The table above, with the Director's `malice` and the heroes' heroic `resources` (by name)."""

    def change(table: Table) -> Change[None]:
        state = new_encounter_state()
        for name, owner in (("Keth", harness.alice.id), ("Jennet", harness.bob.id)):
            hero = table.add_hero(owner, name, codec.to_data(SHEETS[name]))
            state, _ = add_hero(state, hero.id, owner, name, SHEETS[name])
        for monster, count in (("Goblin Assassin", 1), ("Goblin Warrior", 1), ("Goblin Sniper", 3)):
            state, _ = add_monsters(state, GOBLINS[monster], count, "director")
        state, _ = add_monsters(state, DRAGON, 1, "director")
        state = dataclasses.replace(state, malice=Malice(malice), resources=dict(resources or {}))
        table.begin_encounter("Goblin ambush", harness.director.id, codec.to_data(state))
        return Change("Encounter started", None)

    await harness.store.mutate(harm_kit.key(harness), harness.director.id, "encounter.start", change)


async def current(harness: Harness) -> Encounter:
    return await harm_kit.current(harness)
