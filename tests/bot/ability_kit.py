"""Setup for the strike-by-ability tests: our own fixture heroes (`tests/fixtures/forgesteel/`) on the
channel's roster and the fixture monsters brought in as the bestiary brings them
(`bot.content.bestiary.add_monsters`), all written straight into the store (the Director `dana` started the
encounter).

The table: Brannoc (alice's Stoneborn Reaver, M2 A1, Wolfpelt kit melee +1/+2/+3, Rage) and Marra (bob's
Emberkin Oathsworn, M3 A-1, Bulwark kit, Zeal), roster heroes; the Director's Bogling Stabber 1 (a horde:
Reed Knife, Mud Chains for 3 Malice), Bogling Brawler 1 (M -1), the Bogling Slinger squad (three minions of
Stamina 3 sharing a pool) and the Cinder Wyrm (a solo, stability 4, fire immunity 5, M 3).
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
from tests.content.forgesteel_files import invented_bytes

BOGLINGS = {m.name: m for m in read_monster_group(invented_bytes("Bogling.ds-monster-group")).monsters}
WYRM = read_monster(invented_bytes("Cinder Wyrm.ds-monster"))
SHEETS = {name: to_sheet(read_hero(invented_bytes(f"{name}.ds-hero"))) for name in ("Brannoc", "Marra")}


async def start(harness: Harness, *, malice: int = 0, resources: dict[str, int] | None = None) -> None:
    """The table above, with the Director's `malice` and the heroes' heroic `resources` (by name)."""

    def change(table: Table) -> Change[None]:
        state = new_encounter_state()
        for name, owner in (("Brannoc", harness.alice.id), ("Marra", harness.bob.id)):
            hero = table.add_hero(owner, name, codec.to_data(SHEETS[name]))
            state, _ = add_hero(state, hero.id, owner, name, SHEETS[name])
        for monster, count in (("Bogling Stabber", 1), ("Bogling Brawler", 1), ("Bogling Slinger", 3)):
            state, _ = add_monsters(state, BOGLINGS[monster], count, "director")
        state, _ = add_monsters(state, WYRM, 1, "director")
        state = dataclasses.replace(state, malice=Malice(malice), resources=dict(resources or {}))
        table.begin_encounter("Bog ambush", harness.director.id, codec.to_data(state))
        return Change("Encounter started", None)

    await harness.store.mutate(harm_kit.key(harness), harness.director.id, "encounter.start", change)


async def current(harness: Harness) -> Encounter:
    return await harm_kit.current(harness)
