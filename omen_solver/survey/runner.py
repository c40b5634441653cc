"""Running a survey's deals on Dask, or in this process.

Deals are independent tasks, grouped in batches (one Dask task per batch). By default a
:class:`dask.distributed.LocalCluster` of worker processes is started on this machine and
stopped at the end; ``scheduler`` connects to an existing cluster instead (``dask scheduler`` /
``dask worker``), which must be able to import ``omen_solver``. ``workers=0`` runs in this
process without Dask. A window of batches is in flight at a time, so a survey of millions of
deals holds only that many tasks. Dask reruns the tasks of a worker that dies; the store keeps
one record per deal whatever arrives twice.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from itertools import islice
from pathlib import Path
from typing import Any, Final

from omen_solver.survey.analysis import SurveyConfig, analyse_batch
from omen_solver.survey.store import ResultStore

__all__ = ["DEFAULT_BATCH", "RESULTS_FILE", "pending_items", "run_survey", "warm_worker"]

DEFAULT_BATCH: Final = 4
"""Deals per task: a few, so that a lost worker costs little and progress stays smooth."""
RESULTS_FILE: Final = "deals.jsonl"

Item = tuple[int, int]
Tick = Callable[[int], None]
"""Called with the number of deals just recorded."""


def pending_items(config: SurveyConfig, store: ResultStore) -> list[Item]:
    """The deals ``(players, index)`` not yet in the store, in survey order."""
    return [
        (players, index)
        for players in config.players
        for index in range(config.deals)
        if not store.done(f"{players}p-{index}")
    ]


def warm_worker() -> None:
    """Import the solver and the search kernel in a worker process, once, before its first task
    (the tasks' timings then measure solving, not importing)."""
    import omen_solver.omens.kernel.solve
    import omen_solver.survey.analysis  # noqa: F401


def _batches(items: list[Item], size: int) -> Iterator[list[Item]]:
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
) -> ResultStore:
    """Analyse every deal of ``config`` not yet in ``out/deals.jsonl``; return the store.

    ``workers``: worker processes of the local cluster (default: one per core); 0 runs in this
    process. An interrupt (``KeyboardInterrupt``) cancels the tasks and stops the cluster; the
    results file keeps every batch recorded before it. ``timeout`` (seconds, on Dask) bounds
    the cluster's start-up and, separately, the wait for the results: past it an error is
    raised (:class:`TimeoutError`, or :class:`OSError` when no cluster could be reached), with
    the same clean-up (the searches themselves are bounded by the survey's budget).
    """
    store = store or ResultStore(out / RESULTS_FILE, config)
    items = pending_items(config, store)
    batches = _batches(items, max(1, batch))
    record = _recorder(store, tick)
    if scheduler is None and workers == 0:
        for group in batches:
            record(analyse_batch(config, group))
        return store
    with _client(workers, scheduler, timeout) as client:
        _run_on(client, config, batches, record, timeout)
    return store


def _recorder(store: ResultStore, tick: Tick | None) -> Callable[[list[dict[str, Any]]], None]:
    def record(records: list[dict[str, Any]]) -> None:
        added = store.add(records)
        if tick is not None:
            tick(added)

    return record


def _run_on(
    client: Any,
    config: SurveyConfig,
    batches: Iterator[list[Item]],
    record: Callable[[list[dict[str, Any]]], None],
    timeout: float | None,
) -> None:
    from distributed import as_completed

    client.run(warm_worker)
    window = max(4, 4 * sum(client.nthreads().values()))
    futures = [client.submit(analyse_batch, config, group, pure=False)
               for group in islice(batches, window)]
    queue = as_completed(futures, loop=client.loop,  # type: ignore[no-untyped-call]
                         timeout=timeout)
    try:
        for future in queue:
            record(future.result())
            future.release()
            following = next(batches, None)
            if following is not None:
                queue.add(client.submit(  # type: ignore[no-untyped-call]
                    analyse_batch, config, following, pure=False))
    except BaseException:
        client.cancel(list(queue.futures))
        raise


@contextmanager
def _client(workers: int | None, scheduler: str | None,
            timeout: float | None = None) -> Iterator[Any]:
    """A Dask client on ``scheduler``, or on a local cluster closed on exit (interrupt too)."""
    from distributed import Client, LocalCluster

    connect: Any = Client
    local: Any = LocalCluster
    waits: dict[str, Any] = {} if timeout is None else {"timeout": timeout}

    if scheduler is not None:
        client = connect(scheduler, set_as_default=False, **waits)
        try:
            yield client
        finally:
            client.close()
        return
    count = workers if workers is not None else (os.cpu_count() or 1)
    cluster: Any = local(
        n_workers=count,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        silence_logs=logging.ERROR,
        **waits,
    )
    try:
        client = connect(cluster, set_as_default=False, **waits)
        try:
            yield client
        finally:
            client.close()
    finally:
        cluster.close()
