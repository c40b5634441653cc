"""A survey's aggregates, tables and plots (``docs/survey.md`` explains each figure).

The position surveyed is the deal itself, or the position its play reaches
(:mod:`omen_solver.survey.play`); every table says which.

* **leading team**: the value of the team of the seat that leads the surveyed bout (at a deal:
  the highest Absolute), by player count; for positions reached by play, also the value of the
  team that led the round's first bout;
* **card values**: for each card, the value of the team of the seat dealt it (counted from the
  deal, so "holding Law" means holding it when the cards were dealt);
* **now cards in every optimal line**: for each immediate card in a hand at the position, the
  share of the positions holding it in which every optimal line places it (two teams);
* **option impact**: for each rule option, the share of positions whose values change when only
  that option is set otherwise, and the smallest such position (fewest cards, then fewest nodes
  to solve, then the first), saved as position files, one per setting.

Records are read one at a time (:class:`Aggregate`), so a survey of any size is summarised in
flat memory. Rates come with 95 % Wilson intervals (:mod:`omen_solver.survey.stats`); unknown
results are counted apart, with their proven bounds, never as wins, losses or changes.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from omen_solver.core.files import atomic_write
from omen_solver.omens.deals import Deal
from omen_solver.omens.rules import option_specs
from omen_solver.omens.table import Scope
from omen_solver.survey.analysis import SurveyConfig
from omen_solver.survey.captions import label, settings_line
from omen_solver.survey.deals import position_toml
from omen_solver.survey.stats import Rate, Tally

__all__ = ["Aggregate", "Summary", "summarise", "write_outputs", "write_positions"]


_KNOWN: dict[str, Fraction] = {"0": Fraction(0), "1": Fraction(1)}
_TRIVIAL: tuple[Fraction, Fraction] = (Fraction(0), Fraction(1))


def _fraction(text: str) -> Fraction:
    found = _KNOWN.get(text)
    return Fraction(text) if found is None else found


def _values(record: dict[str, Any]) -> list[Fraction] | None:
    raw = record.get("values")
    return None if raw is None else [_fraction(v) for v in raw]


def _bounds(record: dict[str, Any], team: int) -> tuple[Fraction, Fraction]:
    raw = record.get("bounds")
    if not raw:
        return _TRIVIAL
    low, high = raw[team]
    return _fraction(low), _fraction(high)


def _team_of(record: dict[str, Any], seat: int) -> int:
    """The index of the team of ``seat`` (from 1)."""
    return next(i for i, team in enumerate(record["teams"]) if seat in team)


def position_hands(record: dict[str, Any]) -> list[list[int]]:
    """The hands of the surveyed position (the deal's, when it is surveyed as dealt)."""
    position = record.get("position")
    return list(position["hands"]) if position else list(record["hands"])


def position_leader(record: dict[str, Any]) -> int:
    """The seat (from 1) leading the surveyed bout."""
    position = record.get("position")
    return int(position["leader"]) if position else int(record["leader"])


@dataclass
class OptionImpact:
    name: str
    changed: int = 0
    unchanged: int = 0
    unknown: int = 0
    smallest: dict[str, Any] | None = None
    """The record of the smallest position that changed, and the setting that changed it."""
    setting: str = ""

    @property
    def rate(self) -> Rate:
        return Rate(Fraction(self.changed), self.changed + self.unchanged, self.unknown)


@dataclass
class Summary:
    config: SurveyConfig
    deals: int
    """Deals recorded."""
    positions: int
    """Positions surveyed (deals whose play reached the surveyed point; every deal when the
    deals are surveyed as dealt)."""
    unsettled: int
    """Positions whose values under the survey's rules are unknown."""
    leading: dict[int, Rate]
    first_leader: dict[int, Rate]
    """Positions reached by play: the value of the team that led the round's first bout."""
    cards: dict[int, dict[int, Rate]]
    """Card -> player count -> the value of the team of the seat dealt it."""
    lines: dict[int, Rate]
    """Now card -> the share of positions holding it where it is in every optimal line."""
    options: list[OptionImpact] = field(default_factory=list)
    unknown_reasons: dict[str, int] = field(default_factory=dict)
    """Where a value is unknown (the survey's rules, or an option's setting) and why ->
    positions."""
    not_reached: dict[int, int] = field(default_factory=dict)
    """Player count -> deals whose round ended before the surveyed point."""
    option_unknown: int = 0
    """Positions settled under the survey's rules but unknown under some other option
    setting."""
    bounds: dict[str, int] = field(default_factory=dict)
    """``"[low, high]"`` of the leading team -> unsettled positions with those bounds."""
    play: dict[str, int] = field(default_factory=dict)
    """The policy's decisions, those the advice answered, and its fallbacks."""
    bouts: dict[int, dict[int, int]] = field(default_factory=dict)
    """Player count -> bouts played before the position -> positions."""
    seconds: float = 0.0
    """The searches' seconds, summed over every position."""

    @property
    def settled(self) -> int:
        return self.positions - self.unsettled

    @property
    def any_unknown(self) -> int:
        """Positions with an unknown result anywhere (their values, or an option's)."""
        return self.unsettled + self.option_unknown

    def reasons_in_short(self) -> str:
        """Why results are unknown, grouped by reason: ``node limit ... (3 results); ...``."""
        grouped: Counter[str] = Counter()
        for key, count in self.unknown_reasons.items():
            grouped[key.partition(": ")[2]] += count
        return "; ".join(f"{why} ({count} results)" for why, count in
                         sorted(grouped.items(), key=lambda item: (-item[1], item[0])))

    def status(self) -> str:
        """One sentence on what is known, the same on stdout, stderr and in ``summary.md``."""
        reached = ""
        skipped = sum(self.not_reached.values())
        if skipped:
            reached = f" ({skipped} rounds ended before the surveyed point and are not surveyed)"
        asked = self.config.total
        partial = ""
        if self.deals < asked:
            partial = (f" of the {asked} asked (a partial run: the same command completes it)")
        text = (f"{self.deals} deals{partial}, {self.positions} positions surveyed{reached}: "
                f"{self.settled} settled exactly, {self.unsettled} unsettled")
        if self.unsettled:
            text += " (counted apart with their proven bounds, never as wins or losses)"
        if self.config.options:
            text += (f"; {self.option_unknown} more with an unknown result under another "
                     "option setting (counted apart for that option)")
        return text + "."

    def to_json(self) -> dict[str, Any]:
        return {
            "survey": self.config.to_json(),
            "how": self.config.describe(),
            "deals": self.deals,
            "positions": self.positions,
            "settled": self.settled,
            "unsettled": self.unsettled,
            "unsettled_bounds": self.bounds,
            "option_unknown": self.option_unknown,
            "not_reached": {str(p): n for p, n in self.not_reached.items()},
            "status": self.status(),
            "leading_team": {str(p): r.to_json() for p, r in self.leading.items()},
            "first_leader_team": {str(p): r.to_json() for p, r in self.first_leader.items()},
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
            "play": self.play,
            "bouts_before_position": {
                str(p): {str(b): n for b, n in sorted(by.items())}
                for p, by in self.bouts.items()
            },
            "search_seconds": round(self.seconds, 3),
        }


class Aggregate:
    """The summary of records added one at a time (order does not matter)."""

    def __init__(self, config: SurveyConfig) -> None:
        self.config = config
        self.deals = 0
        self.positions = 0
        self.unsettled = 0
        self.option_unknown = 0
        self.leading: dict[int, Tally] = defaultdict(Tally)
        self.first_leader: dict[int, Tally] = defaultdict(Tally)
        self.cards: dict[int, dict[int, Tally]] = defaultdict(lambda: defaultdict(Tally))
        self.lines: dict[int, Tally] = defaultdict(Tally)
        self.impacts = {spec.name: OptionImpact(spec.name) for spec in option_specs()}
        self.reasons: Counter[str] = Counter()
        self.not_reached: Counter[int] = Counter()
        self.bounds: Counter[str] = Counter()
        self.play: Counter[str] = Counter()
        self.bouts: dict[int, Counter[int]] = defaultdict(Counter)
        self.seconds = 0.0

    def add(self, record: dict[str, Any]) -> None:
        self.deals += 1
        players = record["players"]
        line = record.get("line")
        if line is not None:
            self.play.update(line.get("play", {}))
        if record.get("reached") is False:
            self.not_reached[players] += 1
            return
        self.positions += 1
        if line is not None:
            self.bouts[players][line["bouts"]] += 1
        self.seconds += record.get("seconds", 0.0)
        values = _values(record)
        team = record["leading_team"] - 1
        if values is None:
            self.unsettled += 1
            low, high = _bounds(record, team)
            self.bounds[f"[{low}, {high}]"] += 1
            self.reasons[f"survey rules: {record.get('unknown_reason', 'unknown')}"] += 1
        self.leading[players].add(None if values is None else values[team],
                                  _bounds(record, team))
        if record.get("position"):
            first = record["first_leader_team"] - 1
            self.first_leader[players].add(None if values is None else values[first],
                                           _bounds(record, first))
        for seat, hand in enumerate(record["hands"], start=1):
            holder = _team_of(record, seat)
            value = None if values is None else values[holder]
            bounds = _TRIVIAL if values is not None else _bounds(record, holder)
            for card in hand:
                self.cards[card][players].add(value, bounds)
        if "essential" in record:
            essential = record["essential"]
            for card in record["now_cards"]:
                self.lines[card].add(None if essential is None else Fraction(card in essential))
        self._options(record, values is not None)

    def _options(self, record: dict[str, Any], known: bool) -> None:
        if record.get("options_skipped") and self.config.options:
            for impact in self.impacts.values():
                impact.unknown += 1
            return
        elsewhere = False
        for name, found in record.get("options", {}).items():
            impact = self.impacts[name]
            settings = found["settings"]
            changes = [s["changed"] for s in settings.values()]
            elsewhere = elsewhere or any(s["values"] is None for s in settings.values())
            for setting, result in settings.items():
                if result["values"] is None:
                    why = result.get("unknown_reason", "unknown")
                    self.reasons[f"{name} = {setting}: {why}"] += 1
            if any(c is True for c in changes):
                impact.changed += 1
                setting = next(k for k, s in settings.items() if s["changed"])
                if impact.smallest is None or _size(record) < _size(impact.smallest):
                    impact.smallest, impact.setting = record, setting
            elif any(c is None for c in changes):
                impact.unknown += 1
            else:
                impact.unchanged += 1
        if known and elsewhere:
            self.option_unknown += 1

    def summary(self) -> Summary:
        return Summary(
            self.config, self.deals, self.positions, self.unsettled,
            {p: t.rate() for p, t in sorted(self.leading.items())},
            {p: t.rate() for p, t in sorted(self.first_leader.items())},
            {card: {p: t.rate() for p, t in sorted(by.items())}
             for card, by in sorted(self.cards.items())},
            {c: t.rate() for c, t in sorted(self.lines.items())},
            list(self.impacts.values()) if self.config.options else [],
            dict(sorted(self.reasons.items(), key=lambda item: (-item[1], item[0]))),
            dict(sorted(self.not_reached.items())),
            self.option_unknown,
            dict(sorted(self.bounds.items())),
            dict(self.play),
            {p: dict(sorted(by.items())) for p, by in sorted(self.bouts.items())},
            self.seconds,
        )


def summarise(config: SurveyConfig, records: Iterable[dict[str, Any]]) -> Summary:
    """The aggregates of the records (the result does not depend on their order)."""
    aggregate = Aggregate(config)
    for record in records:
        aggregate.add(record)
    return aggregate.summary()


def _size(record: dict[str, Any]) -> tuple[int, int, int, int]:
    """Smaller positions first: fewer cards, fewer nodes to solve, then survey order."""
    cards = sum(len(hand) for hand in position_hands(record))
    return cards, record["nodes"], record["players"], record["index"]


# -- tables ------------------------------------------------------------------------------------


def markdown(summary: Summary, plots: dict[str, str] | None = None) -> str:
    """The tables of a survey as Markdown (``plots``: figure name -> file name to link)."""
    config = summary.config
    plots = plots or {}
    played = config.reach() is not None
    lines = [settings_line(summary), ""]
    if played:
        lines += _reach_table(summary)
    lines += [
        "## The leading team's value under best play",
        "",
        ("The team of the seat that leads the surveyed bout" if played else
         "The team of the seat that leads the first bout (the highest Absolute)")
        + ". Two teams: the share of positions it wins (minimax); three teams: the share it "
        "wins against a coalition of the two others (paranoid)."
        + (" Beside it, the value of the team that led the round's first bout." if played
           else ""),
        "",
    ]
    if played:
        lines += ["| players | leading team [95 % interval] (positions) | first leader's team |",
                  "|---|---|---|"]
        lines += [f"| {p} | {r.text()} | {summary.first_leader[p].text()} |"
                  for p, r in summary.leading.items()]
    else:
        lines += ["| players | value [95 % interval] (deals) |", "|---|---|"]
        lines += [f"| {p} | {r.text()} |" for p, r in summary.leading.items()]
    lines += _figure(plots, "leading", "the leading team's value by player count")
    players = list(summary.leading)
    lines += [
        "",
        "## The value of holding each card",
        "",
        "The value of the team of the seat dealt the card"
        + (" (counted from the deal: the card may have been played since)" if played else "")
        + ", by player count.",
        "",
        "| card | " + " | ".join(f"{p} players" for p in players) + " |",
        "|---|" + "---|" * len(players),
    ]
    for card, by in summary.cards.items():
        cells = [by[p].text() if p in by else "-" for p in players]
        lines.append(f"| {label(card)} | " + " | ".join(cells) + " |")
    lines += _figure(plots, "cards", "card values")
    if summary.lines:
        lines += [
            "",
            "## Immediate cards in every optimal line",
            "",
            "Of the positions with the card in a hand (two teams), the share in which every "
            "line of optimal play places it in play.",
            "",
            "| card | share [95 % interval] (positions) |",
            "|---|---|",
            *(f"| {label(c)} | {r.text()} |" for c, r in summary.lines.items()),
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
        if summary.bounds:
            lines += ["", "Proven bounds of the leading team's value in the unsettled positions: "
                      + ", ".join(f"{b} ({n})" for b, n in summary.bounds.items()) + "."]
    if summary.options:
        lines += [
            "",
            "## Option impact",
            "",
            "The share of positions whose best-play values change when only this option is "
            "set otherwise, and the smallest such position (saved as position files, one per "
            "setting).",
            "",
            "| option | positions changed | share [95 % interval] | smallest position |",
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


def _reach_table(summary: Summary) -> list[str]:
    lines = ["## How the positions were reached", "",
             f"{summary.config.describe()[0].upper()}{summary.config.describe()[1:]}. "
             "Rounds that ended before that point are not surveyed.", "",
             "| players | deals | positions | rounds over before | bouts played before the "
             "position: positions |", "|---|---|---|---|---|"]
    for players in summary.config.players:
        by = summary.bouts.get(players, {})
        reached = sum(by.values())
        over = summary.not_reached.get(players, 0)
        shown = ", ".join(f"{b}: {n}" for b, n in by.items()) or "-"
        lines.append(f"| {players} | {reached + over} | {reached} | {over} | {shown} |")
    play = summary.play
    if play.get("decisions"):
        text = f"The policy made {play['decisions']:,} decisions (more than one legal move)"
        if summary.config.policy is not None and summary.config.policy.name == "advice":
            text += (f"; the advice answered {play.get('advised', 0):,} and "
                     f"{play.get('fallbacks', 0):,} fell back to the heuristic")
        lines += ["", text + "."]
    return [*lines, ""]


def _reason_line(key: str, count: int) -> str:
    where, _, why = key.partition(": ")
    return f"- `{where}`: {why} ({count} positions)"


def _figure(plots: dict[str, str], name: str, caption: str) -> list[str]:
    if name not in plots:
        return []
    return ["", f"![{caption}]({plots[name]})"]


# -- files ------------------------------------------------------------------------------------


def _deal(record: dict[str, Any], seed: int) -> Deal:
    """The surveyed position as a deal (its hands and leader)."""
    return Deal(
        tuple(tuple(hand) for hand in position_hands(record)),
        tuple(tuple(seat - 1 for seat in team) for team in record["teams"]),
        position_leader(record) - 1, tuple(record["box"]), seed, record.get("kind", "first"),
        record["index"],
    )


def _origin(record: dict[str, Any], config: SurveyConfig) -> str:
    """Where a position comes from, for a position file's description."""
    line = record.get("line")
    if not line:
        return f"survey deal {record['id']} (seed {config.seed}), as dealt"
    moves = line["moves"]
    return (f"survey deal {record['id']} (seed {config.seed}, hands at the deal "
            f"{record['hands']}), played by the {config.policy.label() if config.policy else ''}"
            f" policy for {line['bouts']} bouts ({len(moves)} moves: {' / '.join(moves)})")


def write_positions(summary: Summary, folder: Path) -> list[Path]:
    """For each option that changed a position, the smallest such position under each
    setting."""
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
                f"Option impact: {impact.name} = {setting} ({record['id']})",
                f"The smallest surveyed position whose best-play result depends on "
                f"{impact.name}: {shown}. Team values in the order of 'teams'; this file: "
                f"{values}. From {_origin(record, config)}.",
            )
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / f"{impact.name}.{setting}.toml"
            atomic_write(path, text)
            written.append(path)
    return written


def write_every_position(config: SurveyConfig, records: Iterable[dict[str, Any]],
                         folder: Path) -> int:
    """Every surveyed position as a position file ``folder/ID.toml`` (``--write-positions``),
    with its values under the survey's rules in the description; returns how many."""
    count = 0
    for record in records:
        if record.get("reached") is False:
            continue
        values = record.get("values")
        answer = ("team values " + ", ".join(values) if values is not None else
                  f"unsettled within the budget ({record.get('unknown_reason', 'unknown')})")
        text = position_toml(
            _deal(record, config.seed), config.preset, dict(config.overrides),
            Scope(config.scope), f"Surveyed position {record['id']}",
            f"From {_origin(record, config)}. Best play, every hand open: {answer} (in the order "
            "of 'teams').",
        )
        folder.mkdir(parents=True, exist_ok=True)
        atomic_write(folder / f"{record['id']}.toml", text)
        count += 1
    return count


def write_outputs(summary: Summary, folder: Path, plots: bool = True) -> list[Path]:
    """``summary.json``, ``summary.md``, the plots (PNG and SVG) and the option positions."""
    written: list[Path] = []
    names: dict[str, str] = {}
    if plots:
        from omen_solver.survey.plots import write_plots

        for name, paths in write_plots(summary, folder).items():
            names[name] = paths[0].name
            written.extend(paths)
    atomic_write(folder / "summary.json", json.dumps(summary.to_json(), indent=2) + "\n")
    atomic_write(folder / "summary.md", markdown(summary, names))
    written += [folder / "summary.json", folder / "summary.md"]
    written += write_positions(summary, folder / "option-impact")
    return written
