"""The near-duplicate set (copies and rewrites of the development articles) and how well the
clustering finds its copies: ``python -m benchmarks.neardup.quality``."""
