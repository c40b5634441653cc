"""Surveys of the positions seeded Omens games reach, balance by self-play, and advice for a
player who sees only their own hand (``docs/survey.md``, ``docs/advice.md``).

* :mod:`omen_solver.survey.deals`: a surveyed position written as a position file (the deals
  themselves come from :func:`omen_solver.omens.deals.draw_deal`);
* :mod:`omen_solver.survey.policies` and :mod:`omen_solver.survey.play`: how seats play a deal
  forward, and to which position;
* :mod:`omen_solver.survey.exact`: the one place that calls the exact solver;
* :mod:`omen_solver.survey.analysis`: what is measured on one deal;
* :mod:`omen_solver.survey.runner`: many deals on Dask, streamed to a JSON-lines file
  (:mod:`omen_solver.survey.store`);
* :mod:`omen_solver.survey.report`, :mod:`omen_solver.survey.plots`: the tables and plots;
* :mod:`omen_solver.survey.balance`: whole games by self-play;
* :mod:`omen_solver.survey.advice`: perfect-information Monte Carlo over the deals a seat
  cannot tell apart.
"""
