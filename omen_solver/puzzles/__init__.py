"""Best-play puzzles: the puzzle file format and its check (any game), and the Omens
puzzle generators (stated constraints, deep puzzles from real deals, their depth)."""
