"""The pure Draw Steel rules core: no discord, no I/O, randomness injected."""
