from django.apps import AppConfig


class MediaConfig(AppConfig):
    name = "media"

    def ready(self) -> None:
        from emdash.background import register_sweep
        from media.services import sweep_if_due

        # sweep_if_due keeps its own MEDIA_SWEEP_INTERVAL clock, so it is asked on every pass.
        register_sweep("media orphans", sweep_if_due, report="removed {} orphaned media file(s)")
