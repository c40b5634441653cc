"""Machine-checked rule interactions for Omens (``docs/proofs.md``).

The whole-bout model, written once over two term algebras:

* :mod:`~omen_solver.omens.smt.ops`: Python ints or z3 bit-vectors, one vocabulary;
* :mod:`~omen_solver.omens.smt.deck`: card facts as bit masks, read from the catalogue;
* :mod:`~omen_solver.omens.smt.play`: a bout's placements, every immediate effect, the end of
  the bout and of the round, read from the rulebook;
* :mod:`~omen_solver.omens.smt.whole`, :mod:`~omen_solver.omens.smt.steps`: concrete runs and
  symbolic builds (from any well-formed state, or from a bout's start);
* :mod:`~omen_solver.omens.smt.observe`, :mod:`~omen_solver.omens.smt.agreement`: the engine
  observed in the model's terms, and the differential comparison;
* :mod:`~omen_solver.omens.smt.bout_theorem`: theorems over the whole bout;
* :mod:`~omen_solver.omens.smt.mutants`: engine mutants against the detectors.

The end-of-bout model with card values as integers (the card-interaction theorems):

* :mod:`~omen_solver.omens.smt.symbols`, :mod:`~omen_solver.omens.smt.bout`,
  :mod:`~omen_solver.omens.smt.hands`, :mod:`~omen_solver.omens.smt.broken`;
* :mod:`~omen_solver.omens.smt.theorem`: theorems, the runner and counterexample positions.
"""
