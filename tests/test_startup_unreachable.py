"""Starting with Discord out of reach prints one line, not a traceback ("An unreachable Discord
at start gives one line, not a 70-line traceback"). `python -m bot` runs for real, pointed at a loopback port
nobody listens on."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.unreachable-token_0123456789abcdef"
ROOT = Path(__file__).resolve().parents[1]


def closed_port() -> int:
    """A loopback port that was free a moment ago (bound, then released: nobody listens there)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_an_unreachable_discord_gives_one_line_and_exit_2(tmp_path: Path) -> None:
    port = closed_port()
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "DISCORD_TOKEN": TOKEN,
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/bot.db",
        "DISCORD_API_BASE": f"http://127.0.0.1:{port}/api/v10",
        "DISCORD_GATEWAY_URL": f"ws://127.0.0.1:{port}/gateway",
        "LOG_LEVEL": "WARNING",
        "DEV_GUILD_ID": "",
        "SHARD_COUNT": "",
        "SHARD_IDS": "",
    }
    done = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("error: Discord can't be reached (") and "network connection" in lines[0]
    assert TOKEN not in done.stderr + done.stdout
