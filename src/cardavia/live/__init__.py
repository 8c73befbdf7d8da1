"""The live floor (docs/architecture.md, "The live floor"): the game server — the tables and
who sits at them, the rooms, quick play, the tournaments' tables, the clock, the lobby, the
writer and the bus — with no web framework in it. The site's HTTP and socket face
(:mod:`cardavia.web`) stands on it."""
