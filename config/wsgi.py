import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
from emdash.edge.conditional import ConditionalWSGI  # after DJANGO_SETTINGS_MODULE is set
from emdash.edge.limits import BodyLimitWSGI

# Anonymous conditional GETs still current get their 304 before Django's handler (emdash.edge.conditional);
# oversized bodies get a 413 before Django reads them.
application = ConditionalWSGI(BodyLimitWSGI(get_wsgi_application()))
