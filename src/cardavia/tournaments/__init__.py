"""Duplicate tournaments: the same deals for everyone, dealt from seeds committed before the
tournament opens, played from the same seat against computer players of a stated level and
version, and each deal ranked against everyone else who played it (docs/tournaments.md).

Pure parts (no I/O): :mod:`~cardavia.tournaments.deals` (a tournament's deals: seeds, the
seat, the dealer, the result of a deal), :mod:`~cardavia.tournaments.scoring` (matchpoints),
:mod:`~cardavia.tournaments.performance` (the field-adjusted score of a deal) and
:mod:`~cardavia.tournaments.leagues` (the weekly divisions). :mod:`~cardavia.tournaments.closing`
closes the tournaments whose window is over, in the store.
"""
