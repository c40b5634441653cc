"""Tools for the library's own development (the engine mutation run); not part of the public API."""
