"""The words every table and plot of a survey starts with: how its positions were reached and
solved, and card names with their numbers (shared by :mod:`.report` and :mod:`.plots`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from omen_solver.omens.cards import default_catalogue
from omen_solver.survey.analysis import SurveyConfig

if TYPE_CHECKING:
    from omen_solver.survey.report import Summary

__all__ = ["label", "settings_line"]


def label(card: int) -> str:
    """``Law (15)``."""
    return default_catalogue()[card].label()


def settings_line(summary: Summary) -> str:
    """How the positions were reached and solved: the first line of every table."""
    config = summary.config
    rules = f", rules {dict(config.overrides)}" if config.overrides else ""
    return (f"Survey: {config.describe()}; {config.deals_text()}, scope {config.scope}, "
            f"preset `{config.preset}`{rules}, seed {config.seed}, budget {_budget(config)} per "
            f"search. {summary.status()}")


def _budget(config: SurveyConfig) -> str:
    parts = []
    if config.max_seconds is not None:
        parts.append(f"{config.max_seconds:g} s")
    if config.max_nodes is not None:
        parts.append(f"{config.max_nodes:,} nodes")
    return " and ".join(parts) or "no limit"
