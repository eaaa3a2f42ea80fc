"""/hero import over the wire: the production bot (in-process) against the loopback fake Discord, which serves
the uploaded hero at the attachment URL it puts in the interaction's resolved data ("Download
the attachment from the URL in the interaction's resolved attachment, whatever its host"; "Defer the
interaction while reading the file")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.wire.in_process_kit import running
from tests.wire.test_bestiary_wire import _file, _run


async def test_a_hero_is_imported_with_the_sheet_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with running(tmp_path, monkeypatch) as fake:
        reply: Any = await _run(fake, "hero", "import", file=_file("Brannoc.ds-hero"))
        assert reply["content"] == "Brannoc joins the roster from Forge Steel. Stamina: 30/30"
        (embed,) = reply["embeds"]
        fields = {f["name"]: f["value"] for f in embed["fields"]}
        assert fields["Recoveries"] == "10/10 (recovery value 10)"  # the field's name says it once
        assert fields["Abilities (5)"].startswith("**Main action**: Crushing Blow (Signature)")
        assert "Cairn Sense" in fields["Not used"]
        assert fake.downloads == list(fake.uploads)  # read once, from its attachment URL
