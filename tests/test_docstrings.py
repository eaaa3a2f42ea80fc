"""Module docstrings say what a module is for in a few lines, and rules are cited by book and section.

A module's design belongs in docs/architecture.md, and a rule's text on the function that applies it
(`MAX_MODULE_LINES`). The rules texts the bot was built from are cited by their book and section
("Draw Steel, Combat, "Dying and Death""), never by the name of a file outside the repository.
"""

from __future__ import annotations

import ast
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_MODULE_LINES = 8
PACKAGES = ("bot", "exts")
RULES_FILE = re.compile(
    r"\b(draw-steel-(basics|combat|turn-order)|teams-combat|fast-slow-turns-combat|montage-and-negotiation)"
    r"\.(md|txt)\b"
)
TEXT_SUFFIXES = (".py", ".md", ".toml", ".txt", ".cfg", ".ini", ".yml", ".yaml")


def _modules() -> Iterator[Path]:
    for package in PACKAGES:
        yield from sorted(p.relative_to(ROOT) for p in (ROOT / package).rglob("*.py"))


def docstring_lines(source: str) -> int:
    """How many lines a module's docstring spans, from its first line of text to its last."""
    text = ast.get_docstring(ast.parse(source), clean=False)
    return 0 if not text else text.strip("\n").count("\n") + 1


def _tracked_text() -> Iterator[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split("\0")
    for name in listed:
        if name.endswith(TEXT_SUFFIXES) or name in ("Makefile", "README.md"):
            yield Path(name)


def test_the_measures_read_what_they_should() -> None:
    """The walk reads the bot's modules; a long docstring is measured as long, and a file name is caught
    where a book and section are not (a walk of nothing, or a pattern that matches nothing, passes all)."""
    assert Path("bot/rules/power.py") in list(_modules())
    long = '"""One.\n\n' + "\n".join(f"Line {n}." for n in range(MAX_MODULE_LINES)) + '\n"""\nX = 1\n'
    assert docstring_lines(long) == MAX_MODULE_LINES + 2
    assert docstring_lines('"""One line."""\n') == 1
    assert RULES_FILE.search('(draw-steel-combat.txt "Dying and Death")')
    assert not RULES_FILE.search('(Draw Steel, Combat, "Dying and Death")')
    assert Path("bot/rules/power.py") in list(_tracked_text())


def test_module_docstrings_are_short() -> None:
    over = []
    for module in _modules():
        lines = docstring_lines((ROOT / module).read_text(encoding="utf-8"))
        if lines > MAX_MODULE_LINES:
            over.append(f"{module} ({lines} lines)")
    assert not over, (
        f"Module docstrings over {MAX_MODULE_LINES} lines: say what the module is for, put the rules on "
        "their functions and the design in docs/architecture.md: " + "; ".join(over)
    )


def test_rules_are_cited_by_book_and_section() -> None:
    here = Path(__file__).relative_to(ROOT)
    cited = []
    for path in _tracked_text():
        if path == here or not (ROOT / path).is_file():
            continue
        for number, line in enumerate((ROOT / path).read_text(encoding="utf-8").splitlines(), 1):
            if RULES_FILE.search(line):
                cited.append(f"{path}:{number}")
    assert not cited, "Cite the book and section, not a rules file: " + ", ".join(cited)
