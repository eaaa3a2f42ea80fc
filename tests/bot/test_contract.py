"""The command contract: names, options and choices other tools and players' habits rely on.

Read from the JSON the bot syncs to Discord (what a client sees), so a renamed option fails here first.
"""

from __future__ import annotations

from typing import Any

import pytest
from simcord.env import Env

from bot.client import DrawSteelBot

SUBCOMMAND, GROUP = 1, 2

#: command -> options it must have (more are fine).
CONTRACT: dict[str, set[str]] = {
    "roll": {
        "bonus",
        "characteristic",
        "edges",
        "banes",
        "auto_tier",
        "kind",
        "difficulty",
        "tiers",
        "label",
        "hidden",
    },
    "dice": {"expression"},
    "strike": {"targets", "damage", "type", "attacker", "bonus", "edges", "banes", "surges", "effect"},
    "encounter start": {"mode", "name"},
    "encounter add": {
        "name",
        "stamina",
        "side",
        "player",
        "count",
        "squad",
        "group",
        "turns",
        "characteristics",
        "immunity",
        "weakness",
        "recoveries",
        "can_be_surprised",
    },
    "encounter hero": set(),
    "encounter remove": set(),
    "encounter surprise": {"combatants"},
    "encounter begin": {"first"},
    "encounter status": set(),
    "encounter undo": set(),
    "encounter log": set(),
    "encounter end": set(),
    "turn act": {"combatant"},
    "turn end": set(),
    "turn skip": set(),
    "stamina damage": {"target", "amount", "type"},
    "stamina heal": {"target", "amount"},
    "stamina temp": {"target", "amount"},
    "stamina set": {"target", "amount"},
    "stamina wake": {"target"},
    "stamina bleed": {"target", "trigger"},
    "move slam": {"target", "squares_left", "into", "other", "material", "thickness"},
    "recover": set(),
    "condition add": {"target", "condition", "duration"},
    "condition remove": {"target", "condition"},
    "save": {"target"},
    "tokens show": set(),
    "tokens award": set(),
    "tokens spend": {"use", "hero"},
    "tokens reset": set(),
    "malice show": set(),
    "malice gain": set(),
    "malice spend": set(),
    "hero create": set(),
    "hero edit": set(),
    "hero show": set(),
    "hero claim": set(),
    "respite": set(),
    "victories": set(),
    "settings": set(),
    "help": set(),
}

#: (command, option) -> choice values it must offer.
CHOICES: dict[tuple[str, str], set[str]] = {
    ("roll", "characteristic"): {"might", "agility", "reason", "intuition", "presence"},
    ("roll", "kind"): {"ability", "test"},
    ("roll", "difficulty"): {"easy", "medium", "hard"},
    ("encounter start", "mode"): {"draw-steel", "agility", "teams", "fast-slow"},
    ("condition add", "duration"): {"eot", "save", "encounter", "until-removed"},
    ("tokens spend", "use"): {"surges", "save", "reroll", "regain"},
    ("move slam", "into"): {"creature", "object"},
    ("move slam", "material"): {"glass", "wood", "stone", "metal"},
}


def synced(bot: DrawSteelBot) -> dict[str, list[dict[str, Any]]]:
    """Every invokable command's qualified name -> its options, from the JSON Discord receives."""
    out: dict[str, list[dict[str, Any]]] = {}

    def walk(payload: dict[str, Any], prefix: str) -> None:
        name = f"{prefix} {payload['name']}".strip()
        options = payload.get("options") or []
        subs = [o for o in options if o["type"] in (SUBCOMMAND, GROUP)]
        if not subs:
            out[name] = options
        for sub in subs:
            walk(sub, name)

    for command in bot.tree.get_commands():
        walk(command.to_dict(bot.tree), "")
    return out


@pytest.fixture
def commands(simcord_env: Env) -> dict[str, list[dict[str, Any]]]:
    bot = simcord_env.bot
    assert isinstance(bot, DrawSteelBot)
    return synced(bot)


async def test_every_contract_command_and_option_exists(commands: dict[str, list[dict[str, Any]]]) -> None:
    missing = {name for name in CONTRACT if name not in commands}
    assert not missing, f"commands missing: {sorted(missing)}"
    for name, options in CONTRACT.items():
        have = {o["name"] for o in commands[name]}
        assert options <= have, f"/{name} lacks {sorted(options - have)}"


async def test_contract_choices(commands: dict[str, list[dict[str, Any]]]) -> None:
    for (name, option), values in CHOICES.items():
        (declared,) = [o for o in commands[name] if o["name"] == option]
        offered = {c["value"] for c in declared.get("choices") or []}
        assert values <= offered, f"/{name} {option} lacks {sorted(values - offered)}"


async def test_strike_targets_autocomplete(commands: dict[str, list[dict[str, Any]]]) -> None:
    (targets,) = [o for o in commands["strike"] if o["name"] == "targets"]
    assert targets.get("autocomplete") is True
    (combatant,) = [o for o in commands["turn act"] if o["name"] == "combatant"]
    assert combatant.get("autocomplete") is True


async def test_every_option_is_described(commands: dict[str, list[dict[str, Any]]]) -> None:
    """Each option's description comes from its command's docstring (`Args:`); one it misses shows
    discord.py's placeholder "…" to players."""
    bare = [
        f"/{name} {o['name']}"
        for name, options in commands.items()
        for o in options
        if o["description"] == "…"
    ]
    assert not bare, f"options without a description: {bare}"
