"""The site and the table: the FastAPI application (:func:`create_app`), the table service
that plays the computer seats, the languages and their catalogs (docs/web.md)."""

from cardavia.web.app import Settings, create_app

__all__ = ["Settings", "create_app"]
