"""The survey's plots (matplotlib, no display needed): PNG and SVG, byte-for-byte reproducible.

Every plot says how its positions were reached and solved (a caption under it: the deals, the
players, the cards per hand, the policy and where it stopped, the preset, the budget), names
cards as ``Law (15)``, writes the number of positions under each bar, and fits its value axis to
the data (with room for the intervals), so a share of 0.16 is not drawn on an axis to 1.
"""

from __future__ import annotations

import math
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Any

from omen_solver.core.files import atomic_file
from omen_solver.survey.captions import label, settings_line
from omen_solver.survey.stats import Rate

if TYPE_CHECKING:
    from omen_solver.survey.report import Summary

__all__ = ["axis_limit", "write_balance_plot", "write_plots"]

COLOUR = "#4c72b0"


def _pyplot() -> Any:
    from omen_solver.core.extras import require

    require("matplotlib", "survey", "the survey's plots")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.hashsalt"] = "omen-solver"
    return plt


def axis_limit(rates: list[Rate]) -> float:
    """The top of a value axis: a round number a little above the highest interval (at least
    0.05, at most 1)."""
    top = max((r.interval[1] for r in rates if r.count), default=1.0)
    step = 0.01 if top < 0.1 else 0.05 if top < 0.5 else 0.1
    return max(0.05, min(1.0, round(math.ceil(top * 1.05 / step) * step, 4)))


def _bars(axis: Any, labels: list[str], rates: list[Rate], horizontal: bool = False) -> None:
    means = [r.mean or 0.0 for r in rates]
    lows = [max(0.0, (r.mean or 0.0) - r.interval[0]) if r.count else 0.0 for r in rates]
    highs = [max(0.0, r.interval[1] - (r.mean or 0.0)) if r.count else 0.0 for r in rates]
    positions = list(range(len(labels)))
    limit = axis_limit(rates)
    shown = [f"{name}\nn={r.count}" if not horizontal else f"{name} (n={r.count})"
             for name, r in zip(labels, rates, strict=True)]
    if horizontal:
        axis.barh(positions, means, xerr=[lows, highs], color=COLOUR, capsize=2)
        axis.set_yticks(positions, shown)
        axis.set_xlim(0, limit)
        axis.invert_yaxis()
    else:
        axis.bar(positions, means, yerr=[lows, highs], color=COLOUR, capsize=2)
        axis.set_xticks(positions, shown)
        axis.set_ylim(0, limit)


def _caption(figure: Any, summary: Summary, width: int) -> None:
    text = "\n".join(textwrap.wrap(settings_line(summary), width))
    figure.text(0.01, 0.005, text, fontsize=7, va="bottom", ha="left", wrap=False)


def _save(plt: Any, figure: Any, folder: Path, name: str) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for suffix in ("png", "svg"):
        path = folder / f"{name}.{suffix}"
        with atomic_file(path) as handle:
            figure.savefig(handle, format=suffix, dpi=100, metadata=_metadata(suffix))
        paths.append(path)
    plt.close(figure)
    return paths


def _metadata(suffix: str) -> dict[str, Any]:
    if suffix == "svg":
        return {"Date": None, "Creator": "omen-solver"}
    return {"Software": "omen-solver"}


def _layout(figure: Any, caption_lines: int, height: float) -> None:
    """Room at the bottom for the caption."""
    figure.tight_layout(rect=(0, min(0.45, (0.16 * caption_lines + 0.1) / height), 1, 1))


def _what(summary: Summary) -> str:
    config = summary.config
    cards = "rulebook deal" if config.cards is None else f"{config.cards} cards a hand"
    reach = config.reach()
    where = "as dealt" if reach is None else f"{config.policy.name if config.policy else ''} " \
        f"play to {reach.short()}"
    return f"{cards}, {where}, preset {config.preset}"


def write_plots(summary: Summary, folder: Path) -> dict[str, list[Path]]:
    """``leading``, ``cards`` and ``options`` figures in ``folder``; name -> files written."""
    plt = _pyplot()
    written: dict[str, list[Path]] = {}
    caption_width = 110
    lines = len(textwrap.wrap(settings_line(summary), caption_width))

    height = 4.2 + 0.12 * lines
    figure, axis = plt.subplots(figsize=(7, height))
    players = list(summary.leading)
    _bars(axis, [f"{p} players" for p in players], [summary.leading[p] for p in players])
    axis.set_ylabel("leading team's value (95 % interval)")
    axis.set_title(f"The leading team under best play ({_what(summary)})", fontsize=9)
    _caption(figure, summary, caption_width)
    _layout(figure, lines, height)
    written["leading"] = _save(plt, figure, folder, "leading-team")

    height = 3.6 * len(players) + 0.12 * lines + 0.6
    figure, axes = plt.subplots(len(players), 1, figsize=(16, height), squeeze=False)
    for axis, count in zip(axes[:, 0], players, strict=True):
        cards = [c for c, by in summary.cards.items() if count in by]
        _bars(axis, [label(c) for c in cards], [summary.cards[c][count] for c in cards])
        axis.tick_params(axis="x", labelsize=6, labelrotation=90)
        axis.set_ylabel(f"{count} players")
        axis.axhline(0.5, color="grey", linewidth=0.5)
    axes[0, 0].set_title("Value of the team of the seat dealt each card, under best play "
                         f"(95 % intervals; {_what(summary)})", fontsize=9)
    _caption(figure, summary, 200)
    _layout(figure, len(textwrap.wrap(settings_line(summary), 200)), height)
    written["cards"] = _save(plt, figure, folder, "card-values")

    if summary.options:
        impacts = sorted(summary.options, key=lambda o: (-o.changed, o.name))
        height = 0.3 * len(impacts) + 1.6 + 0.12 * lines
        figure, axis = plt.subplots(figsize=(8, height))
        _bars(axis, [o.name for o in impacts], [o.rate for o in impacts], horizontal=True)
        axis.set_xlabel("share of positions whose best-play result changes (95 % interval)")
        axis.set_title(f"Option impact ({_what(summary)})", fontsize=9)
        _caption(figure, summary, caption_width)
        _layout(figure, lines, height)
        written["options"] = _save(plt, figure, folder, "option-impact")
    return written


def write_balance_plot(summary: Any, folder: Path) -> list[Path]:
    """The first leader's team's share of games won, and at five players the pair's, by
    player count and preset (a :class:`omen_solver.survey.balance.BalanceSummary`)."""
    plt = _pyplot()
    config = summary.config
    groups: list[tuple[str, list[Rate]]] = []
    for players in config.players:
        groups.append((f"{players} players: first leader's team",
                       [summary.leader_rate(p, players) for p in config.presets]))
        sizes = sorted({s for p in config.presets for s in summary.cells[p, players].size_teams})
        if len(sizes) > 1:
            groups.append((f"{players} players: the team of {sizes[0]}",
                           [summary.size_rate(p, players, sizes[0]) for p in config.presets]))
    caption = (f"Balance: {config.describe()}; {config.games} games per player count and "
               f"preset. {summary.status()}")
    lines = textwrap.wrap(caption, 110)
    height = 4.4 + 0.12 * len(lines)
    figure, axis = plt.subplots(figsize=(8, height))
    width = 0.8 / len(config.presets)
    every = [rate for _, rates in groups for rate in rates]
    for offset, preset in enumerate(config.presets):
        rates = [rates[offset] for _, rates in groups]
        xs = [i + (offset - (len(config.presets) - 1) / 2) * width for i in range(len(groups))]
        means = [r.mean or 0.0 for r in rates]
        errors = [[max(0.0, (r.mean or 0.0) - r.interval[0]) for r in rates],
                  [max(0.0, r.interval[1] - (r.mean or 0.0)) for r in rates]]
        axis.bar(xs, means, width, yerr=errors, capsize=2, label=preset,
                 color=("#4c72b0", "#dd8452", "#55a868")[offset % 3])
        for x, rate in zip(xs, rates, strict=True):
            axis.text(x, 0.01, f"n={rate.count}", rotation=90, fontsize=6, ha="center",
                      va="bottom", color="white")
    axis.set_xticks(range(len(groups)), [name.replace(": ", ":\n") for name, _ in groups],
                    fontsize=7)
    axis.set_ylim(0, axis_limit(every))
    axis.set_ylabel("share of games won (95 % interval)")
    axis.set_title("Who wins whole games (self-play)", fontsize=9)
    axis.legend(fontsize=7, title="preset", title_fontsize=7)
    figure.text(0.01, 0.005, "\n".join(lines), fontsize=7, va="bottom", ha="left")
    _layout(figure, len(lines), height)
    return _save(plt, figure, folder, "balance")
