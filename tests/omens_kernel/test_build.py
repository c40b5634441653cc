"""The compiled kernel's build is checked against the C sources beside it, so that a build
older than its sources (an editable install not rebuilt after the sources changed) is never
run in their place: it is refused with a message that says how to rebuild it, and the
pure-Python kernel, which gives the same answers, runs instead."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from omen_solver.omens.kernel import compiled
from omen_solver.omens.kernel.source_digest import SOURCES, digest


def _sources(folder: Path, text: str = "int x;") -> None:
    for name in SOURCES:
        (folder / name).write_text(f"/* {name} */ {text}\n")


def test_digest_changes_with_any_source(tmp_path: Path) -> None:
    _sources(tmp_path)
    before = digest(tmp_path)
    assert before is not None and len(before) == 16
    assert digest(tmp_path) == before
    (tmp_path / SOURCES[-1]).write_text("/* changed */\n")
    assert digest(tmp_path) not in (None, before)


def test_digest_without_every_source_is_none(tmp_path: Path) -> None:
    _sources(tmp_path)
    (tmp_path / SOURCES[1]).unlink()
    assert digest(tmp_path) is None


def test_a_build_from_other_sources_is_stale(tmp_path: Path) -> None:
    _sources(tmp_path)
    module = SimpleNamespace(__file__=str(tmp_path / "_ckernel.so"), SOURCE="0" * 16)
    message = compiled.stale_build(module)
    assert message is not None
    assert str(tmp_path / "_ckernel.c") in message and "pip install -e ." in message


def test_a_build_from_before_the_digest_is_stale(tmp_path: Path) -> None:
    _sources(tmp_path)
    message = compiled.stale_build(SimpleNamespace(__file__=str(tmp_path / "_ckernel.so")))
    assert message is not None and "before the digest was recorded" in message


def test_a_build_from_these_sources_or_without_sources_is_used(tmp_path: Path) -> None:
    _sources(tmp_path)
    current = SimpleNamespace(__file__=str(tmp_path / "_ckernel.so"), SOURCE=digest(tmp_path))
    assert compiled.stale_build(current) is None
    wheel = tmp_path / "wheel"
    wheel.mkdir()
    assert compiled.stale_build(SimpleNamespace(__file__=str(wheel / "_ckernel.so"))) is None
    assert compiled.stale_build(None) is None


@pytest.mark.skipif(not compiled.AVAILABLE, reason="the compiled kernel is not built")
def test_the_installed_build_matches_its_sources() -> None:
    """The build the suite runs is the one of these sources (``make test`` rebuilds it)."""
    from omen_solver.omens.kernel import _ckernel  # type: ignore[attr-defined]

    assert compiled.STALE is None
    sources = digest(Path(_ckernel.__file__).parent)
    if sources is not None:  # an editable install: the sources are beside the build
        assert sources == _ckernel.SOURCE
