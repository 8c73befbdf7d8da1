"""The revisions, oldest first: ``v0001_tables`` (the tables as the first versions made
them), then one revision per column or table added since."""
