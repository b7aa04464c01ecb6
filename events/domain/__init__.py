"""The game log's domain, pure: the stored event's shape, the hash chain, the core events, the fold and what it derives (standings, turns), with no Pillow, database or Flask."""
