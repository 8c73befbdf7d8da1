"""Alembic's revisions of the database's schema (:mod:`cardavia.store.migrate` runs them):
``versions/``, one module per change, each naming the revision it follows."""
