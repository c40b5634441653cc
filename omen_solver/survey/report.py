"""A survey's aggregates, tables and plots (``docs/survey.md`` explains each figure).

* **leading team**: the value of the team of the seat that leads the first bout (the highest
  Absolute), by player count;
* **card values**: for each card, the value of the team of the seat dealt it;
* **now cards in every optimal line**: for each immediate card, the share of the deals that
  dealt it in which every optimal line places it (two-team deals);
* **option impact**: for each rule option, the share of deals whose values change when only
  that option is set otherwise, and the smallest such deal (fewest cards, then fewest nodes
  to solve, then the first), saved as position files, one per setting.

Rates come with 95 % Wilson intervals (:mod:`omen_solver.survey.stats`); unknown results are
counted apart, never as wins or losses.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from omen_solver.omens.deals import FIRST, Deal
from omen_solver.omens.rules import option_specs
from omen_solver.omens.table import Scope
from omen_solver.survey.analysis import SurveyConfig
from omen_solver.survey.deals import position_toml, write_text
from omen_solver.survey.stats import Rate, rate

__all__ = ["Summary", "summarise", "write_outputs"]


def _values(record: dict[str, Any]) -> list[Fraction] | None:
    raw = record.get("values")
    return None if raw is None else [Fraction(v) for v in raw]


def _team_of(record: dict[str, Any], seat: int) -> int:
    """The index of the team of ``seat`` (from 1)."""
    return next(i for i, team in enumerate(record["teams"]) if seat in team)


@dataclass
class OptionImpact:
    name: str
    changed: int = 0
    unchanged: int = 0
    unknown: int = 0
    smallest: dict[str, Any] | None = None
    """The record of the smallest deal that changed, and the setting that changed it."""
    setting: str = ""

    @property
    def rate(self) -> Rate:
        return Rate(Fraction(self.changed), self.changed + self.unchanged, self.unknown)


@dataclass
class Summary:
    config: SurveyConfig
    deals: int
    unknown: int
    leading: dict[int, Rate]
    cards: dict[int, dict[int, Rate]]
    """Card -> player count -> the holder's team's value."""
    lines: dict[int, Rate]
    """Now card -> the share of deals dealing it where it is in every optimal line."""
    options: list[OptionImpact] = field(default_factory=list)
    unknown_reasons: dict[str, int] = field(default_factory=dict)
    """Where a value is unknown (the survey's rules, or an option's setting) and why -> deals."""

    def to_json(self) -> dict[str, Any]:
        return {
            "survey": self.config.to_json(),
            "deals": self.deals,
            "unknown": self.unknown,
            "leading_team": {str(p): r.to_json() for p, r in self.leading.items()},
            "card_values": {
                str(card): {str(p): r.to_json() for p, r in by.items()}
                for card, by in self.cards.items()
            },
            "in_every_optimal_line": {str(c): r.to_json() for c, r in self.lines.items()},
            "option_impact": {
                o.name: {**o.rate.to_json(), "changed": o.changed,
                         "smallest": None if o.smallest is None else o.smallest["id"],
                         "setting": o.setting or None}
                for o in self.options
            },
            "unknown_reasons": self.unknown_reasons,
        }


def summarise(config: SurveyConfig, records: list[dict[str, Any]]) -> Summary:
    """The aggregates of the records (in survey order: the result does not depend on the order
    the deals were solved in)."""
    records = sorted(records, key=lambda r: (r["players"], r["index"]))
    leading: dict[int, list[Fraction | None]] = defaultdict(list)
    cards: dict[int, dict[int, list[Fraction | None]]] = defaultdict(lambda: defaultdict(list))
    lines: dict[int, list[Fraction | None]] = defaultdict(list)
    for record in records:
        values = _values(record)
        players = record["players"]
        team = record["leading_team"] - 1
        leading[players].append(None if values is None else values[team])
        for seat, hand in enumerate(record["hands"], start=1):
            holder = _team_of(record, seat)
            for card in hand:
                cards[card][players].append(None if values is None else values[holder])
        if "essential" in record:
            essential = record["essential"]
            for card in record["now_cards"]:
                lines[card].append(None if essential is None else Fraction(card in essential))
    impacts = _impacts(records) if config.options else []
    unknown = sum(1 for r in records if r.get("values") is None)
    return Summary(
        config, len(records), unknown,
        {p: rate(v) for p, v in sorted(leading.items())},
        {c: {p: rate(v) for p, v in sorted(by.items())} for c, by in sorted(cards.items())},
        {c: rate(v) for c, v in sorted(lines.items())},
        impacts,
        unknown_reasons(records),
    )


def _impacts(records: list[dict[str, Any]]) -> list[OptionImpact]:
    impacts = {spec.name: OptionImpact(spec.name) for spec in option_specs()}
    for record in records:
        for name, found in record.get("options", {}).items():
            impact = impacts[name]
            changes = [s["changed"] for s in found["settings"].values()]
            if any(c is True for c in changes):
                impact.changed += 1
                setting = next(k for k, s in found["settings"].items() if s["changed"])
                if impact.smallest is None or _size(record) < _size(impact.smallest):
                    impact.smallest, impact.setting = record, setting
            elif any(c is None for c in changes):
                impact.unknown += 1
            else:
                impact.unchanged += 1
    return list(impacts.values())


def _size(record: dict[str, Any]) -> tuple[int, int, int, int]:
    """Smaller deals first: fewer cards, fewer nodes to solve, then survey order."""
    cards = sum(len(hand) for hand in record["hands"])
    return cards, record["nodes"], record["players"], record["index"]


def unknown_reasons(records: list[dict[str, Any]]) -> dict[str, int]:
    """``"survey rules: reason"`` or ``"OPTION = SETTING: reason"`` -> the deals it made
    unknown."""
    found: dict[str, int] = defaultdict(int)
    for record in records:
        if record.get("values") is None:
            found[f"survey rules: {record.get('unknown_reason', 'unknown')}"] += 1
        for name, option in record.get("options", {}).items():
            for setting, result in option["settings"].items():
                if result["values"] is None:
                    why = result.get("unknown_reason", "unknown")
                    found[f"{name} = {setting}: {why}"] += 1
    return dict(sorted(found.items(), key=lambda item: (-item[1], item[0])))


def any_unknown(records: list[dict[str, Any]]) -> int:
    """Deals whose values (under the survey's rules or an option's other setting) are unknown."""
    count = 0
    for record in records:
        settings = [s for o in record.get("options", {}).values() for s in o["settings"].values()]
        if record.get("values") is None or any(s["values"] is None for s in settings):
            count += 1
    return count


# -- tables ------------------------------------------------------------------------------------


def markdown(summary: Summary, plots: dict[str, str] | None = None) -> str:
    """The tables of a survey as Markdown (``plots``: figure name -> file name to link)."""
    config = summary.config
    plots = plots or {}
    cards = "the rulebook's deal" if config.cards is None else f"{config.cards} cards per hand"
    lines = [
        f"Survey: {config.deals} deals per player count ({', '.join(map(str, config.players))} "
        f"players), {cards}, scope {config.scope}, preset `{config.preset}`"
        + (f", rules {dict(config.overrides)}" if config.overrides else "")
        + f", seed {config.seed}, budget {_budget(config)} per search. "
        f"{summary.deals} deals recorded, {summary.unknown} unknown.",
        "",
        "## The leading team's value under best play",
        "",
        "The team of the seat that leads the first bout (the highest Absolute). Two teams: the "
        "share of deals it wins (minimax); three teams: the share it wins against a coalition "
        "of the two others (paranoid).",
        "",
        "| players | value [95 % interval] (deals) |",
        "|---|---|",
        *(f"| {p} | {r.text()} |" for p, r in summary.leading.items()),
    ]
    lines += _figure(plots, "leading", "the leading team's value by player count")
    players = list(summary.leading)
    lines += [
        "",
        "## The value of holding each card",
        "",
        "The value of the team of the seat dealt the card, by player count.",
        "",
        "| card | " + " | ".join(f"{p} players" for p in players) + " |",
        "|---|" + "---|" * len(players),
    ]
    for card, by in summary.cards.items():
        cells = [by[p].text() if p in by else "-" for p in players]
        lines.append(f"| {card} | " + " | ".join(cells) + " |")
    lines += _figure(plots, "cards", "card values")
    if summary.lines:
        lines += [
            "",
            "## Immediate cards in every optimal line",
            "",
            "Of the deals that dealt the card (two teams), the share in which every line of "
            "optimal play places it in play.",
            "",
            "| card | share [95 % interval] (deals) |",
            "|---|---|",
            *(f"| {c} | {r.text()} |" for c, r in summary.lines.items()),
        ]
    if summary.unknown_reasons:
        lines += [
            "",
            "## Unknown results",
            "",
            "Counted apart, never as wins, losses or changes: under which rules, and why.",
            "",
            *(_reason_line(key, count) for key, count in summary.unknown_reasons.items()),
        ]
    if summary.options:
        lines += [
            "",
            "## Option impact",
            "",
            "The share of deals whose best-play values change when only this option is set "
            "otherwise, and the smallest such deal (saved as position files, one per setting).",
            "",
            "| option | deals changed | share [95 % interval] | smallest deal |",
            "|---|---|---|---|",
        ]
        for impact in sorted(summary.options, key=lambda o: (-o.changed, o.name)):
            smallest = "-" if impact.smallest is None else (
                f"{impact.smallest['id']} (`{impact.setting}`)"
            )
            lines.append(f"| `{impact.name}` | {impact.changed} | {impact.rate.text()} | "
                         f"{smallest} |")
        lines += _figure(plots, "options", "option impact")
    return "\n".join(lines) + "\n"


def _reason_line(key: str, count: int) -> str:
    where, _, why = key.partition(": ")
    return f"- `{where}`: {why} ({count} deals)"


def _budget(config: SurveyConfig) -> str:
    parts = []
    if config.max_seconds is not None:
        parts.append(f"{config.max_seconds:g} s")
    if config.max_nodes is not None:
        parts.append(f"{config.max_nodes:,} nodes")
    return " and ".join(parts) or "no limit"


def _figure(plots: dict[str, str], name: str, caption: str) -> list[str]:
    if name not in plots:
        return []
    return ["", f"![{caption}]({plots[name]})"]


# -- files ------------------------------------------------------------------------------------


def _deal(record: dict[str, Any], seed: int) -> Deal:
    return Deal(
        tuple(tuple(hand) for hand in record["hands"]),
        tuple(tuple(seat - 1 for seat in team) for team in record["teams"]),
        record["leader"] - 1, tuple(record["box"]), seed, FIRST, record["index"],
    )


def write_positions(summary: Summary, folder: Path) -> list[Path]:
    """For each option that changed a deal, the smallest such deal under each setting."""
    config = summary.config
    written = []
    for impact in summary.options:
        record = impact.smallest
        if record is None:
            continue
        found = record["options"][impact.name]
        deal = _deal(record, config.seed)
        results = {found["base"]: record["values"]}
        results.update({k: s["values"] for k, s in found["settings"].items()})
        for setting, values in results.items():
            rules = {**dict(config.overrides), impact.name: setting}
            shown = ", ".join(
                f"{impact.name} = {k}: team values {v}" for k, v in results.items()
            )
            text = position_toml(
                deal, config.preset, rules, Scope(config.scope),
                f"Option impact: {impact.name} = {setting} (survey deal {record['id']})",
                f"The smallest surveyed deal whose best-play result depends on {impact.name}: "
                f"{shown}. Team values in the order of 'teams'; this file: {values}.",
            )
            path = folder / f"{impact.name}.{setting}.toml"
            write_text(path, text)
            written.append(path)
    return written


def write_outputs(summary: Summary, folder: Path, plots: bool = True) -> list[Path]:
    """``summary.json``, ``summary.md``, the plots (PNG and SVG) and the option positions."""
    written: list[Path] = []
    names: dict[str, str] = {}
    if plots:
        from omen_solver.survey.plots import write_plots

        for name, paths in write_plots(summary, folder).items():
            names[name] = paths[0].name
            written.extend(paths)
    write_text(folder / "summary.json", json.dumps(summary.to_json(), indent=2) + "\n")
    write_text(folder / "summary.md", markdown(summary, names))
    written += [folder / "summary.json", folder / "summary.md"]
    written += write_positions(summary, folder / "option-impact")
    return written
