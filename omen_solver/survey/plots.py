"""The survey's plots (matplotlib, no display needed): PNG and SVG, byte-for-byte reproducible."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from omen_solver.survey.stats import Rate

if TYPE_CHECKING:
    from omen_solver.survey.report import Summary

__all__ = ["write_plots"]


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.hashsalt"] = "omen-solver"
    return plt


def _bars(axis: Any, labels: list[str], rates: list[Rate], horizontal: bool = False) -> None:
    means = [r.mean or 0.0 for r in rates]
    lows = [max(0.0, (r.mean or 0.0) - r.interval[0]) if r.count else 0.0 for r in rates]
    highs = [max(0.0, r.interval[1] - (r.mean or 0.0)) if r.count else 0.0 for r in rates]
    positions = list(range(len(labels)))
    if horizontal:
        axis.barh(positions, means, xerr=[lows, highs], color="#4c72b0", capsize=2)
        axis.set_yticks(positions, labels)
        axis.set_xlim(0, 1)
        axis.invert_yaxis()
    else:
        axis.bar(positions, means, yerr=[lows, highs], color="#4c72b0", capsize=2)
        axis.set_xticks(positions, labels)
        axis.set_ylim(0, 1)


def _save(plt: Any, figure: Any, folder: Path, name: str) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for suffix in ("png", "svg"):
        path = folder / f"{name}.{suffix}"
        temporary = path.with_name(path.name + ".tmp")
        figure.savefig(temporary, format=suffix, dpi=100, metadata=_metadata(suffix))
        temporary.replace(path)
        paths.append(path)
    plt.close(figure)
    return paths


def _metadata(suffix: str) -> dict[str, Any]:
    if suffix == "svg":
        return {"Date": None, "Creator": "omen-solver"}
    return {"Software": "omen-solver"}


def write_plots(summary: Summary, folder: Path) -> dict[str, list[Path]]:
    """``leading``, ``cards`` and ``options`` figures in ``folder``; name -> files written."""
    plt = _pyplot()
    written: dict[str, list[Path]] = {}
    figure, axis = plt.subplots(figsize=(5, 3.5))
    players = list(summary.leading)
    _bars(axis, [f"{p} players" for p in players], [summary.leading[p] for p in players])
    axis.set_ylabel("leading team's value (95 % interval)")
    axis.set_title("The leading team under best play")
    figure.tight_layout()
    written["leading"] = _save(plt, figure, folder, "leading-team")

    figure, axes = plt.subplots(len(players), 1, figsize=(11, 2.6 * len(players)), squeeze=False)
    for axis, count in zip(axes[:, 0], players, strict=True):
        cards = [c for c, by in summary.cards.items() if count in by]
        _bars(axis, [str(c) for c in cards], [summary.cards[c][count] for c in cards])
        axis.set_ylabel(f"{count} players")
        axis.axhline(0.5, color="grey", linewidth=0.5)
    axes[0, 0].set_title("Value of the holder's team, by card (95 % intervals)")
    axes[-1, 0].set_xlabel("card")
    figure.tight_layout()
    written["cards"] = _save(plt, figure, folder, "card-values")

    if summary.options:
        impacts = sorted(summary.options, key=lambda o: (-o.changed, o.name))
        figure, axis = plt.subplots(figsize=(7, 0.3 * len(impacts) + 1.2))
        _bars(axis, [o.name for o in impacts], [o.rate for o in impacts], horizontal=True)
        axis.set_xlabel("share of deals whose best-play result changes (95 % interval)")
        axis.set_title("Option impact")
        figure.tight_layout()
        written["options"] = _save(plt, figure, folder, "option-impact")
    return written
