"""The site's routes, one installer per file: ``install(app, <its dependencies>)`` adds them
to the app (:func:`cardavia.web.app.create_app` assembles them)."""
