"""Tools for the project's own development, kept out of the installed package: the engine
mutants (``python -m tools.mutants``: the proofs' detectors; ``python -m tools.vector_score``:
the conformance vectors' mutation score). Run them from the project folder."""
