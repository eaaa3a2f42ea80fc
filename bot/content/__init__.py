"""Game content the table brings: abilities, Forge Steel imports, the bestiary.

Pure code like the rules core (`bot/rules/`): dataclasses and functions, no discord, no I/O. The cogs read
uploaded files and call in here; what comes out is stored through the store like any other state.
"""
