"""Argument types shared by the sub-commands: numbers are read as a person writes them."""

from __future__ import annotations

import argparse

from omen_solver.errors import shown

__all__ = ["MAX_DIGITS", "whole_number"]

MAX_DIGITS = 1000
"""Digits a number may have: past that, int() would spend its time on input no one means."""


def whole_number(text: str) -> int:
    """A whole number 0 or more, in ASCII digits only: int() would also read full-width digits
    such as "５"."""
    stripped = text.strip()
    if not (stripped.isascii() and stripped.isdigit()) or len(stripped) > MAX_DIGITS:
        raise argparse.ArgumentTypeError(f"{shown(text)} is not a whole number 0 or more")
    return int(stripped)
