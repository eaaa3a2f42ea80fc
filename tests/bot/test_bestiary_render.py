"""exts/bestiary/_views.py: stat blocks and the bestiary list fit Discord's embeds, and every text from a
file or a
Director's typing is shown inert (mentions never ping, markdown shows as typed)."""

from __future__ import annotations

import dataclasses

import pytest

from bot.content.bestiary import Brought
from bot.content.forgesteel.monster import read_monster, read_monster_group
from bot.content.monster import Monster, Organization, Trait
from bot.rules.ability import Ability, ActionType, PowerRollSpec
from bot.store.bestiary import MonsterEntry, Stocked
from exts.bestiary._views import bestiary_embed, brought_text, monster_embed, stocked_text
from tests.content.forgesteel_files import invented_bytes

MONSTERS = [
    *read_monster_group(invented_bytes("Bogling.ds-monster-group")).monsters,
    read_monster(invented_bytes("Cinder Wyrm.ds-monster")),
]
HOSTILE = "<@123456789012345678> @everyone **Boss**"


def _size(embed: object) -> int:
    data = embed.to_dict()  # type: ignore[attr-defined]
    fields = data.get("fields", [])
    parts = [data.get("title", ""), data.get("description", ""), data.get("footer", {}).get("text", "")]
    return sum(map(len, parts)) + sum(len(f["name"]) + len(f["value"]) for f in fields)


@pytest.mark.parametrize("monster", MONSTERS, ids=[m.name for m in MONSTERS])
def test_every_fixture_stat_block_fits_an_embed_with_its_abilities(monster: Monster) -> None:
    embed = monster_embed(monster)
    assert embed.title == monster.name and _size(embed) <= 6000 and len(embed.fields) <= 25
    shown = {f.name.split(" (")[0] for f in embed.fields}
    assert {a.name for a in monster.abilities} <= shown and embed.footer.text is None  # nothing cut


def test_villain_actions_come_after_the_other_abilities() -> None:
    wyrm = MONSTERS[-1]
    kinds = [f.name for f in monster_embed(wyrm).fields if "action" in f.name or "maneuver" in f.name.lower()]
    villain = [i for i, name in enumerate(kinds) if "Villain action" in name]
    assert villain and villain == list(range(len(kinds) - len(villain), len(kinds)))


def test_hostile_texts_are_inert() -> None:
    ability = Ability(
        HOSTILE,
        ActionType.MAIN,
        keywords=(HOSTILE,),
        distance=HOSTILE,
        target=HOSTILE,
        power_roll=PowerRollSpec((), (HOSTILE, HOSTILE, HOSTILE)),
        effect=HOSTILE,
    )
    monster = Monster(
        id="x",
        name=HOSTILE,
        level=1,
        organization=Organization.ELITE,
        stamina=10,
        group=HOSTILE,
        keywords=(HOSTILE,),
        abilities=(ability,),
        traits=(Trait(HOSTILE, text=HOSTILE),),
    )
    embed = monster_embed(monster)
    texts = [embed.title or "", embed.description or ""] + [f.name + f.value for f in embed.fields]
    texts += [
        bestiary_embed([MonsterEntry(HOSTILE, HOSTILE, "x")]).fields[0].value,
        stocked_text(Stocked((HOSTILE,), ()), HOSTILE),
        brought_text([Brought(HOSTILE, (HOSTILE,), HOSTILE)], "the Director's side"),
    ]
    for text in texts:
        assert "<@123456789012345678>" not in text and "@everyone" not in text and "**Boss**" not in text


def test_stocked_and_brought_texts() -> None:
    many = tuple(f"Goblin {n}" for n in range(1, 13))
    assert stocked_text(Stocked(many[:2], ("Worg",)), "Goblin") == (
        "📖 Bestiary (Goblin): added Goblin 1, Goblin 2; updated Worg."
    )
    assert stocked_text(Stocked(many, ())).endswith("Goblin 10 and 2 more.")
    text = brought_text(
        [Brought("Bogling Slinger", many[:4], "Bogling Slinger squad"), Brought("Worg", many, None)],
        "the Director",
    )
    assert text.splitlines() == [
        "➕ Goblin 1, Goblin 2, Goblin 3, Goblin 4 as the squad **Bogling Slinger squad** (Bogling Slinger)",
        "➕ Goblin 1..Goblin 12 (Worg)",
        "joined the Director.",
    ]


def test_brought_names_the_stat_block_only_when_the_name_differs() -> None:
    """Not "Goblin Assassin (Goblin Assassin) joined the Director's side.": a creature with the stat block's
    own name (or numbered after it) doesn't name it again; a renamed one does."""
    one = brought_text([Brought("Goblin Assassin", ("Goblin Assassin",))], "the Director's side")
    assert one == "➕ Goblin Assassin joined the Director's side."
    numbered = brought_text([Brought("Goblin", ("Goblin 1", "Goblin 2"))], "the Director's side")
    assert numbered == "➕ Goblin 1, Goblin 2 joined the Director's side."
    renamed = brought_text([Brought("Goblin Assassin", ("Knife",))], "the Director's side")
    assert renamed == "➕ Knife (Goblin Assassin) joined the Director's side."


def test_an_empty_bestiary_says_how_to_fill_it() -> None:
    embed = bestiary_embed([])
    assert embed.description is not None and "/monster import" in embed.description


def test_a_hand_made_stat_block_shows_its_numbers() -> None:
    block = dataclasses.replace(MONSTERS[0], abilities=(), traits=(), group="", keywords=())
    description = monster_embed(block).description or ""
    assert f"**Stamina** {block.stamina}" in description and "Level 1 Minion Artillery" in description
