"""Where the log is kept: the append-only store on SQLite or PostgreSQL, its schema and migrations, and the photo images."""
