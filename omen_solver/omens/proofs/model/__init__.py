"""The symbolic model of an Omens bout, written once over two term algebras (see
:mod:`omen_solver.omens.proofs`)."""
