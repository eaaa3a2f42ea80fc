"""Forge Steel exports (github.com/andyaiken/forgesteel): heroes, monsters, monster groups and encounters
read from the files users upload. Pure: bytes in, the bot's own dataclasses out."""
