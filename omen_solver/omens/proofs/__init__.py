"""Machine-checked rule interactions for Omens (``docs/proofs.md``).

Folders by what they hold:

* :mod:`~omen_solver.omens.proofs.model`: **the symbolic model of a bout**, one program written
  once over two term algebras (Python ints, z3 bit-vectors):

  * ``ops``: the two algebras, one vocabulary; ``deck``: card facts as bit masks, read from the
    catalogue; ``broken``: :class:`~omen_solver.omens.proofs.model.broken.Broken`, the one
    catalogue of deliberately wrong rules;
  * ``records``: what the model computes (a bout's inputs, state, placements, end);
    ``play``: :class:`~omen_solver.omens.proofs.model.play.BoutMachine`, the rules themselves
    (placements, every immediate effect, the end of the bout and of the round): **where a rule
    lives in the symbolic model**;
  * ``runs``: a bout played on Python values, and the rule options' vocabulary;
    ``symbolic``: the z3 builds theorems are proved on (from any well-formed state, or from a
    bout's start; one exchange of The Absolute for the induction over the exchanges).

* :mod:`~omen_solver.omens.proofs.theorems`: **the theorems and their runner**: ``theorem``
  (what a theorem is), ``bout_theorem`` (z3 theorems over the model and the search for
  replayable counterexamples), ``runner`` (checking a theorem and its variants), ``library``
  (loading the theorem files of ``proofs/``).
* :mod:`~omen_solver.omens.proofs.enumeration`: **the bounded enumeration** of the engine's
  moves (``walk``) and the monitors written from the rule text (``monitors``).
* :mod:`~omen_solver.omens.proofs.observe`: **the observers**: the engine watched through its
  observer argument (``OmensState.child(move, observer=...)``) and recorded in the model's terms.
* :mod:`~omen_solver.omens.proofs.counterexamples`: **counterexamples** as position files.
* :mod:`~omen_solver.omens.proofs.agreement`: **the differential agreement** of the model and
  the engine (random bouts, every small set of cards at the end of a bout).

The engine mutants that measure all of this are made by ``tools/mutants.py``, a development
tool outside the package.
"""
