"""No function in the bot is over `MAX_LINES` lines: a long function is split into well-named steps.

A function's length runs from its `def` line to its last line, as the ast gives it, its decorators and
docstring left out (a command's docstring holds its `/help` line and its options' descriptions);
nested functions count on their own and inside the function that holds them. The migrations are exempt:
each is one generated script, read once, never changed.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_LINES = 60
PACKAGES = ("bot", "exts")
EXEMPT = (Path("bot/store/migrations/versions"),)


def _modules() -> Iterator[Path]:
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT)
            if not any(relative.is_relative_to(exempt) for exempt in EXEMPT):
                yield relative


def _docstring_lines(function: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    first = function.body[0]
    if ast.get_docstring(function) is None or first.end_lineno is None:
        return 0
    return first.end_lineno - first.lineno + 1


def _functions(node: ast.AST, prefix: str = "") -> Iterator[tuple[str, int]]:
    """Each function under `node`: its qualified name and its length in lines."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
            assert child.end_lineno is not None
            yield prefix + child.name, child.end_lineno - child.lineno + 1 - _docstring_lines(child)
            yield from _functions(child, f"{prefix}{child.name}.")
        elif isinstance(child, ast.ClassDef):
            yield from _functions(child, f"{prefix}{child.name}.")
        else:
            yield from _functions(child, prefix)


def _long_functions() -> list[tuple[Path, str, int]]:
    """Every function over `MAX_LINES`: its module, qualified name and length."""
    found: list[tuple[Path, str, int]] = []
    for module in _modules():
        tree = ast.parse((ROOT / module).read_text(encoding="utf-8"), filename=str(module))
        found += [(module, name, lines) for name, lines in _functions(tree) if lines > MAX_LINES]
    return found


def test_the_walk_finds_the_code() -> None:
    """The walk reads the bot's modules, and measures a function as long as it is (a walk of nothing, or one
    that measures wrong, would pass everything)."""
    modules = list(_modules())
    assert Path("bot/rules/encounter/strikes.py") in modules
    assert not any(m.is_relative_to(EXEMPT[0]) for m in modules)
    body = "\n".join(f"    x = {n}" for n in range(MAX_LINES))
    assert list(_functions(ast.parse(f"class C:\n  def f(self):\n{body}\n"))) == [("C.f", MAX_LINES + 1)]
    documented = f'def f():\n    """What f is for.\n\n    Args:\n        x: a number\n    """\n{body}\n'
    assert list(_functions(ast.parse(documented))) == [("f", MAX_LINES + 1)]


def test_no_function_over_the_limit() -> None:
    over = [f"{module}::{name} ({lines} lines)" for module, name, lines in _long_functions()]
    assert not over, f"Over {MAX_LINES} lines: split into named steps: " + "; ".join(over)
