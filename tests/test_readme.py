"""The README's first steps work in order: the bot is made, given its token and invited before
`make run`; the invite URL's permission integer is the sum of the permissions the README lists, each the bit
discord.py knows by that name."""

from __future__ import annotations

import re
from pathlib import Path

import discord

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()


def _permissions() -> dict[str, int]:
    """The permission table of the first steps: name -> value."""
    rows = re.findall(r"^\s*\| ([A-Z][A-Za-z ]+?) \| [^|]+ \| 1 << (\d+) \| (\d+) \|$", README, re.MULTILINE)
    assert rows, "no permission table in the README"
    table = {}
    for name, bit, value in rows:
        assert int(value) == 1 << int(bit), name
        table[name] = int(value)
    return table


def test_setting_up_comes_before_the_two_commands() -> None:
    steps = README.index("## First steps")
    make = README.index("make run     #")
    assert steps < README.index("cp .env.example .env") < README.index("oauth2/authorize") < make
    assert README.index("make check") > make


def test_the_invite_url_carries_the_sum_of_the_listed_permissions() -> None:
    table = _permissions()
    for name, value in table.items():
        flag = name.lower().replace(" ", "_")
        assert discord.Permissions(**{flag: True}).value == value, name
    [url] = re.findall(r"https://discord\.com/oauth2/authorize\?\S+?permissions=(\d+)", README)
    assert int(url) == sum(table.values())
    assert "scope=bot+applications.commands" in README
    # the older servers' integer: the same without Pin Messages, with Manage Messages
    older = (
        sum(v for k, v in table.items() if k != "Pin Messages")
        | discord.Permissions(manage_messages=True).value
    )
    assert f"permissions={older}" in README
