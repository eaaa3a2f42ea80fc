"""Shared rendering helpers for exts: embeds that always fit Discord's limits (`bot.embeds`)."""
