"""The running server's plumbing: which streams wait for which game, and keeping gevent's hub free while SQLite blocks."""
