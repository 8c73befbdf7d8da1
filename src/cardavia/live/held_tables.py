"""The tables a process holds in memory (:class:`HeldTables`), by game id, the most recently
opened last: a table in play (watched, or its computer players running) is always kept; an
idle one past the size is dropped — it is saved, and loads again when asked for."""

from __future__ import annotations

import itertools
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from typing import Final

from cardavia.live.table import Table

CACHE_SIZE: Final = 256
"""Tables kept in memory past their last connection (they load again when asked for)."""
LOOKED_AT: Final = 16
"""The most tables looked at for dropping on each remembering (the oldest)."""


class HeldTables(Mapping[str, Table]):
    """The tables of this process's memory, by game id (read as a mapping; changed by
    :meth:`remember` and :meth:`forget` alone)."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self.size = size
        self._tables: OrderedDict[str, Table] = OrderedDict()
        self._remembered = 0
        """How many times a table was opened or created: each table's last stay."""

    def __getitem__(self, game_id: str) -> Table:
        return self._tables[game_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._tables)

    def __len__(self) -> int:
        return len(self._tables)

    def remember(self, table: Table) -> None:
        """Keep the table in memory (most recent last), dropping idle ones past the size:
        they are saved, and load again when asked for. The ``size`` tables remembered last
        are kept, and only the oldest :data:`LOOKED_AT` are looked at, a table in play going
        to the back: with more tables in play than the cache holds, looking at every one on
        each open cost O(tables), and dropped the games just created (idle until their page
        connects), loaded again from the store at once."""
        self._remembered += 1
        table.remembered = self._remembered
        self._tables[table.game_id] = table
        self._tables.move_to_end(table.game_id)
        excess = len(self._tables) - self.size
        oldest = itertools.islice(self._tables.items(), max(0, min(excess, LOOKED_AT)))
        for game_id, old in list(oldest):
            if not old.is_idle:
                self._tables.move_to_end(game_id)  # in play: not one to drop
            elif old.remembered > self._remembered - self.size:
                break  # remembered lately (a game just created): kept
            else:
                del self._tables[game_id]

    def forget(self, table: Table) -> None:
        """Drop ``table`` from memory (if it is still the one held for its game)."""
        if self._tables.get(table.game_id) is table:
            del self._tables[table.game_id]


__all__ = ["CACHE_SIZE", "HeldTables"]
