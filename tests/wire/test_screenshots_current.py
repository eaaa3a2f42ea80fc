"""The README's screenshots show what the bot sends today.

Each picture in docs/screenshots has its text beside it (`<name>.txt`: the messages, embeds and buttons it
shows). This runs the screenshot session again (tools/take_screenshots.py: the production bot against the
fake Discord, seeded dice) and compares: a message that changed makes its picture stale, and this fails
until the pictures are taken again.
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path

from tools.take_screenshots import OUT, record, texts

REFRESH = (
    "The README's screenshots no longer show what the bot sends: take them again with `make screenshots` "
    "(the pictures and these texts; needs Chromium), or rewrite only the texts with `make screenshot-texts` "
    "(`python tools/take_screenshots.py --text-only`: no Chromium), and commit docs/screenshots/."
)


def _diff(name: str, committed: str, today: str) -> str:
    lines = difflib.unified_diff(
        committed.splitlines(keepends=True),
        today.splitlines(keepends=True),
        fromfile=f"docs/screenshots/{name}.txt (committed)",
        tofile=f"docs/screenshots/{name}.txt (what the bot sends today)",
    )
    return "".join(lines)


async def test_the_screenshot_texts_match_what_the_bot_sends(tmp_path: Path) -> None:
    today = texts(await record(tmp_path))
    assert today, "the screenshot session shows no picture"
    stale = []
    for name, text in today.items():
        path = OUT / f"{name}.txt"
        committed = path.read_text() if path.exists() else ""
        if committed != text:
            stale.append(_diff(name, committed, text))
    assert not stale, REFRESH + "\n\n" + "\n".join(stale)


def test_each_text_has_its_picture() -> None:
    """A text without its picture (or the other way round) means the screenshots were half refreshed."""
    pictures = {p.stem for p in OUT.glob("*.png")}
    assert pictures == {p.stem for p in OUT.glob("*.txt")} != set()


def test_each_picture_is_shown_in_the_docs_and_each_link_finds_its_picture() -> None:
    """A picture no page links is never seen; a link to a picture that was renamed shows nothing."""
    root = OUT.parents[1]
    pages = [root / "README.md", *sorted((root / "docs").glob("*.md"))]
    linked = set()
    for page in pages:
        for target in re.findall(r"\]\(((?:docs/)?screenshots/[^)]+)\)", page.read_text()):
            path = (page.parent / target).resolve()
            assert path.exists(), f"{page.name} links {target}, which is not there"
            linked.add(path.stem)
    unlinked = {p.stem for p in OUT.glob("*.png")} - linked
    assert not unlinked, f"no page links these pictures: {sorted(unlinked)}"
