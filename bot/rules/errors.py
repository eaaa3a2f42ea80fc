"""Typed rule errors. Each message is one line a player can act on."""

from __future__ import annotations


class RuleError(ValueError):
    """A request the rules refuse; `str(error)` says what to do instead."""
