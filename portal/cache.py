"""Django's Redis cache, keeping one Redis client per connection pool.

Django's ``RedisCacheClient`` makes a new ``redis.Redis`` client for every cache call; making
one copies redis-py's table of several hundred response callbacks, which cost more than the
round trip itself (``scripts/profile_pages.py``: about a third of a millisecond a call). A
client is thread-safe and holds no connection of its own (it borrows from the pool), so one
per pool serves every thread of the process."""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient as DjangoRedisCacheClient


class RedisCacheClient(DjangoRedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            if index not in self._pools:  # (as Django's _get_connection_pool, for this index)
                self._pools[index] = self._pool_class.from_url(self._servers[index],
                                                               **self._pool_options)
            client = self._clients[index] = self._client(connection_pool=self._pools[index])
        return client


class RedisCache(DjangoRedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient
