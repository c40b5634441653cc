"""The Omens search kernel: the same rules as the explaining engine on a compact state."""
