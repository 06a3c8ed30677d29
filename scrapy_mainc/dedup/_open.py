"""Opening the cluster index the parameters name: in memory, or shared through Redis.

Apart from :mod:`._index` so that the Redis index (which builds on it) is only imported
here, one way, and only when a Redis URL is given (redis-py is optional).
"""

from __future__ import annotations

from ._index import ClusterIndex, MemoryIndex
from ._params import IndexParams


def open_index(params: IndexParams) -> ClusterIndex:
    """A :class:`MemoryIndex`, or a ``RedisIndex`` when ``params.redis_url`` is set."""
    if not params.redis_url:
        return MemoryIndex(params)
    try:
        from ._redis_index import RedisIndex  # redis is optional
    except ImportError as exc:
        raise ImportError(
            "a Redis index needs redis-py: pip install redis (or the package's 'redis' extra, "
            "scrapy-mainc[redis])"
        ) from exc
    return RedisIndex(params)
