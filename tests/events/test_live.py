"""Which streams wait for which game (events/runtime/live.py, the app's ``Hub``): a move
wakes its own game's streams once, never another game's; the streams one announcement
woke share one read; a game nobody watches any more is forgotten; the server's count
adds every worker's streams."""
import threading

import pytest

from events.runtime.live import Hub


@pytest.fixture
def hub(tmp_path):
    """A hub whose only moves are this process's: no watcher for other processes' moves
    (tests/web/test_stream.py and tests/events/test_pg.py test it)."""
    made = Hub()
    made.database = str(tmp_path / "t.db")
    made._start_watcher = lambda database: None
    return made


def test_a_move_wakes_its_games_streams_once_and_no_other_games(hub):
    mine, also_mine, other = (hub.subscribe(g, hub.database) for g in ("g1", "g1", "g2"))
    hub.published("g1", 5)
    assert mine.is_set() and also_mine.is_set() and not other.is_set()
    mine.clear()
    hub.published("g1", 5)  # announced already: nobody is woken again
    hub.published("g1", 4)
    assert not mine.is_set() and hub.newest("g1") == 5
    hub.published("g1")  # something may have changed: they look
    assert mine.is_set() and hub.newest("g1") is None


def test_the_streams_one_announcement_woke_read_once_and_a_later_one_reads_again(hub):
    hub.subscribe("g1", hub.database)
    reads = []

    def read():
        reads.append(1)
        return len(reads)
    hub.published("g1", 2)
    assert [hub.look("g1", read) for _ in range(3)] == [1, 1, 1]
    hub.published("g1", 3)
    assert hub.look("g1", read) == 2 and len(reads) == 2


def test_a_failed_read_is_not_shared(hub):
    hub.subscribe("g1", hub.database)
    hub.published("g1", 2)

    def broken():
        raise OSError("the database went away")
    with pytest.raises(OSError):
        hub.look("g1", broken)
    assert hub.look("g1", lambda: "fresh") == "fresh"


def test_a_game_nobody_watches_is_forgotten_and_its_moves_wake_nobody(hub):
    flag = hub.subscribe("g1", hub.database)
    hub.published("g1", 2)
    hub.unsubscribe("g1", flag)
    assert hub.count() == 0 and hub.newest("g1") is None
    hub.published("g1", 3)  # nobody waits: nothing kept
    assert hub.newest("g1") is None


def test_the_server_counts_the_streams_of_every_worker(hub):
    slots = [7, 0, 3]  # what the other workers hold
    hub.share(slots, 1)
    hub.subscribe("g1", hub.database)
    hub.subscribe("g2", hub.database)
    assert hub.count() == 2 and slots[1] == 2 and hub.server_count() == 12


def test_streams_woken_together_wait_for_the_first_reader(hub):
    hub.subscribe("g1", hub.database)
    hub.published("g1", 2)
    started, release, reads = threading.Event(), threading.Event(), []

    def slow_read():
        reads.append(1)
        started.set()
        release.wait(10)
        return "board"
    first = threading.Thread(target=lambda: reads.append(hub.look("g1", slow_read)))
    first.start()
    started.wait(10)
    second = []
    waiter = threading.Thread(target=lambda: second.append(hub.look("g1", slow_read)))
    waiter.start()
    release.set()
    first.join(10)
    waiter.join(10)
    assert second == ["board"] and reads.count(1) == 1
