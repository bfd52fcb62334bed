import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi = get_asgi_application()

# Imported after Django is set up.
from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from admin_ui.routing import websocket_urlpatterns  # noqa: E402
from emdash.edge.limits import BodyLimitASGI  # noqa: E402
from emdash.edge.ws_origin import OriginValidator  # noqa: E402

application = ProtocolTypeRouter(
    {
        # Oversized bodies get a 413 before Django buffers them (config.serve also stops daphne buffering).
        "http": BodyLimitASGI(django_asgi),
        # Session cookies authenticate the admin's websocket, so the Origin must match exactly (emdash.edge.ws_origin).
        "websocket": OriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)
