"""Running a survey's deals (or a balance run's games) on Dask, or in this process.

Records are independent tasks, grouped in batches (one Dask task per batch). By default a
:class:`dask.distributed.LocalCluster` of worker processes is started on this machine and
stopped at the end; ``scheduler`` connects to an existing cluster instead (``dask scheduler`` /
``dask worker``), which must be able to import ``omen_solver``. ``workers=0`` runs in this
process without Dask. A window of batches is in flight at a time, so a run of millions of
records holds only that many tasks, and the results file (:mod:`omen_solver.survey.store`)
keeps only an index of what is done.

At the edges (``docs/survey.md``, "Faults"):

* **start-up**: a worker that dies while the local cluster starts makes the start fail; the
  cluster is closed and started again (:data:`START_ATTEMPTS` times in all). An interrupt
  during the start is held until the cluster is up or has failed, then the cluster is closed
  and the run ends as interrupted (no half-started cluster is left to the interpreter's exit);
* **--scheduler**: an unknown scheme is refused before anything is tried
  (:class:`SchedulerError`); the address must answer as a Dask scheduler within the connect
  timeout (a service that answers something else, or nothing, is named as such), and the
  cluster must have a worker within the workers timeout (:class:`NoWorkers`). While the run
  goes on, a cluster left without workers for that long ends it the same way;
* **workers that die** mid-run: Dask reruns their tasks; the store keeps one record per id
  whatever arrives twice.
"""

from __future__ import annotations

import asyncio
import heapq
import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from itertools import islice
from pathlib import Path
from typing import Any, Final, TypeVar

from omen_solver.core.extras import require
from omen_solver.errors import ClusterError, NoWorkers, SchedulerError
from omen_solver.survey.analysis import SurveyConfig, analyse_batch
from omen_solver.survey.store import ResultStore

__all__ = [
    "CONNECT_TIMEOUT",
    "DEFAULT_BATCH",
    "RESULTS_FILE",
    "START_ATTEMPTS",
    "WORKERS_TIMEOUT",
    "pending_items",
    "run_survey",
    "run_tasks",
    "warm_worker",
]

WORKER_PRELOAD: Final = "omen_solver.survey.dask_worker"
"""What every worker of the local cluster loads as it starts: Ctrl-C is the command's."""

DEFAULT_BATCH: Final = 4
"""Records per task: a few, so that a lost worker costs little and progress stays smooth."""
RESULTS_FILE: Final = "deals.jsonl"
CONNECT_TIMEOUT: Final = 30.0
"""Seconds ``--scheduler`` may take to answer as a Dask scheduler."""
WORKERS_TIMEOUT: Final = 120.0
"""Seconds a cluster may have no worker (at the start, or while tasks wait) before the run
ends (:class:`NoWorkers`)."""
START_ATTEMPTS: Final = 3
"""Starts of the local cluster tried when workers die while it starts."""
POLL: Final = 1.0
"""Seconds between checks that the cluster still has workers while tasks wait."""

Item = TypeVar("Item")
Tick = Callable[[int], None]
"""Called with the number of records just stored."""
Work = Callable[[Any, list[Any]], list[dict[str, Any]]]
"""``work(config, batch)``: the records of a batch (a Dask task)."""


def pending_items(config: SurveyConfig, store: ResultStore) -> Iterator[tuple[int, int]]:
    """The deals ``(players, index)`` not yet in the store, in survey order: the player counts
    interleaved in proportion to their deals, so that a run stopped part-way has surveyed
    every player count alike (generated one at a time: nothing is listed in memory)."""
    streams = [_share_order(players, config.deals_for(players)) for players in config.players]
    for _, players, index in heapq.merge(*streams):
        if not store.done(f"{players}p-{index}"):
            yield players, index


def _share_order(players: int, count: int) -> Iterator[tuple[float, int, int]]:
    for index in range(count):
        yield index / count, players, index


def warm_worker() -> None:
    """Import the solver and the search kernel in a worker process, once, before its first task
    (the tasks' timings then measure solving, not importing)."""
    import omen_solver.omens.kernel.solve
    import omen_solver.survey.analysis  # noqa: F401


def _batches(items: Iterable[Item], size: int) -> Iterator[list[Item]]:
    iterator = iter(items)
    while batch := list(islice(iterator, size)):
        yield batch


def run_survey(
    config: SurveyConfig,
    out: Path,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    batch: int = DEFAULT_BATCH,
    tick: Tick | None = None,
    store: ResultStore | None = None,
    timeout: float | None = None,
    wait: bool = False,
    connect_timeout: float = CONNECT_TIMEOUT,
    workers_timeout: float = WORKERS_TIMEOUT,
) -> ResultStore:
    """Analyse every deal of ``config`` not yet in ``out/deals.jsonl``; return the store
    (closed: its records stay readable).

    ``workers``: worker processes of the local cluster (default: one per core); 0 runs in this
    process. ``store``: a store already open on the folder (its lock held by the caller, who
    closes it); otherwise one is opened here (``wait``: wait for another writer of the folder
    to finish instead of refusing at once) and closed at the end. An interrupt
    (``KeyboardInterrupt``) cancels the tasks and stops the cluster; the results file keeps
    every batch recorded before it. ``timeout`` (seconds, on Dask) bounds the cluster's start-up
    and, separately, the wait for the results: past it :class:`TimeoutError` is raised, with the
    same clean-up (the searches themselves are bounded by the survey's budget).
    """
    own = store is None
    if store is None:
        store = ResultStore(out / RESULTS_FILE, config, wait=wait)
    try:
        run_tasks(config, store, pending_items(config, store), analyse_batch,
                  workers=workers, scheduler=scheduler, batch=batch, tick=tick, timeout=timeout,
                  connect_timeout=connect_timeout, workers_timeout=workers_timeout)
    finally:
        if own:
            store.close()
    return store


def run_tasks(
    config: Any,
    store: ResultStore,
    items: Iterable[Any],
    work: Work,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    batch: int = DEFAULT_BATCH,
    tick: Tick | None = None,
    timeout: float | None = None,
    connect_timeout: float = CONNECT_TIMEOUT,
    workers_timeout: float = WORKERS_TIMEOUT,
) -> None:
    """Run ``work(config, batch)`` on every batch of ``items`` and store the records."""
    batches = _batches(items, max(1, batch))

    def record(records: list[dict[str, Any]]) -> None:
        added = store.add(records)
        if tick is not None:
            tick(added)

    if scheduler is None and workers == 0:
        for group in batches:
            record(work(config, group))
        return
    require("distributed", "survey", "a run on a Dask cluster", "run in this process (workers=0)")
    with _client(workers, scheduler, timeout, connect_timeout, workers_timeout) as client:
        _run_on(client, config, work, batches, record, timeout, workers_timeout)


def _run_on(
    client: Any,
    config: Any,
    work: Work,
    batches: Iterator[list[Any]],
    record: Callable[[list[dict[str, Any]]], None],
    timeout: float | None,
    workers_timeout: float,
) -> None:
    # Warming is only a convenience: a worker that dies meanwhile is restarted by its nanny.
    client.run(warm_worker, on_error="ignore")
    window = max(4, 4 * sum(client.nthreads().values()))
    arrived = threading.Event()

    def submit(group: list[Any]) -> Any:
        future = client.submit(work, config, group, pure=False)
        future.add_done_callback(lambda _: arrived.set())
        return future

    flight = [submit(group) for group in islice(batches, window)]
    idle_since: float | None = None
    last = time.monotonic()
    try:
        while flight:
            arrived.wait(POLL)
            arrived.clear()
            done = [future for future in flight if future.done()]
            now = time.monotonic()
            if not done:
                if timeout is not None and now - last > timeout:
                    raise TimeoutError(f"no results for {timeout:g} s")
                if client.nthreads():
                    idle_since = None
                elif idle_since is None:
                    idle_since = now
                elif now - idle_since > workers_timeout:
                    raise NoWorkers(
                        f"the Dask cluster has had no worker for {workers_timeout:g} s"
                    )
                continue
            last = now
            flight = [future for future in flight if not future.done()]
            for future in done:
                record(future.result())
                future.release()
                following = next(batches, None)
                if following is not None:
                    flight.append(submit(following))
    except BaseException:
        client.cancel(flight)
        raise


# -- clusters -----------------------------------------------------------------------------------


@contextmanager
def _quiet() -> Iterator[None]:
    """Dask's own log lines off (the run reports what matters in its own words)."""
    names = ("distributed", "tornado", "asyncio")
    loggers = [logging.getLogger(name) for name in names]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


@contextmanager
def _held_interrupts() -> Iterator[list[int]]:
    """Hold SIGINT (and SIGTERM) while the block runs: the block is not cut in the middle of
    Dask's start-up; the list says whether one came, for the caller to act on after."""
    came: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield came
        return

    def hold(number: int, frame: Any) -> None:
        came.append(number)

    previous = {number: signal.signal(number, hold) for number in (signal.SIGINT,)}
    try:
        yield came
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


@contextmanager
def _workers_leave_interrupts() -> Iterator[None]:
    """While the block runs, the local cluster's worker processes ignore Ctrl-C from their
    first instruction: a terminal's Ctrl-C reaches the whole process group, and a worker that
    stopped on its own would print its interrupted event loop over the command's one line
    (the command stops the cluster itself).

    The workers are forked by a fork server (``multiprocessing``'s ``forkserver`` method)
    that this process starts with SIGINT ignored, an ignoring that each worker forked from it
    keeps; every worker also loads :mod:`omen_solver.survey.dask_worker`, which says so again.
    Starting the fork server takes a few milliseconds, during which a Ctrl-C for this process
    alone would be lost: a Ctrl-C of the terminal reaches the fork server's parent again at
    once."""
    import multiprocessing.forkserver

    import dask
    from distributed import utils

    context: Any = utils.get_mp_context
    with dask.config.set({"distributed.worker.multiprocessing-method": "forkserver"}):
        context()  # Dask's modules preloaded by the fork server
        if threading.current_thread() is threading.main_thread():
            previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
            try:
                multiprocessing.forkserver.ensure_running()
            finally:
                signal.signal(signal.SIGINT, previous)
        yield


def _start_local(count: int, timeout: float | None) -> Any:
    from distributed import LocalCluster

    local: Any = LocalCluster
    waits: dict[str, Any] = {} if timeout is None else {"timeout": timeout}
    failure: BaseException | None = None
    for attempt in range(1, START_ATTEMPTS + 1):
        cluster: Any = None
        with _held_interrupts() as came:
            try:
                cluster = local(
                    n_workers=count, threads_per_worker=1, processes=True,
                    dashboard_address=None, silence_logs=logging.CRITICAL,
                    preload=[WORKER_PRELOAD], **waits,
                )
            except Exception as problem:
                failure = problem
        if came:
            if cluster is not None:
                with _held_interrupts():
                    cluster.close()
            raise KeyboardInterrupt
        if cluster is not None:
            return cluster
        if attempt < START_ATTEMPTS:
            print(f"omen-solver: the local Dask cluster failed to start ({_short(failure)}); "
                  f"starting it again (attempt {attempt + 1} of {START_ATTEMPTS})",
                  file=sys.stderr)
    raise ClusterError(f"the local Dask cluster failed to start {START_ATTEMPTS} times: "
                       f"{_short(failure)}")


def _short(problem: BaseException | None) -> str:
    if problem is None:
        return "no reason given"
    cause = problem.__cause__
    text = str(problem) or type(problem).__name__
    if cause is not None and str(cause) and str(cause) not in text:
        text += f": {cause}"
    return text.splitlines()[0][:200]


def check_scheduler_address(address: str) -> None:
    """Refuse an address whose scheme Dask does not know (:class:`SchedulerError`)."""
    from distributed.comm import registry

    scheme, separator, rest = address.partition("://")
    if not separator:
        scheme, rest = "tcp", address
    if scheme not in registry.backends:
        known = ", ".join(f"{name}://" for name in sorted(registry.backends))
        raise SchedulerError(f"--scheduler {address}: unknown scheme {scheme!r}; a Dask "
                             f"scheduler's address starts with one of {known}, e.g. "
                             "tcp://10.0.0.5:8786")
    if not rest.strip():
        raise SchedulerError(f"--scheduler {address}: no host after the scheme, e.g. "
                             "tcp://10.0.0.5:8786")


async def _probe(address: str, timeout: float) -> None:
    """Ask ``address`` who it is, all within ``timeout``: a Dask scheduler answers
    ``{"type": "Scheduler", ...}``."""
    from distributed.comm.core import connect as dask_connect

    connect: Any = dask_connect
    deadline = time.monotonic() + timeout
    comm = await connect(address, timeout=timeout)
    try:
        left = max(0.1, deadline - time.monotonic())
        await asyncio.wait_for(comm.write({"op": "identity", "reply": True}), left)
        left = max(0.1, deadline - time.monotonic())
        reply = await asyncio.wait_for(comm.read(), left)
    finally:
        comm.abort()
    if not isinstance(reply, dict) or reply.get("type") != "Scheduler":
        raise SchedulerError(f"--scheduler {address}: answers, but not as a Dask scheduler")


def probe_scheduler(address: str, timeout: float) -> None:
    """A scheduler at ``address`` that answers within ``timeout`` seconds, or
    :class:`SchedulerError` saying what answered instead."""
    check_scheduler_address(address)
    try:
        with _quiet():
            asyncio.run(asyncio.wait_for(_probe(address, timeout), timeout))
    except SchedulerError:
        raise
    except TimeoutError:
        raise SchedulerError(f"--scheduler {address}: no answer as a Dask scheduler within "
                             f"{timeout:g} s (--connect-timeout)") from None
    except OSError as problem:
        reason = str(problem).splitlines()[0][:200] if str(problem) else type(problem).__name__
        raise SchedulerError(f"--scheduler {address}: cannot connect ({reason})") from None
    except Exception as problem:  # what a service that is not Dask sends can fail anywhere
        raise SchedulerError(
            f"--scheduler {address}: answers, but not as a Dask scheduler (its reply could not "
            f"be read: {type(problem).__name__})"
        ) from None


@contextmanager
def _client(workers: int | None, scheduler: str | None, timeout: float | None,
            connect_timeout: float, workers_timeout: float) -> Iterator[Any]:
    """A Dask client on ``scheduler``, or on a local cluster closed on exit (interrupt too)."""
    from distributed import Client as DaskClient

    connect: Any = DaskClient
    if scheduler is not None:
        probe_scheduler(scheduler, connect_timeout)
        with _quiet():
            try:
                client = connect(scheduler, set_as_default=False, timeout=connect_timeout)
            except Exception as problem:
                raise SchedulerError(f"--scheduler {scheduler}: {_short(problem)}") from None
        try:
            _wait_for_workers(client, workers_timeout)
            yield client
        finally:
            with _quiet(), _held_interrupts():
                client.close()
        return
    count = workers if workers is not None else (os.cpu_count() or 1)
    with _quiet(), _workers_leave_interrupts():
        cluster = _start_local(count, timeout)
        try:
            client = connect(cluster, set_as_default=False,
                            **({} if timeout is None else {"timeout": timeout}))
            try:
                yield client
            finally:
                with _held_interrupts():
                    client.close()
        finally:
            with _held_interrupts():
                cluster.close()


def _wait_for_workers(client: Any, seconds: float) -> None:
    try:
        client.wait_for_workers(1, timeout=seconds)
    except TimeoutError:
        raise NoWorkers(f"the Dask cluster has no worker after {seconds:g} s "
                        "(--workers-timeout)") from None
