"""The benchmark suite (`make bench`, docs/performance.md): speed as ratios in one run."""
