"""The bestiary over the wire: the production bot (in-process) against the loopback fake Discord, which
serves the uploaded files at the attachment URLs it puts in the interaction's resolved data ("Download the
attachment from the URL in the interaction's resolved attachment, whatever its host")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.content.forgesteel_files import invented_bytes
from tests.wire.fake_discord import EPHEMERAL, FakeDiscord, Json
from tests.wire.in_process_kit import WITHIN, running


def _command(sub: str, files: dict[str, tuple[str, bytes]], fake: FakeDiscord) -> tuple[list[Json], Json]:
    """A subcommand's options with attachment options, and the resolved data that carries them."""
    attachments = {}
    options: list[Json] = []
    for option, (filename, data) in files.items():
        attachment = fake.upload(filename, data)
        attachments[attachment["id"]] = attachment
        options.append({"name": option, "type": 11, "value": attachment["id"]})
    return [{"name": sub, "type": 1, "options": options}], {"attachments": attachments}


async def _run(fake: FakeDiscord, name: str, sub: str, **files: tuple[str, bytes]) -> Json:
    options, resolved = _command(sub, files, fake)
    sent = await fake.slash(name, raw_options=options, resolved=resolved, user=fake.member("owner"))
    deferred = await fake.wait_for_callback(sent, within=WITHIN)
    assert deferred.json["type"] == 5  # "thinking…" while the file is read
    (reply,) = await fake.wait_for_followup(sent, within=WITHIN, count=1)
    return reply


def _file(name: str) -> tuple[str, bytes]:
    return name, invented_bytes(name)


async def test_boglings_imported_then_the_bog_ambush(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with running(tmp_path, monkeypatch) as fake:
        reply = await _run(fake, "monster", "import", file=_file("Bogling.ds-monster-group"))
        assert reply["content"].startswith("📖 Bestiary (Bogling): added Bogling Slinger, Bogling Cleaver")
        started = await fake.slash(
            "encounter",
            raw_options=[{"name": "start", "type": 1, "options": []}],
            user=fake.member("owner"),
        )
        await fake.wait_for_callback(started, within=WITHIN)
        reply = await _run(fake, "encounter", "import", file=_file("Bog Ambush.ds-encounter"))
        assert reply["content"].startswith("📥 **Bog Ambush**")
        assert "as the squad **Bogling Slinger squad**\n" in reply["content"]
        assert fake.downloads == list(fake.uploads)  # each file read once, from its attachment URL
        assert fake.unknown_routes == []


@pytest.mark.parametrize(
    ("command", "upload", "said"),
    [
        ("monster", "Brannoc.ds-hero", "That's a Forge Steel hero (use /hero import for it)"),
        ("hero", "Bogling Slinger.ds-monster", "That's a Forge Steel monster (use /monster import for it)"),
    ],
)
async def test_a_file_of_the_other_kind_is_refused_privately(
    command: str, upload: str, said: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with running(tmp_path, monkeypatch) as fake:
        reply: Any = await _run(fake, command, "import", file=_file(upload))
        assert int(reply["flags"]) & EPHEMERAL
        assert reply["content"].startswith(said) and "\n" not in reply["content"]
