"""The language server's worker: lint runs one at a time in the main thread, where the
``file-timeout`` alarm can interrupt them, while the protocol runs in a second thread; a
newer edit of the same document interrupts a stale run."""

from __future__ import annotations

import logging
import signal
import threading
import time
from typing import Any, Callable, Dict, Optional, Tuple

INTERRUPT_REPEAT = 0.05  # seconds between the signals that interrupt a stale run
logger = logging.getLogger("nanlint.server")


class Cancelled(BaseException):
    """A newer edit made this run stale (a BaseException, like the engine's FileTimeout, so
    that no ``except Exception`` on the way swallows it)."""


class Worker:
    """Runs jobs one at a time in the main thread, the earliest due first.

    A job waits ``delay`` seconds (the debounce); a job submitted under the key of a waiting
    one replaces it, and under the key of the running one interrupts it (a signal raises
    Cancelled in the main thread, as the file-timeout alarm raises FileTimeout). Either way
    the superseded job's ``dropped`` is called (in the thread that submits the newer one, or
    in the main thread), so that a request that waits on it can still be answered.
    """

    def __init__(self) -> None:
        self._condition = threading.Condition()
        self._pending: Dict[str, Tuple[float, Callable[[], None], Optional[Callable]]] = {}
        self._running: Optional[str] = None
        self._dropped: Optional[Callable[[], None]] = None  # of the running job
        self._serial = 0  # of the running job
        self._cancel = -1  # the serial of the job to interrupt
        self._armed = False
        self._stopped = False
        self._interrupt = getattr(signal, "SIGUSR1", None)

    def submit(self, key: str, job: Callable[[], None], delay: float = 0.0,
               dropped: Optional[Callable[[], None]] = None) -> None:
        with self._condition:
            waiting = self._pending.pop(key, None)
            if waiting is not None and waiting[2] is not None:
                waiting[2]()
            self._pending[key] = (time.monotonic() + delay, job, dropped)
            if (key == self._running and self._interrupt is not None
                    and self._cancel != self._serial):
                self._cancel = self._serial
                threading.Thread(target=self._interrupt_job, args=(self._serial,),
                                 name="nanlint-interrupt", daemon=True).start()
            self._condition.notify()

    def _interrupt_job(self, serial: int) -> None:
        """Signal the main thread until the job ``serial`` has stopped: a signal that lands
        where exceptions are swallowed (a gc callback, a ``__del__``) is followed by another,
        as the file-timeout alarm repeats."""
        while True:
            with self._condition:
                if self._running is None or self._serial != serial:
                    return
            signal.pthread_kill(threading.main_thread().ident, self._interrupt)
            time.sleep(INTERRUPT_REPEAT)

    def stop(self) -> None:
        with self._condition:
            self._stopped = True
            self._condition.notify()

    def _raise_cancelled(self, signum: int, frame: Any) -> None:
        if self._armed and self._cancel == self._serial:
            raise Cancelled()

    def _next(self) -> Optional[Callable[[], None]]:
        with self._condition:
            while not self._stopped:
                if self._pending:
                    key, (due, job, dropped) = min(self._pending.items(),
                                                   key=lambda item: item[1][0])
                    wait = due - time.monotonic()
                    if wait <= 0:
                        del self._pending[key]
                        self._running, self._dropped = key, dropped
                        self._serial += 1
                        return job
                    self._condition.wait(wait)
                else:
                    self._condition.wait()
            return None

    def run(self) -> None:
        """The loop of the main thread, until ``stop``."""
        if self._interrupt is not None:
            signal.signal(self._interrupt, self._raise_cancelled)
        while True:
            job = self._next()
            if job is None:
                return
            try:
                try:
                    self._armed = True
                    job()
                finally:
                    self._armed = False
            except Cancelled:
                self._armed = False
                if self._dropped is not None:
                    self._dropped()
            except Exception:  # noqa: BLE001 — one failed job must not stop the server
                logger.exception("nanlint: a job failed")
            with self._condition:
                self._running, self._dropped = None, None
