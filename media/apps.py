from django.apps import AppConfig


class MediaConfig(AppConfig):
    name = "media"

    def ready(self) -> None:
        from content import hooks
        from emdash.background import register_sweep
        from media import receivers
        from media.hooks import MediaItems
        from media.services import sweep_if_due

        # content checks image/file values and maps Markdown image URLs through it
        hooks.register_media(MediaItems())
        # the usage index follows every content write (content never calls media)
        receivers.connect()

        # sweep_if_due keeps its own MEDIA_SWEEP_INTERVAL clock, so it is asked on every pass.
        register_sweep("media orphans", sweep_if_due, report="removed {} orphaned media file(s)")
