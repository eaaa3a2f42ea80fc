"""Draw Steel combat bot for Discord."""
