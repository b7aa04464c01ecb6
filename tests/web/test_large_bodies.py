"""A large upload read with the worker's other connections served between its pieces
(web/large_bodies.py)."""
import io

from events.runtime import greenlets


class _Watched(io.BytesIO):
    def __init__(self, data: bytes, seen: list):
        super().__init__(data)
        self.seen = seen

    def read(self, *size):
        self.seen.append("read")
        return super().read(*size)

    def readline(self, *size):
        self.seen.append("read")
        return super().readline(*size)


def test_a_large_upload_gives_the_other_connections_a_turn_before_each_piece_read(guarded, monkeypatch):
    """Issue 38 §5: gevent's socket yields only when a read finds nothing yet, so the 8 MiB
    game file, there at once on a fast network, was read and parsed in one go on the
    worker's hub (~0.1-0.2 s without an answer for any of its tables). Every read of a
    large body comes after a turn for the others; a small form is read as before."""
    app, client, token, db = guarded
    seen: list[str] = []
    monkeypatch.setattr(greenlets, "cooperate", lambda: seen.append("turn"))
    upload = b"{" + b" " * (300 * 2**10) + b"}"
    client.post("/import", data={"csrf_token": token, "file": (io.BytesIO(upload), "game.json")},
                content_type="multipart/form-data",
                environ_overrides={"wsgi.input": _Watched(_body(client, token, upload), seen)})
    reads = [i for i, what in enumerate(seen) if what == "read"]
    assert len(reads) > 4 and all(seen[i - 1] == "turn" for i in reads)
    seen.clear()
    client.post("/games/new", data={"csrf_token": token, "kind": "scorepad"})
    assert "turn" not in seen


def _body(client, token, upload: bytes) -> bytes:
    """The multipart body the test client sends for that form."""
    from werkzeug.test import EnvironBuilder
    builder = EnvironBuilder(method="POST", data={"csrf_token": token, "file": (io.BytesIO(upload), "game.json")},
                             content_type="multipart/form-data")
    return builder.get_environ()["wsgi.input"].read()
