"""The table's event log, in four packages by kind: ``domain`` (the pure fold and its facts), ``storage`` (the database), ``application`` (recording, loading, exporting a game) and ``runtime`` (the server's live plumbing).

``domain`` imports nothing of the others and no I/O library (tests/events/test_domain.py
folds a game with Pillow and the database drivers blocked); ``storage`` knows the domain's
event and chain; ``application`` uses both; ``runtime`` wakes streams and keeps gevent's
hub free."""
