"""The time budget of one file: ``within_budget`` interrupts work that runs too long, and
``in_child`` runs work the alarm cannot interrupt (a native parse) in a process it can kill.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from typing import Any, Callable, List, Optional, Tuple

class FileTimeout(BaseException):
    """The file's time budget ran out. Not an Exception, so that no ``except Exception``
    between the alarm and the budget (a rule's, the engine's) can swallow it."""


_alarm_armed = [False]
_expired = [False]  # an alarm fired while the budget was armed: the work is late
_ALARM_REPEAT = 0.05  # seconds between alarms once the budget is spent


def _expire(signum: int, frame: Any) -> None:
    if _alarm_armed[0]:  # a late alarm, after the budget was closed, is ignored
        _expired[0] = True
        raise FileTimeout()


def _quiet_timeouts(previous: Callable[[Any], None]) -> Callable[[Any], None]:
    """A ``sys.unraisablehook`` for the budget: a FileTimeout that Python swallowed (the
    alarm landed in a gc callback or a ``__del__``) is not printed; ``_expired`` keeps it."""
    def hook(unraisable: Any) -> None:
        if unraisable.exc_type is not FileTimeout:
            previous(unraisable)
    return hook


def within_budget(seconds: float, work: Callable[[], Any]) -> Any:
    """``work()``, or FileTimeout once it has run ``seconds`` (SIGALRM, so it interrupts
    Python code, and native code as soon as it returns). Signals belong to the main thread;
    elsewhere, and where there is no setitimer (Windows), there is no budget. The previous
    handler and any timer already running are restored afterwards."""
    if (not seconds or not hasattr(signal, "setitimer")
            or threading.current_thread() is not threading.main_thread()):
        return work()
    previous_handler = signal.signal(signal.SIGALRM, _expire)
    previous_hook = sys.unraisablehook
    sys.unraisablehook = _quiet_timeouts(previous_hook)
    started = time.monotonic()
    _expired[0] = False
    _alarm_armed[0] = True
    # The alarm repeats until the budget is closed: one that lands where exceptions are
    # swallowed (a gc callback, a __del__) is followed by another a moment later, and if
    # every one is swallowed, the work that comes back late is a timeout all the same.
    previous_delay, previous_interval = signal.setitimer(signal.ITIMER_REAL, seconds,
                                                         _ALARM_REPEAT)
    try:
        result = work()
        if _expired[0]:
            raise FileTimeout()
        return result
    except FileTimeout:
        raise
    except Exception as error:
        # An alarm that lands inside native code (ast's constructor, say) can come out as
        # another error (SystemError): past the deadline, it is the timeout all the same.
        if time.monotonic() - started >= seconds:
            raise FileTimeout() from error
        raise
    finally:
        # A late alarm can land here, before the budget is closed, and its FileTimeout would
        # leave with the timer still repeating (to fire in the caller's code): close again.
        while True:
            try:
                _close_budget(previous_handler, previous_delay, previous_interval, started)
                sys.unraisablehook = previous_hook
                break
            except FileTimeout:
                continue


def _close_budget(previous_handler: Any, previous_delay: float, previous_interval: float,
                  started: float) -> None:
    _alarm_armed[0] = False  # first: from here on an alarm is a no-op
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, previous_handler)
    if previous_delay:  # someone else's timer was running: give back what is left of it
        left = previous_delay - (time.monotonic() - started)
        signal.setitimer(signal.ITIMER_REAL, max(left, 0.001), previous_interval)



def armed() -> bool:
    """Whether a budget is running: only then can a child process be killed in time."""
    return _alarm_armed[0]


def in_child(work: Callable[[], Any]) -> Tuple[Optional[Any], int]:
    """``work()`` in a forked child process, its result sent back through a pipe: the result
    and the child's exit status; None if the child sent nothing. The parent waits in Python,
    so the budget's alarm interrupts it, and the child is killed."""
    import pickle

    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        status = 0
        try:
            os.close(reader)
            payload = pickle.dumps(work())
            with os.fdopen(writer, "wb") as out:
                out.write(payload)
        except BaseException:  # noqa: BLE001 — the parent reports a child that sent nothing
            status = 1
        finally:
            os._exit(status)
    os.close(writer)
    chunks: List[bytes] = []
    reaped = False
    try:
        while True:
            chunk = os.read(reader, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
        _, status = os.waitpid(pid, 0)
        reaped = True
    finally:
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
        try:
            os.close(reader)
            if not reaped:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
    if status == 0 and chunks:
        return pickle.loads(b"".join(chunks)), status
    return None, status
