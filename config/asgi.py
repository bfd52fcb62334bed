import os

import django

from emdash.edge.threaded_wsgi import batch_scheduling

# Before the server starts its threads, which inherit the policy: fewer context switches per request
# (emdash.edge.threaded_wsgi.batch_scheduling).
batch_scheduling()

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup(set_prefix=False)  # before the imports below (get_wsgi_application sets the prefix)

# Imported after Django is set up.
from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.core.wsgi import get_wsgi_application  # noqa: E402

from admin_ui.routing import websocket_urlpatterns  # noqa: E402
from config.lifespan import Lifespan  # noqa: E402
from emdash.edge.conditional import ConditionalWSGI  # noqa: E402
from emdash.edge.limits import BodyLimitASGI  # noqa: E402
from emdash.edge.threaded_wsgi import ThreadedWSGI  # noqa: E402
from emdash.edge.ws_origin import OriginValidator  # noqa: E402

# HTTP runs Django's WSGI handler on persistent threads (EMDASH_HTTP_THREADS): database connections are kept
# between requests and no thread is started per request, so a call costs what it costs under gunicorn
# (emdash.edge.threaded_wsgi); anonymous conditional GETs still current get their 304 before Django's handler
# (emdash.edge.conditional). Websockets stay on the event loop, in the same process.
http = ThreadedWSGI(ConditionalWSGI(get_wsgi_application()))

# Lifespan: granian and uvicorn announce start and shutdown; shutdown lets the HTTP threads finish and flushes the
# audit writer.
application = Lifespan(
    ProtocolTypeRouter(
        {
            # Oversized bodies get a 413 before they are read (config.serve also stops daphne buffering).
            "http": BodyLimitASGI(http),
            # Session cookies authenticate the admin's websocket: the Origin must match exactly (emdash.edge.ws_origin).
            "websocket": OriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
        }
    ),
    on_shutdown=http.shutdown,
)
