"""Machine-checked rule interactions for Omens (``docs/proofs.md``).

* :mod:`~omen_solver.omens.smt.symbols`: card facts and rule options as z3 terms;
* :mod:`~omen_solver.omens.smt.bout`: the end of a bout, read from the rulebook;
* :mod:`~omen_solver.omens.smt.hands`: cards back to hand, Luck's discard, the end of a round;
* :mod:`~omen_solver.omens.smt.broken`: deliberately wrong rules, to show proofs are not vacuous;
* :mod:`~omen_solver.omens.smt.theorem`: theorems, the runner and counterexample positions.
"""
