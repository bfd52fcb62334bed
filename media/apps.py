from django.apps import AppConfig


class MediaConfig(AppConfig):
    name = "media"

    def ready(self) -> None:
        from content import hooks
        from emdash.background import register_sweep
        from media.selectors import existing_ids
        from media.services import sweep_if_due

        hooks.register_media(existing_ids=existing_ids)  # content checks image/file values through this

        # sweep_if_due keeps its own MEDIA_SWEEP_INTERVAL clock, so it is asked on every pass.
        register_sweep("media orphans", sweep_if_due, report="removed {} orphaned media file(s)")
