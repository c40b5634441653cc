"""Surveys over many random Omens deals, and advice for a player who sees only their own hand.

* :mod:`omen_solver.survey.deals`: seeded random deals (one Absolute per player, as at a game
  start) of any hand size;
* :mod:`omen_solver.survey.exact`: the one place that calls the exact solver;
* :mod:`omen_solver.survey.analysis`: what is measured on one deal;
* :mod:`omen_solver.survey.runner`: many deals on Dask, streamed to a JSON-lines file;
* :mod:`omen_solver.survey.report`: the tables and plots;
* :mod:`omen_solver.survey.advice`: perfect-information Monte Carlo over the deals a seat
  cannot tell apart (``docs/survey.md``, ``docs/advice.md``).
"""
