"""`/dice expression`: roll any dice expression (3d6+2, 1d3, d100, 4d6kh3) and show the breakdown and total.

The parsing and rolling are the rules core's (`bot.rules.dice.roll_expression`, draw-steel-basics.md, "Dice");
this cog only reads the option, rolls with the bot's dice and renders the result.
"""

from __future__ import annotations

from typing import Any, ClassVar, Protocol

import discord
from discord import app_commands
from discord.ext import commands

import bot.rules.dice as rules_dice
from bot.client import DrawSteelBot
from bot.replies import fail, inert, send
from bot.rules.errors import RuleError
from cogs.meta import HelpEntry

HINT = "Try /dice 3d6+2, 1d3, d100 or 4d6kh3."
MAX_EXPRESSION = 100


class Rolled(Protocol):
    """What `roll_expression` returns: a total and a readable breakdown."""

    @property
    def total(self) -> int: ...


def roll(dice: rules_dice.Dice, expression: str) -> Rolled:
    """Roll `expression`; a one-line `UserError` naming what to type when it is not a dice expression."""
    roll_expression: Any = getattr(rules_dice, "roll_expression", None)
    if roll_expression is None:
        fail("Dice expressions are not available yet.")
    try:
        result: Rolled = roll_expression(dice, expression)
    except RuleError as error:
        message = str(error).rstrip()
        if "/dice" not in message:
            message = f"{message.rstrip('.')}. {HINT}" if message else f"I can't roll that. {HINT}"
        fail(message)
    return result


def breakdown(result: Rolled) -> str:
    text = getattr(result, "breakdown", None)
    return str(text) if text is not None else str(result)


def render(expression: str, result: Rolled) -> str:
    """`**3d6+2**: [4, 1, 6] + 2 = **13**` — the user's text made inert, then the breakdown and total."""
    return f"🎲 **{inert(expression)}**: {breakdown(result)} = **{result.total}**"


class Dice(commands.Cog):
    """Free-form dice rolls."""

    help_entries: ClassVar[tuple[HelpEntry, ...]] = (
        HelpEntry("dice", "/dice 3d6+2", "Roll any dice: 3d6+2, 1d3, d100, 4d6kh3."),
    )

    def __init__(self, bot: DrawSteelBot) -> None:
        self.bot = bot

    @app_commands.command(name="dice", description="Roll dice, e.g. 3d6+2, 1d3, d100 or 4d6kh3.")
    @app_commands.describe(expression="What to roll, e.g. 3d6+2, 1d3, d100 or 4d6kh3")
    @app_commands.guild_only()
    async def dice(
        self,
        interaction: discord.Interaction[Any],
        expression: app_commands.Range[str, 1, MAX_EXPRESSION],
    ) -> None:
        text = expression.strip()
        if not text:
            fail(f"Type a dice expression. {HINT}")
        await send(interaction, content=render(text, roll(self.bot.dice, text)))


async def setup(bot: DrawSteelBot) -> None:
    await bot.add_cog(Dice(bot))
