"""Bounded exhaustive walks of the engine's moves, watched by monitors written from the rule
text (see :mod:`omen_solver.omens.proofs`)."""
