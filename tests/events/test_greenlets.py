"""gevent's hub kept free (events/runtime/greenlets.py): outside gevent each helper is a
plain call; in a gevent worker a blocking call runs on a native thread while other
greenlets run, and a long loop yields to them."""
import subprocess
import sys
import textwrap

from events.runtime import greenlets
from tests.conftest import ROOT


def test_outside_gevent_a_call_runs_here_and_cooperating_yields_every_item(monkeypatch):
    import threading
    assert greenlets.off_the_hub(threading.get_ident) == threading.get_ident()
    turns = []
    monkeypatch.setattr(greenlets, "cooperate", lambda: turns.append(True))
    assert list(greenlets.cooperating(range(10), every=4)) == list(range(10))
    assert len(turns) == 2  # after the 4th and the 8th
    lock = greenlets.native_lock()
    assert lock.acquire(blocking=False) and not lock.acquire(blocking=False)


def test_in_a_gevent_worker_a_blocking_call_leaves_the_other_greenlets_running():
    script = textwrap.dedent("""
        from gevent import monkey
        monkey.patch_all()
        import gevent
        from events.runtime import greenlets
        real_sleep = monkey.get_original("time", "sleep")  # blocks its thread: no greenlet runs meanwhile
        freed_by_the_other = []
        def other_greenlet():
            gevent.sleep(0)
            freed_by_the_other.append(True)
        gevent.spawn(other_greenlet)
        def wait_natively():  # for the other greenlet to run: on the hub it never would
            for _ in range(3000):
                if freed_by_the_other:
                    return True
                real_sleep(0.01)
            return False
        freed = greenlets.off_the_hub(wait_natively)
        order = []
        def loop():
            for _ in greenlets.cooperating(range(6), every=2):
                order.append("loop")
        looping = gevent.spawn(loop)
        gevent.spawn(lambda: order.append("other"))
        looping.join()
        print(freed, order.index("other") < len(order) - 1)
    """)
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=90)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True"]  # the other greenlet ran during the call and inside the loop
