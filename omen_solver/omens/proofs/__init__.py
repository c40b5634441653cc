"""Machine-checked rule interactions for Omens (``docs/proofs.md``).

The whole-bout model, written once over two term algebras:

* :mod:`~omen_solver.omens.proofs.ops`: Python ints or z3 bit-vectors, one vocabulary;
* :mod:`~omen_solver.omens.proofs.deck`: card facts as bit masks, read from the catalogue;
* :mod:`~omen_solver.omens.proofs.play`: a bout's placements, every immediate effect, the end of
  the bout and of the round, read from the rulebook;
* :mod:`~omen_solver.omens.proofs.whole`, :mod:`~omen_solver.omens.proofs.steps`: concrete runs and
  symbolic builds (from any well-formed state, or from a bout's start);
* :mod:`~omen_solver.omens.proofs.observe`, :mod:`~omen_solver.omens.proofs.agreement`: the engine
  observed in the model's terms, and the differential comparison;
* :mod:`~omen_solver.omens.proofs.bout_theorem`: theorems over the whole bout;
* :mod:`~omen_solver.dev.mutants`: engine mutants against the detectors.

The end-of-bout model with card values as integers (the card-interaction theorems):

* :mod:`~omen_solver.omens.proofs.symbols`, :mod:`~omen_solver.omens.proofs.bout`,
  :mod:`~omen_solver.omens.proofs.hands`, :mod:`~omen_solver.omens.proofs.broken`;
* :mod:`~omen_solver.omens.proofs.theorem`: theorems, the runner and counterexample positions.
"""
