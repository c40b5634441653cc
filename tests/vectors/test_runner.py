"""``omen-solver vectors check``: the shipped set passes through this library's own adapter;
the example Node.js engine passes what it supports; mismatches, dead, slow and garbled engines
and bad input are reported as the docs say (docs/vectors.md), with the exit codes of the
brief (0 pass, 1 mismatches, 2 bad input)."""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from omen_solver.cli import main
from omen_solver.vectors.engine import Adapter, serve

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "vectors"
EXAMPLE_ENGINE = SHIPPED / "adapters" / "example-omens-engine.js"
SELF = f"{shlex.quote(sys.executable)} -m omen_solver vectors engine"


def _fake(tmp_path: Path, body: str) -> str:
    """An engine written in Python for one test: ``body`` answers a parsed request ``r``."""
    script = tmp_path / "fake_engine.py"
    script.write_text(
        "import json, sys, time\n"
        "sys.path.insert(0, " + repr(str(ROOT)) + ")\n"
        "from omen_solver.vectors.engine import Adapter\n"
        "real = Adapter()\n"
        "for line in sys.stdin:\n"
        "    r = json.loads(line)\n"
        "    answer = {'id': r['id'], 'ok': True, **real.handle(r)}\n"
        + "".join(f"    {row}\n" for row in body.strip().splitlines())
        + "    print(json.dumps(answer), flush=True)\n",
        encoding="utf-8",
    )
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(script))}"


def _one_set(tmp_path: Path, game: str = "omens/rulebook", name: str = "examples",
             count: int = 3) -> Path:
    data = json.loads((SHIPPED / game / f"{name}.json").read_text(encoding="utf-8"))
    data["vectors"] = data["vectors"][:count]
    folder = tmp_path / "vectors"
    folder.mkdir()
    (folder / f"{name}.json").write_text(json.dumps(data), encoding="utf-8")
    return folder


@pytest.mark.parametrize("where", ["omens/rulebook/examples.json",
                                   "omens/rulebook/witnesses.json", "omen"])
def test_the_shipped_vectors_pass_through_this_librarys_adapter(
    capsys: pytest.CaptureFixture[str], where: str
) -> None:
    """This library's engine, switching settings as each vector asks, plays every vector and
    passes (every file of both suites: the slow tier)."""
    status = main(["vectors", "check", str(SHIPPED / where), "--engine", SELF, "--json"])
    report = json.loads(capsys.readouterr().out)
    assert status == 0, report["failures"][:3]
    assert report["failed"] == report["skipped"] == 0
    assert report["passed"] == report["vectors"] > 30


def _share_played(report: dict[str, Any], suite: str) -> float:
    skipped = {item["vector"] for item in report["skipped_vectors"]}
    ids = [v["id"] for name in ("examples", "witnesses", "enumerated", "random")
           for v in json.loads((SHIPPED / "omens" / suite / f"{name}.json").read_text(
               encoding="utf-8"))["vectors"]]
    return sum(vector not in skipped for vector in ids) / len(ids)


@pytest.mark.parametrize("where", ["gamepark", pytest.param("", marks=pytest.mark.slow)],
                         ids=["its-suite", "both-suites"])
def test_an_engine_fixed_to_gamepark_plays_most_of_the_suites(
    capsys: pytest.CaptureFixture[str], where: str
) -> None:
    """This library's engine with the gamepark preset built in (not switchable) declares it,
    is sent only the vectors that hold under it, passes all of them, and plays at least half
    of each suite: nearly all of its own, and of the rulebook suite what the two presets
    agree on (docs/omens-options.md: they differ in four options)."""
    engine = f"{SELF} --preset gamepark"
    status = main(["vectors", "check", str(SHIPPED / "omens" / where), "--engine", engine,
                   "--json"])
    report = json.loads(capsys.readouterr().out)
    assert status == 0, report["failures"][:3]
    assert report["options"] == {"omens": "preset gamepark"}
    assert report["failed"] == 0 and report["passed"] == report["played"]
    assert report["played"] >= report["vectors"] / 2
    assert _share_played(report, "gamepark") >= 0.9
    if not where:
        assert _share_played(report, "rulebook") >= 0.5
    assert all(reason.startswith("its expectations change with ")
               for reason in report["skip_reasons"])


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["", " --preset rulebook", " --preset gamepark"])
def test_every_shipped_vector_that_holds_passes_for_each_preset(
    capsys: pytest.CaptureFixture[str], engine: str
) -> None:
    status = main(["vectors", "check", str(SHIPPED), "--engine", SELF + engine, "--json"])
    report = json.loads(capsys.readouterr().out)
    assert status == 0, report["failures"][:3]
    assert report["failed"] == 0 and report["played"] >= report["vectors"] / 2


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
@pytest.mark.parametrize("where", ["omens/rulebook/examples.json",
                                   pytest.param("", marks=pytest.mark.slow)],
                         ids=["examples", "every-vector"])
def test_the_example_node_engine_passes_what_holds_under_its_preset(
    capsys: pytest.CaptureFixture[str], where: str
) -> None:
    """The example engine (the rulebook preset, every rule) sets up every vector that holds
    under its settings and passes it; the others are skipped with the reason (docs/vectors.md:
    the whole folder, with the default --min-played, passes as written: the docs' test)."""
    command = f"node {shlex.quote(str(EXAMPLE_ENGINE))}"
    status = main(["vectors", "check", str(SHIPPED / where), "--engine", command, "--json"])
    report = json.loads(capsys.readouterr().out)
    assert status == 0, report["failures"][:3]
    assert report["passed"] == report["played"] >= report["vectors"] / 2
    reasons = {item["reason"] for item in report["skipped_vectors"]}
    assert not any(reason.startswith("unsupported") for reason in reasons)
    if not where:
        assert "the engine does not play omen" in reasons


def test_a_wrong_legal_list_is_reported_with_vector_step_and_rule_ids(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An engine that forgets the last legal action of every list."""
    engine = _fake(tmp_path, """
if r['cmd'] == 'legal' and len(answer['legal']) > 1:
    answer['legal'] = answer['legal'][:-1]
""")
    folder = _one_set(tmp_path)
    status = main(["vectors", "check", str(folder), "--engine", engine])
    out = capsys.readouterr().out
    assert status == 1
    assert "FAIL omens.example.worked-example" in out
    assert "after the setup: legal actions:" in out
    assert "missing from the engine" in out
    assert "failures by rule id" in out and "bout.turn" in out
    assert "played 3 of 3 vectors: 0 passed, 3 failed" in out


def test_a_wrong_state_is_reported_field_by_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An engine that gets the next leader wrong (rules 000, "Game Sequence": the bout's
    winner leads the next bout)."""
    engine = _fake(tmp_path, """
if r['cmd'] == 'state':
    answer['state']['next_leader'] = 1
""")
    folder = _one_set(tmp_path, count=2)
    status = main(["vectors", "check", str(folder), "--engine", engine, "--json"])
    report = json.loads(capsys.readouterr().out)
    assert status == 1
    first = report["failures"][0]
    assert first["vector"] == "omens.example.worked-example"
    mismatch = first["mismatches"][0]
    assert (mismatch["step"], mismatch["action"], mismatch["what"]) == (7, "6:19",
                                                                        "state.next_leader")
    assert (mismatch["expected"], mismatch["actual"]) == (5, 1)


def test_unsupported_setups_are_skipped_not_failed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    engine = _fake(tmp_path, """
if r['cmd'] == 'setup':
    answer = {'id': r['id'], 'ok': False, 'unsupported': True, 'error': 'no Secret here'}
""")
    status = main(["vectors", "check", str(_one_set(tmp_path)), "--engine", engine,
                   "--min-played", "0"])
    out = capsys.readouterr().out
    assert status == 0
    assert "skipped 3: unsupported: no Secret here" in out and "0 failed; 3 skipped" in out
    assert out.startswith("played 0 of 3 vectors")
    assert main(["vectors", "check", str(tmp_path / "vectors"), "--engine", engine]) == 1
    out = capsys.readouterr().out
    assert "FAIL: played 0 of 3 vectors, fewer than --min-played 2 (the engine answered " \
        "'unsupported' to 3 setups). Make the engine set up more of them" in out
    assert "give --min-played N to accept fewer" in out


def test_too_few_for_settings_built_in_says_how_to_make_a_suite_for_them(
    capsys: pytest.CaptureFixture[str]
) -> None:
    """An engine whose built-in settings (here The Absolute resolved at the end of the bout,
    option absolute_timing) leave too many vectors out is told how to make a suite for its
    own settings (docs/vectors.md, "A suite for your own settings")."""
    folder = SHIPPED / "omens" / "rulebook" / "examples.json"
    total = len(json.loads(folder.read_text(encoding="utf-8"))["vectors"])
    status = main(["vectors", "check", str(folder), "--engine",
                   f"{SELF} --rule absolute_timing=end", "--min-played", str(total)])
    out = capsys.readouterr().out
    assert status == 1
    assert "do not hold under the settings it declares). Make the engine" in out
    assert ("make a suite for the settings it declares (omen-solver vectors export --game "
            "omens --out DIR --preset NAME --rule NAME=SETTING), or give --min-played N") in out


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("if r['cmd'] == 'play':\n    sys.exit(3)", "the engine exited with status 3"),
        ("if r['cmd'] == 'legal':\n    print('thinking...', flush=True)",
         "a line that is not JSON: 'thinking...'"),
        ("if r['cmd'] == 'legal':\n    answer['id'] = 99", "expected a JSON object with"),
        ("if r['cmd'] == 'legal':\n    time.sleep(60)", "no answer to 'legal' within 3 s"),
    ],
    ids=["dies", "garbage", "wrong-id", "hangs"],
)
def test_engine_failures_are_named_and_the_engine_restarted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str, message: str
) -> None:
    engine = _fake(tmp_path, body)
    folder = _one_set(tmp_path, count=2)
    # The fake engine imports the library before it answers 'hello' (over half a second on a
    # busy machine), so the limit leaves room for that; the hanging engine is killed at it.
    status = main(["vectors", "check", str(folder), "--engine", engine, "--timeout", "3"])
    out = capsys.readouterr().out
    assert status == 1
    assert message in out
    assert "2 failed" in out  # the second vector ran on a restarted engine


def test_the_engine_stderr_is_shown_when_it_dies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    engine = _fake(tmp_path, "if r['cmd'] == 'play':\n    raise RuntimeError('out of cheese')")
    assert main(["vectors", "check", str(_one_set(tmp_path, count=1)), "--engine", engine]) == 1
    assert "RuntimeError: out of cheese" in capsys.readouterr().out


def test_bad_input_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _one_set(tmp_path, count=1)
    assert main(["vectors", "check", str(folder), "--engine", "no-such-engine-here"]) == 2
    assert "cannot start 'no-such-engine-here'" in capsys.readouterr().err
    refuses = _fake(tmp_path, "answer = {'id': r['id'], 'ok': False, 'error': 'go away'}")
    assert main(["vectors", "check", str(folder), "--engine", refuses]) == 2
    assert "refused 'hello': 'go away'" in capsys.readouterr().err
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "set.json").write_text('{"format": "omen-solver-vectors", "version": 1,\n',
                                     encoding="utf-8")
    assert main(["vectors", "check", str(broken), "--engine", SELF]) == 2
    assert "set.json: line 2, column 1: not valid JSON" in capsys.readouterr().err
    data = json.loads((folder / "examples.json").read_text(encoding="utf-8"))
    data["vectors"][0]["steps"][0]["legal"] = "1:24"
    (folder / "examples.json").write_text(json.dumps(data), encoding="utf-8")
    assert main(["vectors", "check", str(folder), "--engine", SELF]) == 2
    assert "$.vectors[0].steps[0].legal" in capsys.readouterr().err
    assert main(["vectors", "check", str(tmp_path / "none"), "--engine", SELF]) == 2
    assert main(["vectors", "check", str(SHIPPED), "--engine", SELF, "--match", "zzz"]) == 2
    with pytest.raises(SystemExit) as refused:  # refused as the options are read
        main(["vectors", "check", str(SHIPPED), "--engine", SELF, "--timeout", "0"])
    assert refused.value.code == 2


def test_the_selection_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["vectors", "check", str(SHIPPED / "omen" / "witnesses.json"), "--engine",
                   SELF, "--game", "omen", "--match", "war_trigger", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert status == 0 and report["passed"] == 6
    engine = _fake(tmp_path, "if r['cmd'] == 'legal':\n    answer['to_act'] = 9")
    status = main(["vectors", "check", str(_one_set(tmp_path, count=5)), "--engine", engine,
                   "--max-failures", "2", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert status == 1 and report["failed"] == 2
    assert report["stopped"] == "2 failure(s) reached (--max-failures)"


def test_the_adapter_answers_bad_requests_with_errors() -> None:
    adapter = Adapter()
    lines = [
        "not json",
        json.dumps({"id": 1, "cmd": "legal"}),
        json.dumps({"id": 2, "cmd": "dance"}),
        json.dumps({"id": 3, "cmd": "setup", "game": "chess", "options": {}, "position": {}}),
        json.dumps({"id": 4, "cmd": "setup", "game": "omens", "options": {"settings": {}},
                    "position": {"players": 9}}),
        json.dumps({"id": 5, "cmd": "hello", "protocol": 7}),
        json.dumps({"id": 6, "cmd": "quit"}),
        json.dumps({"id": 7, "cmd": "hello"}),
    ]

    class Lines:
        def __init__(self) -> None:
            self.written: list[dict[str, Any]] = []

        def write(self, text: str) -> None:
            self.written.append(json.loads(text))

        def flush(self) -> None:
            pass

    out = Lines()
    assert serve(iter(line + "\n" for line in lines), out) == 0  # type: ignore[arg-type]
    answers = out.written
    assert len(answers) == 7  # nothing after quit
    assert [a["ok"] for a in answers] == [False] * 6 + [True]
    assert "not JSON" in answers[0]["error"]
    assert "send 'setup' first" in answers[1]["error"]
    assert "unknown cmd 'dance'" in answers[2]["error"]
    assert "unknown game 'chess'" in answers[3]["error"]
    assert "'teams'" in answers[4]["error"]
    assert "protocol 7" in answers[5]["error"]
    assert adapter.state is None


def test_an_engine_with_fixed_settings_plays_only_what_holds_under_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """This library's engine fixed to the gamepark preset declares it in ``hello``. A vector
    whose ``holds_under`` leaves out a gamepark setting is skipped with that option; one
    without ``holds_under`` holds only under its recorded settings (docs/omens-options.md:
    gamepark has law_when_last = skip); the others are played under the engine's settings."""
    folder = _one_set(tmp_path, count=4)
    path = folder / "examples.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["vectors"][0]["holds_under"]["presets"] = ["rulebook"]
    data["vectors"][0]["holds_under"]["settings"]["law_when_last"] = ["choose"]
    del data["vectors"][1]["holds_under"]
    path.write_text(json.dumps(data), encoding="utf-8")
    engine = f"{SELF} --preset gamepark"
    status = main(["vectors", "check", str(folder), "--engine", engine, "--json"])
    report = json.loads(capsys.readouterr().out)
    assert status == 0
    assert report["options"] == {"omens": "preset gamepark"}
    assert (report["played"], report["passed"], report["skipped"]) == (2, 2, 2)
    assert [item["reason"] for item in report["skipped_vectors"]] == [
        "its expectations change with law_when_last = skip (they hold with choose)",
        "recorded with law_when_last = choose (the engine: skip) and no 'holds_under'",
    ]


def test_settings_declared_in_hello_are_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _one_set(tmp_path, count=1)
    for declared, message in (
        ({"omens": {"preset": "nope"}}, "hello: options.omens.preset: unknown preset 'nope'"),
        ({"omens": {"preset": "gamepark", "overrides": {"luck_timing": "never"}}},
         "unknown setting 'never'"),
        ({"omens": {"settings": {"luck_timing": "after_return"}}},
         "hello: options.omens.settings: missing 'absolute_timing'"),
        ("sometimes", "hello: options: expected \"switchable\" or an object by game"),
    ):
        engine = _fake(tmp_path, f"if r['cmd'] == 'hello':\n    answer['options'] = {declared!r}")
        assert main(["vectors", "check", str(folder), "--engine", engine]) == 2
        assert message in capsys.readouterr().err
