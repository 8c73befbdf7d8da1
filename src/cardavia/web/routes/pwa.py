"""The installable app: the web app manifest and the service worker, served from the site's
root so that the worker's scope is the whole site (a worker under /static/ could only look
after /static/). The worker's code is static/js/sw.js; the icons are under static/icons/."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

from fastapi import FastAPI
from fastapi.responses import FileResponse, JSONResponse

MANIFEST: Final[dict[str, Any]] = {
    "name": "Cardavia — belote",
    "short_name": "Cardavia",
    "description": "Belote, played and taught: the table against the computer and the rules.",
    "id": "/",
    "start_url": "/",
    "scope": "/",
    "display": "standalone",
    "orientation": "any",
    "background_color": "#f4efe4",
    "theme_color": "#16382b",
    "categories": ["games", "education"],
    "icons": [
        {"src": "/static/icons/icon-192.png", "sizes": "192x192", "type": "image/png"},
        {"src": "/static/icons/icon-512.png", "sizes": "512x512", "type": "image/png"},
        {"src": "/static/icons/icon.svg", "sizes": "any", "type": "image/svg+xml"},
        {
            "src": "/static/icons/maskable-512.png",
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
    ],
}


def install(app: FastAPI, static_dir: Path) -> None:
    """Add ``/manifest.webmanifest``, ``/favicon.ico`` (the app's icon) and ``/sw.js``
    (``static_dir``'s ``js/sw.js``)."""

    @app.get("/manifest.webmanifest", include_in_schema=False)
    async def manifest() -> JSONResponse:
        return JSONResponse(
            MANIFEST,
            media_type="application/manifest+json",
            headers={"Cache-Control": "public, max-age=3600"},
        )

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        # What a browser asks for by itself (a page's <link rel="icon"> names the SVG; a
        # feed reader, a chat's preview or an old browser asks here): the app's icon.
        return FileResponse(
            static_dir / "icons" / "icon-192.png",
            media_type="image/png",
            headers={"Cache-Control": "public, max-age=86400"},
        )

    @app.get("/sw.js", include_in_schema=False)
    async def service_worker() -> FileResponse:
        # Never cached by HTTP: a new version of the worker is found on the next visit.
        return FileResponse(
            static_dir / "js" / "sw.js",
            media_type="text/javascript",
            headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
        )


__all__ = ["MANIFEST", "install"]
