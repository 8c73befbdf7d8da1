"""The site's HTTP and socket face (docs/web.md): :func:`cardavia.web.app.create_app` builds
the game server (:mod:`cardavia.live`) from its settings and installs its routes
(:mod:`cardavia.web.routes`), pages, templates and static files over it."""
