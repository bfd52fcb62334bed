"""The project: settings, URL conf, ASGI/WSGI entry points, the server launcher and the demo seed.

It sits above every app and door; nothing imports it but ``manage.py`` and the servers' entry points."""
