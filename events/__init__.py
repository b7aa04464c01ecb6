"""The table's event log: append-only storage, the hash chain, and the fold."""
