"""`/dice expression`: roll any dice expression (3d6+2, 1d3, d100, 4d6kh3) and show the breakdown and total.

The parsing and rolling are the rules core's (`bot.rules.dice.roll_expression`, Draw Steel, The Basics,
"Dice"); this cog only reads the option, rolls with the bot's dice and renders the result.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.client import BotCog, DrawSteelBot
from bot.replies import fail, send
from bot.rules.dice import DiceRoll, roll_expression

HINT = "Try /dice 3d6+2, 1d3, d100 or 4d6kh3."
MAX_EXPRESSION = 100


def _code(text: str) -> str:
    """Inline code that cannot be broken out of (backticks in the text become quotes)."""
    return "`" + text.replace("`", "'") + "`"


def render(result: DiceRoll) -> str:
    """`🎲 `3d6+2` → `3d6 [4, 1, 6] +2` = **13**` (dropped dice in parentheses)."""
    steps = result.breakdown
    suffix = f" = {result.total}"
    if steps.endswith(suffix):
        steps = steps[: -len(suffix)]
    return f"🎲 {_code(result.expression)} → {_code(steps)} = **{result.total}**"


class Dice(BotCog):
    """Free-form dice rolls."""

    @app_commands.command(name="dice", description="Roll dice, e.g. 3d6+2, 1d3, d100 or 4d6kh3.")
    @app_commands.guild_only()
    async def dice(
        self,
        interaction: discord.Interaction[Any],
        expression: app_commands.Range[str, 1, MAX_EXPRESSION],
    ) -> None:
        """Roll any dice: 3d6+2, 1d3, d100, 4d6kh3.

        Example: /dice 3d6+2

        Args:
            expression: What to roll, e.g. 3d6+2, 1d3, d100 or 4d6kh3
        """
        if not expression.strip():
            fail(f"Type a dice expression. {HINT}")
        # A bad expression raises DiceExpressionError (a RuleError): the error hook shows its one line.
        await send(interaction, content=render(roll_expression(self.bot.dice, expression)))


async def setup(bot: DrawSteelBot) -> None:
    await bot.add_cog(Dice(bot))
