import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
from emdash.edge.limits import BodyLimitWSGI  # after DJANGO_SETTINGS_MODULE is set

# Oversized bodies get a 413 before Django reads them.
application = BodyLimitWSGI(get_wsgi_application())
