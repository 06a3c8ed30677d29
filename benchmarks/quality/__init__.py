"""The figures of the quality tables of the README and docs/benchmarks.md."""
