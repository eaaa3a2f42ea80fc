"""Shared rendering helpers for cogs: embeds that always fit Discord's limits (`bot.ui.embeds`)."""
