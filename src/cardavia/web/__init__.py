"""The site and the table (docs/web.md): :func:`cardavia.web.app.create_app` assembles it
from its settings (:mod:`cardavia.web.settings`), its services (:mod:`cardavia.web.tables`,
:mod:`cardavia.web.rooms`) and its routes (:mod:`cardavia.web.routes`)."""
