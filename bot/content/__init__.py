"""Game content the table brings: abilities, Forge Steel imports, the bestiary.

Pure code like the rules core (`bot/rules/`): dataclasses and functions, no discord, no I/O. The exts read
uploaded files and call in here; what comes out is stored through the store like any other state.
"""

CREATOR_LICENSE = (
    "This is an independent product published under the DRAW STEEL Creator License and is not affiliated "
    "with MCDM Productions, LLC. DRAW STEEL © 2024 MCDM Productions, LLC."
)
"""The licence line for the game content the bot repeats from uploaded files (README and /help show it)."""
