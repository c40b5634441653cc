"""Theorems about the rules of Omens, their broken variants, loading and running them (see
:mod:`omen_solver.omens.proofs`)."""
