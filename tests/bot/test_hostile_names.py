"""Every name is escaped wherever it is shown, and names that differ only by invisible characters are one name
("Holes to close").

One walk through the game with markdown-hostile names for a hero, creatures, a squad, a group, teams and a
custom condition renders every reply, followup, embed and tracker it produces, and asserts the names show
literally: no link, no bold, exactly as typed (`bot.replies.inert`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord
from simcord.results import InteractionResult

from bot.replies import inert_names
from tests.bot import encounter_kit as kit
from tests.bot.conftest import Table

HOSTILE = "[a](https://x.y) **B**"
SQUAD = "~~S~~ `q`"
GROUP = "__G__ ||g||"
CUSTOM = "*hexed* > [c](http://c)"
HERO = "**Vex** [h](https://h.h)"
TEAM = "[t](http://t) *T*"
RAW = (
    "[z](",
    "**nobody**",
    "[a](https://x.y)",
    "**B**",
    "~~S~~",
    "`q`",
    "__G__",
    "||g||",
    "*hexed*",
    "[c](",
    "**Vex**",
    "[h](",
    "[t](",
)
"""Pieces of the names that must never reach Discord unescaped (each would render as a link or formatting)."""


def texts(message: Any) -> Iterable[str]:
    """Everything Discord renders as markdown in a message: content and every embed's texts."""
    yield getattr(message, "content", "") or ""
    for embed in getattr(message, "embeds", []) or []:
        data = embed.to_dict() if isinstance(embed, discord.Embed) else embed
        yield str(data.get("title", ""))
        yield str(data.get("description", ""))
        for field in data.get("fields", []):
            yield str(field.get("name", ""))
            yield str(field.get("value", ""))
        yield str((data.get("footer") or {}).get("text", ""))
        yield str((data.get("author") or {}).get("name", ""))


class Seen:
    """Every message the bot sent, checked for raw hostile names."""

    def __init__(self) -> None:
        self.count = 0
        self.raw: list[str] = []

    def check(self, where: str, message: Any) -> None:
        for text in texts(message):
            self.count += 1
            self.raw.extend(f"{where}: {raw!r} shown raw in {text!r}" for raw in RAW if raw in text)

    def result(self, where: str, result: InteractionResult) -> InteractionResult:
        for message in [result.response, *result.followups]:
            if message is not None:
                self.check(where, message)
        return result


async def test_every_reply_and_embed_shows_hostile_names_literally(table: Table) -> None:
    """ "Every name is escaped wherever it is shown. Today /turn skip combatant: renders a creature
    named `[a](https://x.y) **B**` as a link and bold text. One test renders every reply and embed with a
    markdown-hostile name and asserts the name shows literally." """
    seen = Seen()
    director, alice, channel = table.director, table.alice, table.channel
    await table.configure_director_role()

    async def run(actor: Any, command: str, **options: Any) -> InteractionResult:
        return seen.result(command, await actor.slash(channel, command, **options))

    kit.ok(
        await run(
            director, "hero create", name=HERO, stamina=20, recoveries=3, resource="~~fury~~", player=alice
        )
    )
    await run(alice, "hero show", hero=HERO)
    await run(alice, "hero show")
    await run(director, "encounter start", name=HOSTILE)
    await run(director, "encounter hero", name=HERO)
    await run(director, "encounter add", name=HOSTILE, stamina=10, side="director", group=GROUP)
    await run(director, "encounter add", name="Rat", stamina=4, side="director", count=3, squad=SQUAD)
    await run(director, "encounter add", name="Goblin", stamina=8, side="director", count=2)
    await run(director, "encounter surprise", combatants=HOSTILE)
    # refusals quote names too: a name taken, a name unknown
    kit.refused(await run(director, "encounter add", name=HOSTILE, stamina=10, side="director"))
    kit.refused(await run(director, "stamina damage", target="[z](http://z) **nobody**", amount=1))
    await run(director, "encounter begin", first="heroes")
    await run(director, "tokens award", count=3)
    await run(alice, "tokens show")
    await run(alice, "turn act", combatant=HERO)
    await run(
        alice, "strike", targets=f"{HOSTILE}, {SQUAD}", damage="3/5/7", effect="**pushed** [x](http://x)"
    )
    await run(director, "stamina damage", target=HOSTILE, amount=2)
    await run(director, "stamina heal", target=HOSTILE, amount=1)
    await run(director, "stamina temp", target=HERO, amount=2)
    await run(director, "stamina set", target=HOSTILE, amount=6)
    await run(director, "condition add", target=HOSTILE, condition="custom", text=CUSTOM, duration="save")
    await run(director, "condition add", target=HERO, condition="frightened", source=HOSTILE)
    await run(director, "save", target=HOSTILE)
    await run(alice, "tokens spend", use="surges", hero=HERO)
    await run(alice, "turn end")
    await run(director, "turn act", combatant=HOSTILE)
    await run(director, "turn end")
    await run(director, "turn skip", combatant=SQUAD)
    await run(director, "turn skip", combatant="Goblin 1")
    await run(director, "encounter status")
    await run(alice, "recover")
    await run(director, "encounter undo")
    await run(director, "malice gain", amount=2)
    await run(director, "malice show")
    await run(alice, "victories")
    await run(director, "encounter remove", name=SQUAD)
    await run(director, "encounter remove", name=HOSTILE)
    confirm = await run(director, "encounter end")
    assert confirm.response is not None
    end_id = confirm.response.components[0]["components"][0]["custom_id"]
    seen.result("encounter end", await director.click(confirm.response, custom_id=end_id))

    await run(director, "encounter start", mode="teams", name="Arena", teams=f"{TEAM}, Blue")
    await run(director, "encounter add", name=HOSTILE, stamina=5, side=TEAM)
    await run(director, "encounter add", name="Bluey", stamina=5, side="Blue")
    await run(director, "encounter begin", first=TEAM)
    await run(director, "turn skip", combatant=HOSTILE)
    await run(director, "turn skip")

    for message in channel.history():
        seen.check(f"channel message {message.id}", message)
    assert seen.count > 100
    assert seen.raw == [], "\n".join(seen.raw)


async def test_names_differing_only_by_invisible_characters_are_one_name(table: Table) -> None:
    """ "names compare by one key (NFKC, casefold, invisibles removed), so `Ash` and `Ash`
    followed by a zero-width space are the same name" (heroes, creatures, teams)."""
    director, channel = table.director, table.channel
    kit.ok(await director.slash(channel, "hero create", name="Ash", stamina=20, recoveries=3))
    refused = await director.slash(channel, "hero create", name="Ash\u200b", stamina=20, recoveries=3)
    assert "already a hero named" in kit.refused(refused)
    refused = await director.slash(channel, "hero create", name="\u200b\u2060", stamina=9, recoveries=1)
    assert "empty" in kit.refused(refused)

    await kit.start(table)
    kit.ok(await director.slash(channel, "encounter add", name="Ogre", stamina=30, side="director"))
    refused = await director.slash(channel, "encounter add", name="\u202eogre", stamina=30, side="director")
    assert "already in this encounter" in kit.refused(refused)
    kit.ok(await director.slash(channel, "stamina damage", target="Ogre\u200b", amount=5))
    assert (await kit.stored(table)).creature("Ogre").vitals.stamina == 25

    refused = await director.slash(table.thread, "encounter start", mode="teams", teams="Red, Red\u200b")
    assert "different name" in kit.refused(refused)


def test_inert_names_escapes_only_the_names_quoted() -> None:
    line = "No creature named '[a](b) **c**' in this encounter (see /encounter status); Ogre is fine."
    shown = inert_names(line, ["[a](b) **c**", "Ogre", ""])
    escaped = "\\[a\\]\\(b\\) \\*\\*c\\*\\*"
    assert shown == line.replace("[a](b) **c**", escaped)
    assert inert_names(line, ["Ogre"]) == line
