from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CampaignsConfig(AppConfig):
    name = "campaigns"
    verbose_name = _("Campaigns")

    def ready(self) -> None:
        # Load and validate every game module at start-up: a bad data file stops the app
        # with the path of the bad field instead of failing later on some page.
        from campaigns.games.registry import all_modules

        all_modules()

        # <oid:…> in URL patterns: rows named by opaque tokens, not database ids.
        from django.urls import register_converter

        from campaigns.oid import OpaqueIdConverter

        register_converter(OpaqueIdConverter, "oid")

        # Each feature registers the history sentences of the actions it records
        # (campaigns.history.sentences); the Refit Phase's are registered by refit's app.
        # The short games' turn (campaigns.shortgames.turn_marks) registers the undo guard of
        # "turn.advanced"; the roster's books (campaigns.roster.books) the check that no undo
        # leaves a side's CPP or FPP below zero (history.UNDO_CHECKS); the short games'
        # per-turn record (campaigns.shortgames.per_turn, imported by turn_marks) the check that
        # no undo leaves a recorded turn's VP disagreeing with the record.
        import campaigns.corrections.history
        import campaigns.dice.history
        import campaigns.histdrm.history
        import campaigns.history.history
        import campaigns.members.history
        import campaigns.orbat.history
        import campaigns.records.history
        import campaigns.reveal.history
        import campaigns.roster.books
        import campaigns.roster.history
        import campaigns.shortgames.history
        import campaigns.shortgames.points_undo
        import campaigns.shortgames.turn_marks
        import campaigns.transfer.history  # noqa: F401

        # The export file's sections beyond the core ones (campaigns.transfer.sections); the
        # Refit Phase's are registered by refit's app.
        from campaigns.shortgames import transfer as short_game_transfer

        short_game_transfer.register()
        from campaigns.shortgames import segment_record_dr

        segment_record_dr.register()
        from campaigns.shortgames import per_turn

        per_turn.register()

        from campaigns.records import transfer as victory_transfer

        victory_transfer.register()
        from campaigns.corrections import transfer as correction_transfer

        correction_transfer.register()
