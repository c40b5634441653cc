"""Conformance vectors for other engines (docs/vectors.md).

``omens_record`` / ``omen_record`` write a played line down as a vector; ``omens_mine`` /
``omen_mine`` choose the lines (printed examples, option witnesses, a coverage-driven
enumeration); ``perft_suites`` counts the perft suites; ``export`` writes the files of
``vectors/`` with their schemas (``schemas``, ``jsonfile``), each game's built by its own
module (``omens_export``, ``omen_export``); ``views`` and ``publish`` register each game's
part (the generic modules name no game); ``protocol``, ``engine`` and
``runner`` drive any engine through them over JSON lines; ``cli`` is ``omen-solver vectors``.
"""
