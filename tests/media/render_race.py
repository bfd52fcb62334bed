"""One process of the rendition race (tests/media/test_rendition_concurrency.py): wait for the start time, ask
for a rendition, print whether this process rendered it. Settings (database, storage) come from the environment.

    python -m tests.media.render_race MEDIA_ID SIZE NAME START_AT
"""

from __future__ import annotations

import json
import os
import sys
import time


def main() -> None:
    media_id, size, name, start_at = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from media import rendition_store, renditions
    from media.models import MediaItem

    renders = []
    real = rendition_store.render_bytes

    def counted(*args: object) -> tuple[bytes, tuple[int, int]]:
        renders.append(1)
        time.sleep(0.3)  # widen the window in which the others must wait
        return real(*args)  # type: ignore[arg-type]

    rendition_store.render_bytes = counted  # type: ignore[assignment]
    item = MediaItem.objects.get(id=media_id)
    fit, _, fmt = name.partition(".")
    spec = renditions.parse(size, fit, fmt)
    time.sleep(max(0.0, start_at - time.time()))
    rendered = rendition_store.get_or_render(item, spec, fmt)
    print(json.dumps({"renders": len(renders), "key": rendered.key, "size": rendered.size}))


if __name__ == "__main__":
    main()
