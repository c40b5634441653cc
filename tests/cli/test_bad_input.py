"""Bad input, fuzzed: every command that reads a file gets mutated and random position files,
card files and move strings (Hypothesis), and must answer the way the brief promises: exit
status 2, exactly one line on stderr naming the file (and the key or the move), no traceback,
nothing written. An input a mutation leaves valid may succeed; it then writes nothing on
stderr and exits 0 or 1 (an "unknown" within the small budgets given here).
"""

from __future__ import annotations

import json
import math
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from omen_solver import cli
from omen_solver.core.files import MAX_FILE_BYTES

ROOT = Path(__file__).resolve().parents[2]
OMENS_POSITION = ROOT / "docs" / "examples" / "omens" / "worked-example.toml"
OMENS_PUZZLE = ROOT / "puzzles" / "omens" / "law-and-wrath.toml"
OMEN_POSITION = ROOT / "puzzles" / "omen" / "war-order.toml"
OMENS_CARDS = ROOT / "omen_solver" / "omens" / "data" / "cards.toml"
OMEN_CARDS = ROOT / "omen_solver" / "omen" / "data" / "printed.toml"
BUDGET = ("--max-nodes", "3000")

Command = Callable[[Path, Path], list[str]]
"""The arguments of a command given the input file and a scratch folder."""

POSITION_COMMANDS: dict[str, Command] = {
    "omens legal": lambda f, _: ["omens", "legal", str(f)],
    "omens play": lambda f, _: ["omens", "play", str(f), "--json"],
    "omen legal": lambda f, _: ["omen", "legal", str(f)],
    "omen play": lambda f, _: ["omen", "play", str(f)],
    "perft": lambda f, _: ["perft", str(f), "--depth", "2", *BUDGET],
    "graph": lambda f, d: ["graph", str(f), "--depth", "1", "--out", str(d / "out.graphml")],
    "solve": lambda f, _: ["solve", str(f), *BUDGET],
    "puzzles check": lambda f, _: ["puzzles", "check", str(f.parent), *BUDGET],
}
CARD_COMMANDS: dict[str, Command] = {
    "omens cards": lambda f, _: ["omens", "cards", "--catalogue", str(f)],
    "omen cards": lambda f, _: ["omen", "cards", str(f)],
}


class Outcome:
    def __init__(self, code: int, out: str, err: str) -> None:
        self.code, self.out, self.err = code, out, err

    @property
    def lines(self) -> list[str]:
        return self.err.splitlines()


def run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> Outcome:
    """The command in-process; any exception but argparse's exit is a traceback a user
    would see, so it fails the test."""
    capsys.readouterr()
    try:
        code = cli.main(argv)
    except SystemExit as exited:
        code = exited.code if isinstance(exited.code, int) else 2
    captured = capsys.readouterr()
    return Outcome(code, captured.out, captured.err)


def check_answer(outcome: Outcome, source: Path, argv: list[str]) -> None:
    """Success without a word on stderr, or exit 2 with one line naming the file."""
    if outcome.code in (0, 1) and not outcome.err:
        return
    assert outcome.code == 2, (argv, outcome.code, outcome.err)
    assert len(outcome.lines) == 1, (argv, outcome.err)
    assert outcome.lines[0].startswith("omen-solver: error: "), outcome.err
    assert str(source) in outcome.lines[0], (argv, outcome.err)


def written(folder: Path, inputs: set[Path]) -> list[Path]:
    return [path for path in folder.rglob("*") if path.is_file() and path not in inputs]


# -- a small TOML writer, so that structured mutations give TOML back ------------------------


class Huge:
    """An integer of 5,000 digits in the TOML text (more than Python's int() reads)."""

    def __repr__(self) -> str:
        return "Huge()"


def _toml_value(value: Any) -> str:
    if isinstance(value, Huge):
        return "9" * 5000
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf") if math.isinf(
            value
        ) else repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        pairs = (f"{json.dumps(k)} = {_toml_value(v)}" for k, v in value.items())
        return "{" + ", ".join(pairs) + "}"
    raise TypeError(value)


def dumps(data: dict[str, Any]) -> str:
    """TOML text for ``data``: every top-level key on its own line, tables inline."""
    return "".join(f"{json.dumps(key)} = {_toml_value(value)}\n" for key, value in data.items())


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every key path into a parsed TOML document (list items by index)."""
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(
        value, list
    ) else ()
    for key, inner in items:
        yield (*prefix, key)
        yield from _paths(inner, (*prefix, key))


def _replace(data: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(data, dict):
        copy = dict(data)
        if not rest and new is _DELETE:
            copy.pop(head)
        else:
            copy[head] = _replace(data[head], rest, new)
        return copy
    copy_list = list(data)
    if not rest and new is _DELETE:
        copy_list.pop(head)
    else:
        copy_list[head] = _replace(data[head], rest, new)
    return copy_list


_DELETE = object()

ODD_DIGITS = ["²", "５", "٣", "01", "1" * 5000, "-1", "0", " 1", "1.5", ""]
"""Digits ``str.isdigit()`` or ``int()`` read but a seat or card value must not be."""

scalars = st.one_of(
    st.integers(min_value=-(10**30), max_value=10**30),
    st.sampled_from([0, 1, 2, 3, 4, 6, 7, 36, 99, -1]),
    st.builds(Huge),
    st.floats(allow_nan=True),
    st.booleans(),
    st.text(max_size=12),
    st.sampled_from(ODD_DIGITS),
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                max_size=3),
    max_leaves=6,
)


@st.composite
def mutated_text(draw: st.DrawFn, seed: Path) -> bytes:
    """A seed file changed in one of several ways, as bytes."""
    raw = seed.read_bytes()
    how = draw(st.sampled_from(["value", "key", "delete", "bytes", "truncate", "random"]))
    if how == "bytes":
        at = draw(st.integers(0, len(raw)))
        junk = draw(st.binary(min_size=1, max_size=4))
        return raw[:at] + junk + raw[at:]
    if how == "truncate":
        return raw[: draw(st.integers(0, len(raw) - 1))]
    if how == "random":
        return draw(st.binary(max_size=200) | st.text(max_size=200).map(str.encode))
    data = tomllib.loads(raw.decode())
    paths = list(_paths(data))
    if how == "key":
        path = draw(st.sampled_from([p[:-1] for p in paths if isinstance(p[-1], str)] + [()]))
        key = draw(st.sampled_from(ODD_DIGITS) | st.text(min_size=1, max_size=6))
        target = data
        for part in path:
            target = target[part]
        if not isinstance(target, dict):
            return dumps(data).encode()
        return dumps(_replace(data, path, {**target, key: draw(values)})).encode()
    path = draw(st.sampled_from(paths))
    new = _DELETE if how == "delete" else draw(values)
    return dumps(_replace(data, path, new)).encode("utf-8", "surrogatepass")


FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def _fuzz_one(capsys: pytest.CaptureFixture[str], tmp: Path, commands: dict[str, Command],
              name: str, content: bytes) -> None:
    folder = tmp / "case"
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.iterdir():
        old.unlink()
    source = folder / "input.toml"
    source.write_bytes(content)
    argv = commands[name](source, folder)
    outcome = run(capsys, argv)
    check_answer(outcome, source, argv)
    if outcome.code == 2:
        assert written(folder, {source}) == [], argv


@pytest.mark.parametrize("name", sorted(POSITION_COMMANDS))
@pytest.mark.parametrize("seed", [OMENS_POSITION, OMENS_PUZZLE, OMEN_POSITION],
                         ids=["omens", "omens-puzzle", "omen"])
def test_mutated_position_files(capsys: pytest.CaptureFixture[str],
                                tmp_path_factory: pytest.TempPathFactory, name: str,
                                seed: Path) -> None:
    tmp = tmp_path_factory.mktemp("fuzz")

    @FUZZ
    @given(content=mutated_text(seed))
    def check(content: bytes) -> None:
        _fuzz_one(capsys, tmp, POSITION_COMMANDS, name, content)

    check()


@pytest.mark.parametrize("name", sorted(CARD_COMMANDS))
@pytest.mark.parametrize("seed", [OMENS_CARDS, OMEN_CARDS], ids=["omens", "omen"])
def test_mutated_card_files(capsys: pytest.CaptureFixture[str],
                            tmp_path_factory: pytest.TempPathFactory, name: str,
                            seed: Path) -> None:
    tmp = tmp_path_factory.mktemp("fuzz")

    @FUZZ
    @given(content=mutated_text(seed))
    def check(content: bytes) -> None:
        _fuzz_one(capsys, tmp, CARD_COMMANDS, name, content)

    check()


move_words = st.sampled_from(
    ["1", "5", "6", "11", "19", ":", ">", "lower", "resolve", "shows", "gives", "deal", "to",
     "war", "keep", "1@1:immortal", "&", ";", " ", *ODD_DIGITS]
)
moves = st.one_of(
    st.text(max_size=30),
    st.lists(move_words, min_size=1, max_size=5).map("".join),
    st.lists(move_words, min_size=1, max_size=5).map(" ".join),
).filter(lambda text: not text.startswith("-"))
"""Move texts; one starting with "-" reads as an option, which argparse refuses itself."""


@pytest.mark.parametrize(("game", "seed"), [("omens", OMENS_POSITION), ("omen", OMEN_POSITION)])
def test_random_moves(capsys: pytest.CaptureFixture[str], game: str, seed: Path) -> None:
    @FUZZ
    @given(texts=st.lists(moves, min_size=1, max_size=3))
    def check(texts: list[str]) -> None:
        argv = [game, "play", str(seed), "--moves", *texts]
        outcome = run(capsys, argv)
        if outcome.code == 0 and not outcome.err:
            return
        assert outcome.code == 2, (argv, outcome.err)
        assert len(outcome.lines) == 1, (argv, outcome.err)
        assert "--moves[" in outcome.lines[0], (argv, outcome.err)

    check()


# -- the causes of the tracebacks found before, each pinned down -------------------------


@pytest.mark.parametrize("name", sorted(POSITION_COMMANDS))
def test_a_file_that_is_not_utf8(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                 name: str) -> None:
    source = tmp_path / "latin1.toml"
    source.write_bytes(OMENS_POSITION.read_bytes().replace(b"rulebook", "r\xe8gle".encode(
        "latin-1")))
    outcome = run(capsys, POSITION_COMMANDS[name](source, tmp_path))
    assert outcome.code == 2 and len(outcome.lines) == 1
    assert f"{source}: not UTF-8 text: byte 0xe8 at line 1, column 8" in outcome.err
    assert written(tmp_path, {source}) == []


@pytest.mark.parametrize("name", sorted({**POSITION_COMMANDS, **CARD_COMMANDS}))
def test_an_endless_file_is_not_read_whole(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                           name: str) -> None:
    """A device is refused before a byte is read, a regular file past the size cap too."""
    commands = {**POSITION_COMMANDS, **CARD_COMMANDS}
    if name == "puzzles check":
        pytest.skip("puzzles check reads *.toml files of a folder, not a device")
    outcome = run(capsys, commands[name](Path("/dev/zero"), tmp_path))
    assert outcome.code == 2 and len(outcome.lines) == 1
    assert "/dev/zero: not a regular file" in outcome.err
    huge = tmp_path / "huge.toml"
    with huge.open("wb") as out:
        out.truncate(MAX_FILE_BYTES + 1)  # sparse: no disk used
    outcome = run(capsys, commands[name](huge, tmp_path))
    assert outcome.code == 2 and len(outcome.lines) == 1
    assert f"{huge}: 4,194,305 bytes, more than the 4,194,304" in outcome.err


def test_one_bad_file_does_not_stop_puzzles_check(capsys: pytest.CaptureFixture[str],
                                                  tmp_path: Path) -> None:
    (tmp_path / "a-good.toml").write_bytes(OMENS_PUZZLE.read_bytes())
    (tmp_path / "b-bad.toml").write_bytes(b"game = \"omens\"\n\xff\n")
    (tmp_path / "c-good.toml").write_bytes(OMENS_PUZZLE.read_bytes())
    outcome = run(capsys, ["puzzles", "check", str(tmp_path)])
    assert outcome.code == 2
    assert "3 puzzles: 2 agree, 0 contradicted, 0 unknown, 1 unreadable" in outcome.out
    assert outcome.lines == [
        f"omen-solver: error: {tmp_path / 'b-bad.toml'}: not UTF-8 text: byte 0xff at line 2, "
        "column 1 (save the file as UTF-8)"
    ]


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('game = ["omens"]', "'game'"),
        ('game = {name = "omens"}', "'game'"),
    ],
)
def test_a_list_or_table_where_a_name_belongs(capsys: pytest.CaptureFixture[str],
                                              tmp_path: Path, text: str, key: str) -> None:
    source = tmp_path / "position.toml"
    source.write_text(OMENS_POSITION.read_text().replace('game = "omens"', text))
    for argv in (["perft", str(source), "--depth", "1"], ["omens", "legal", str(source)]):
        outcome = run(capsys, argv)
        assert outcome.code == 2 and f"key {key}" in outcome.err, outcome.err


def test_a_profile_list_in_an_omen_position(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    source = tmp_path / "position.toml"
    source.write_text(OMEN_POSITION.read_text().replace('profile = "fires-in-the-east"',
                                                        'profile = ["fires-in-the-east"]'))
    outcome = run(capsys, ["omen", "legal", str(source)])
    assert outcome.code == 2 and "key 'profile': unknown profile" in outcome.err


@pytest.mark.parametrize("key", ["01", "²", "１", "1 "])
def test_a_seat_key_written_oddly_is_refused(capsys: pytest.CaptureFixture[str],
                                             tmp_path: Path, key: str) -> None:
    """An extra hand keyed "01" or "²" used to pass validation and its cards vanished."""
    source = tmp_path / "position.toml"
    text = OMENS_POSITION.read_text().replace("[bout]", f'"{key}" = [9]\n\n[bout]')
    source.write_text(text, encoding="utf-8")
    outcome = run(capsys, ["omens", "legal", str(source)])
    assert outcome.code == 2
    assert f"key 'hands.{key}': no such seat: seats are written 1, 2, 3, 4, 5, 6" in outcome.err


@pytest.mark.parametrize("move", ["５:11", "5:1²", "5²:11", "5:" + "9" * 5000, "deal ５ to 1"])
def test_odd_digits_in_a_move(capsys: pytest.CaptureFixture[str], move: str) -> None:
    """Full-width digits were read as a seat number; "²" and 5,000 digits crashed int()."""
    outcome = run(capsys, ["omens", "play", str(OMENS_POSITION), "--moves", "5:11", move])
    assert outcome.code == 2 and len(outcome.lines) == 1
    assert outcome.lines[0].startswith("omen-solver: error: --moves[2] (of 2): ")
    assert len(outcome.lines[0]) < 300


def test_odd_digits_in_a_files_moves(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    source = tmp_path / "position.toml"
    source.write_text(OMENS_POSITION.read_text().replace('"4:8"', '"４:8"'), encoding="utf-8")
    outcome = run(capsys, ["omens", "legal", str(source)])
    assert outcome.code == 2
    assert "key 'bout.moves[5]': '４:8': an action starts with a seat" in outcome.err


def test_a_huge_depth_is_read_and_the_budget_answers(capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Path) -> None:
    """perft --depth 10**30 ran until killed; every walk has a budget and says "unknown"."""
    from omen_solver.cli.perft import DEFAULT_PERFT_SECONDS

    position = tmp_path / "round.toml"
    position.write_text(
        'game = "omens"\nplayers = 4\nteams = [[1, 3], [2, 4]]\n[hands]\n1 = [30, 15, 7]\n'
        "2 = [28, 3, 9]\n3 = [12, 13, 22]\n4 = [14, 26, 5]\n[bout]\nleader = 1\n"
    )
    outcome = run(capsys, ["perft", str(position), "--depth", str(10**30), "--max-nodes", "500"])
    assert outcome.code == 1 and "unknown: node limit of 500 reached" in outcome.out
    assert DEFAULT_PERFT_SECONDS == 30  # an interactive tool's default (issue 18, item 5)
    helped = run(capsys, ["perft", "--help"])
    assert helped.code == 0 and "(default: 30)" in " ".join(helped.out.split())
    written = tmp_path / "tree.dot"
    built = run(capsys, ["graph", str(position), "--out", str(written), "--max-nodes",
                         str(10**9), "--max-seconds", "0.001"])
    assert built.code == 2 and "time limit of 0.001 s reached" in built.err
    assert not written.exists()
