"""Time, instructions and memory: of an extraction, a crawl, an archive, the Redis index."""
