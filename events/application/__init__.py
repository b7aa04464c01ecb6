"""A game's use of the log: recording a move, the cache of folded states, a table loaded for a page, seats, board profiles, photos, disputes, integrity and export."""
