"""The campaign a channel plays in, as one reply (/campaign show | join | leave). Channel mentions
(`<#id>`) never ping."""

from __future__ import annotations

from bot.store import CampaignInfo


def _count(number: int, one: str, many: str) -> str:
    return f"{number} {one if number == 1 else many}"


def campaign_text(info: CampaignInfo) -> str:
    """Where the channel's roster and hero tokens live, who shares them, and what is set aside."""
    here = f"<#{info.channel_id}>"
    home = f"<#{info.home_id}>"
    if info.home_id == info.channel_id:
        where = f"{here} plays in its own campaign"
    elif info.thread:
        where = f"{here} is a thread: it plays in {home}'s campaign"
    else:
        where = f"{here} plays in {home}'s campaign"
    lines = [
        f"{where}: {_count(info.heroes, 'hero', 'heroes')}, "
        f"{_count(info.tokens, 'hero token', 'hero tokens')}. Its threads share it."
    ]
    if info.members:
        lines.append("Channels that joined it: " + ", ".join(f"<#{m}>" for m in info.members) + ".")
    if info.own_heroes or info.own_tokens:
        lines.append(
            f"{here}'s own campaign ({_count(info.own_heroes, 'hero', 'heroes')}, "
            f"{_count(info.own_tokens, 'hero token', 'hero tokens')}) is set aside until /campaign leave."
        )
    return "\n".join(lines)
