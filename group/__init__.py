"""The group's history across games: the roster (people and their own log), the plays
(the statistics' read model), the figures and BG Stats files. It uses ``events/`` and is
never used by it."""
