"""Background searches of the server: started, watched, streamed and cancelled.

Each job is a child process (:mod:`omen_solver.web.worker`) with a time limit (its budget,
and a kill a little after it in case a search overruns) and a memory limit. Its news are kept
in order; the page reads them as server-sent events, a script by polling. A job ends when it
finishes, when its time is up, when it is cancelled (the page changed position, or closed:
its event stream dropped) and when the server stops.
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import IO, Any, Final

from omen_solver.errors import JobError, OptionError, RequestError, shown

__all__ = ["Busy", "Job", "JobError", "Jobs", "Limits"]

MIN_MEMORY_MB: Final = 256
"""The least memory cap a search process may have: the interpreter and the library take about
100 MiB of address space before the search starts."""

GRACE_SECONDS: Final = 3.0
"""How long past its time limit a job may run before it is killed (reading the position and
reporting take a moment beyond the search)."""


class Busy(JobError):
    """Every search slot is taken (answered 429)."""


@dataclass(frozen=True)
class Limits:
    """What one request may spend."""

    max_seconds: float = 30.0
    """The most seconds a search may take (a request asks for less or gets this)."""
    default_seconds: float = 10.0
    memory_mb: int | None = 2048
    """The address-space cap of a search process, in MiB (``None``: no cap)."""
    max_jobs: int = 2
    """Searches running at once (the machine's cores are shared)."""
    max_body_bytes: int = 256 * 1024
    """The largest request body read."""

    def __post_init__(self) -> None:
        for name, least in (("max_jobs", 1), ("max_body_bytes", 1)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                raise OptionError(f"{name}: at least {least}, not {shown(value)}")
        if self.memory_mb is not None and (isinstance(self.memory_mb, bool) or not isinstance(
                self.memory_mb, int) or self.memory_mb < MIN_MEMORY_MB):
            raise OptionError(f"memory_mb: at least {MIN_MEMORY_MB} MiB (a search process "
                              f"needs that much to start), not {shown(self.memory_mb)}")
        for name in ("max_seconds", "default_seconds"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not (
                    0 < value < float("inf")):
                raise OptionError(f"{name}: a positive number of seconds, not {shown(value)}")


@dataclass
class Job:
    id: str
    kind: str
    seconds: float
    process: subprocess.Popen[str]
    started: float = field(default_factory=time.monotonic)
    events: list[dict[str, Any]] = field(default_factory=list)
    finished: bool = False
    cancelled: bool = False
    changed: threading.Condition = field(default_factory=threading.Condition)

    def public(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "seconds": self.seconds,
                "finished": self.finished, "cancelled": self.cancelled,
                "events": len(self.events)}

    def result(self) -> dict[str, Any] | None:
        """The last message, once finished."""
        return self.events[-1] if self.finished and self.events else None


class Jobs:
    """The running and recent jobs of one server."""

    KEEP: Final = 64
    """Finished jobs kept for their results."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()

    def seconds(self, asked: object) -> float:
        """The time a request gets: what it asks, within the server's cap (bad input:
        :class:`RequestError`, answered 400)."""
        if asked is None:
            return self.limits.default_seconds
        if isinstance(asked, bool) or not isinstance(asked, int | float) or not asked > 0:
            raise RequestError(f"'seconds': expected a positive number of seconds, not "
                               f"{shown(asked)}")
        return float(min(asked, self.limits.max_seconds))

    def running(self) -> list[Job]:
        with self._lock:
            return [job for job in self._jobs.values() if not job.finished]

    def start(self, kind: str, payload: dict[str, Any], seconds: float) -> Job:
        with self._lock:
            busy = [job for job in self._jobs.values() if not job.finished]
            if len(busy) >= self.limits.max_jobs:
                raise Busy(
                    f"{len(busy)} searches are running, the most this server runs at once "
                    f"(serve --max-searches); cancel one or wait"
                )
            # Not a count: no one can name another client's search without being told its id.
            job_id = secrets.token_hex(8)
            # A fresh interpreter per job (never a fork of the server's threads); it reads
            # its job as one JSON line and answers in JSON lines.
            process = subprocess.Popen(
                [sys.executable, "-m", "omen_solver.web.worker"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                text=True, encoding="utf-8",
            )
            assert process.stdin is not None
            job_line = {"kind": kind, "payload": payload, "seconds": seconds,
                        "memory_mb": self.limits.memory_mb, "parent": os.getpid()}
            process.stdin.write(json.dumps(job_line) + "\n")
            process.stdin.close()
            job = Job(job_id, kind, seconds, process)
            self._jobs[job_id] = job
            self._forget_old()
        threading.Thread(target=self._watch, args=(job,), daemon=True,
                         name=f"watch search {job_id}").start()
        return job

    def _forget_old(self) -> None:
        done = [job_id for job_id, job in self._jobs.items() if job.finished]
        for job_id in done[: max(0, len(done) - self.KEEP)]:
            del self._jobs[job_id]

    def get(self, job_id: str) -> Job:
        with self._lock:
            job = self._jobs.get(job_id)
        if job is None:
            raise JobError(f"no search {job_id!r} on this server")
        return job

    def _watch(self, job: Job) -> None:
        """Read the job's news until its last message; a watchdog kills it past its time."""
        timer = threading.Timer(
            job.seconds + GRACE_SECONDS,
            lambda: self._kill(job, f"time limit of {job.seconds:g} s reached: the search "
                                    "was stopped"),
        )
        timer.daemon = True
        timer.start()
        output: IO[str] | None = job.process.stdout
        assert output is not None
        try:
            for line in output:
                try:
                    message = json.loads(line)
                except json.JSONDecodeError:
                    continue
                final = message.get("type") in ("done", "result", "error")
                self._add(job, message, final)
                if final:
                    break
        finally:
            timer.cancel()
            output.close()
            job.process.wait()
            if not job.finished:
                self._finish(job, {"type": "error", "error": _death(job.process)})

    def _add(self, job: Job, message: dict[str, Any], final: bool) -> None:
        """Append ``message`` to the job's news, unless the news already ended: a search
        cancelled or stopped at its limit may still have lines in its pipe, and its last
        message stays the one that said why it stopped."""
        with job.changed:
            if job.finished:
                return
            job.events.append(message)
            if final:
                job.finished = True
            job.changed.notify_all()

    def _finish(self, job: Job, message: dict[str, Any]) -> None:
        self._add(job, message, True)

    def _kill(self, job: Job, reason: str) -> None:
        with job.changed:
            if not job.finished:
                job.events.append({"type": "done", "status": "unknown", "reason": reason})
                job.finished = True
                job.changed.notify_all()
        if job.process.poll() is None:
            job.process.kill()

    def cancel(self, job_id: str) -> Job:
        job = self.get(job_id)
        if not job.finished:
            job.cancelled = True
            self._kill(job, "cancelled")
        return job

    def cancel_all(self) -> None:
        for job in self.running():
            self.cancel(job.id)

    def wait(self, job: Job, timeout: float) -> dict[str, Any]:
        """Block until ``job`` finishes (at most ``timeout`` seconds) and give its result."""
        end = time.monotonic() + timeout
        with job.changed:
            while not job.finished:
                left = end - time.monotonic()
                if left <= 0:
                    break
                job.changed.wait(left)
        if not job.finished:
            self._kill(job, f"time limit of {job.seconds:g} s reached: the search was stopped")
        result = job.result()
        assert result is not None
        return result


def _death(process: subprocess.Popen[str]) -> str:
    code = process.returncode
    if code is not None and code < 0:
        return f"the search process was stopped by signal {-code} (memory limit?)"
    return f"the search process ended without an answer (exit status {code})"
