"""Long calls: the GIL released, Ctrl-C stops the computation, progress to a callback."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

import sgscope

# A table far longer than a test waits for (Grundy's game to 10^7: minutes).
LONG = ("rules/grundys-game.sg", 10**7)


def interrupt_after(seconds: float) -> threading.Timer:
    timer = threading.Timer(seconds, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    return timer


@pytest.mark.skipif(os.name != "posix", reason="SIGINT from a thread")
def test_ctrl_c_stops_a_long_table_and_the_game_still_works():
    game = sgscope.load(LONG[0])
    started = time.monotonic()
    interrupt_after(0.5)
    with pytest.raises(KeyboardInterrupt):
        game.table(LONG[1])
    assert time.monotonic() - started < 10
    # Nothing half-done: the same game answers the next call, with the published values.
    assert game.table(20).tolist() == [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0]


@pytest.mark.skipif(os.name != "posix", reason="SIGINT from a thread")
def test_ctrl_c_stops_a_period_search():
    # Grundy's game has no known period: the search runs to max (minutes).
    game = sgscope.load(LONG[0])
    interrupt_after(0.5)
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        game.period(max=10**7)
    assert time.monotonic() - started < 10


def test_the_gil_is_released_while_computing():
    game = sgscope.load(LONG[0])
    done = threading.Event()
    ticks = []

    def compute():
        try:
            game.table(2 * 10**5)
        finally:
            done.set()

    started = time.monotonic()
    worker = threading.Thread(target=compute)
    worker.start()
    while not done.is_set():
        ticks.append(time.monotonic())
        time.sleep(0.01)
    worker.join()
    took = time.monotonic() - started
    # Python code ran on this thread all along: a held GIL would have frozen it for the whole
    # computation, one gap as long as the call.
    assert len(ticks) > 10
    assert max(b - a for a, b in zip(ticks, ticks[1:])) < took / 2


def test_progress_reaches_the_callback_and_nothing_is_printed(capfd):
    updates = []
    game = sgscope.load(LONG[0])
    game.table(2 * 10**5, progress=updates.append)
    assert updates, "a run of seconds reports progress"
    assert all(isinstance(u, sgscope.Progress) for u in updates)
    assert updates[-1].event == "finished"
    reached = [u.reached for u in updates if u.event == "reached"]
    assert reached == sorted(reached) and all(0 <= u.done <= u.total for u in updates)
    assert capfd.readouterr() == ("", "")
    # Silent by default.
    game.table(10**5)
    assert capfd.readouterr() == ("", "")


def test_an_exception_in_the_callback_stops_the_computation():
    class Enough(Exception):
        pass

    def stop(update):
        if update.done > 0:
            raise Enough

    started = time.monotonic()
    with pytest.raises(Enough):
        sgscope.load(LONG[0]).table(LONG[1], progress=stop)
    assert time.monotonic() - started < 10
