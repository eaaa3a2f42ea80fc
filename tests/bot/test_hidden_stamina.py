"""With `show_monster_stamina` off, no public message shows a Director creature's exact Stamina: every
command that changes or shows Stamina is run on a Director creature through the real dispatch, and every
message the bot left in the channel (replies, pings, the tracker, the end's summary) is read.

The renderers take `hidden` without a default (`bot.ui.combat`), from `bot.ui.format.hidden_stamina`, the one
place the setting is applied; this test is the net under that: a reply that forgets shows up here.
"""

from __future__ import annotations

import re

import discord

from tests.bot import encounter_kit as kit
from tests.bot.conftest import Table

#: The Ogre's Stamina maximum: a number nothing else in these messages has.
MAXIMUM = 47
EXACT = re.compile(rf"-?\d+ ?/ ?{MAXIMUM}\b|\b{MAXIMUM}\b")
OGRE_NUMBERS = re.compile(r"Ogre[^\n]*(?:Stamina:? -?\d|\(was -?\d)")


def public_text(message: discord.Message) -> str:
    parts = [message.content]
    parts += [str(embed.to_dict()) for embed in message.embeds]
    return "\n".join(parts)


async def test_no_public_message_shows_a_director_creatures_stamina(table: Table) -> None:
    await table.store.update_settings(table.guild.id, show_monster_stamina=False)
    await kit.start(table)
    await kit.add_party(table)
    ogre = {"name": "Ogre", "stamina": MAXIMUM, "side": "director"}
    await kit.add(table, **ogre)
    await kit.begin(table, first="director")
    director = table.director
    replies = []
    for command, options in (
        ("turn act", {"combatant": "Goblin 1"}),
        ("stamina damage", {"target": "Ogre", "amount": 12}),
        ("stamina heal", {"target": "Ogre", "amount": 2}),
        ("stamina temp", {"target": "Ogre", "amount": 3}),
        ("stamina set", {"target": "Ogre", "amount": 30}),
        ("strike", {"attacker": "Goblin 1", "targets": "Ogre, Ash", "damage": "3/6/9"}),
        ("move slam", {"target": "Ogre", "squares_left": 2, "into": "creature", "other": "Goblin 2"}),
        ("turn heal", {"target": "Ogre", "use": "recovery", "healer": "Goblin 1"}),
        ("turn end", {}),
        ("stamina damage", {"target": "Ogre", "amount": 60, "knock_out": True}),
        ("stamina wake", {"target": "Ogre"}),
    ):
        replies.append(kit.ok(await director.slash(table.channel, command, **options)))
    await director.slash(table.channel, "encounter status")  # the tracker posted again
    end = await director.slash(table.channel, "encounter end")
    assert end.response is not None
    kit.ok(await director.click(end.response.message, label="End the encounter"))

    texts = [public_text(m) for m in table.channel.history()]
    assert "🩹 **Ogre** spends a Recovery, helped by **Goblin 1**'s Heal · healthy" in replies
    assert "**Ogre** has Stamina set · healthy" in replies
    assert any("Encounter over" in t for t in texts)  # the end's summary is among them
    for text in texts:
        assert not EXACT.search(text), text
        assert not OGRE_NUMBERS.search(text), text
