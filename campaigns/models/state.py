"""The campaign's state between sessions: calendar records, ledgers, CVP, scenarios, OB.

Sheet values (CPP Start/Total/Left, #P/#R, CVP sums) are never stored: they are derived from
these records by campaigns.roster.ledger and friends. Editable rows carry ``version`` so that a
stale
edit from a second device is refused instead of overwriting (see campaigns.members.services).
"""

from django.conf import settings
from django.db import models
from django.db.models import Q, Value
from django.db.models.fields.json import KT
from django.db.models.functions import Coalesce
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from campaigns.models.campaign import Campaign


class CampaignDay(models.Model):
    """Public facts of one CG day / time frame / turn (index into the calendar)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="days")
    index = models.PositiveSmallIntegerField()
    moon = models.CharField(_("moon"), max_length=30, blank=True)
    # 60: the words earlier versions booked for December ("Overcast (Falling Snow possible);
    # Ground Snow") are kept as written until the day is next saved with its key.
    weather = models.CharField(_("weather"), max_length=60, blank=True)
    ec = models.CharField(_("EC"), max_length=30, blank=True)
    wind = models.CharField(_("wind"), max_length=30, blank=True)
    notes = models.TextField(_("notes"), blank=True)
    # SaP CG-6.1 (issue 16): whether rain fell during this time frame (None: not recorded); the
    # next time frame's EC is Wet after rain, else Moderate.
    rain = models.BooleanField(_("rain fell"), null=True, blank=True, default=None)
    version = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["campaign", "index"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "index"], name="one_record_per_day")
        ]

    def __str__(self) -> str:
        return f"{self.campaign_id} day {self.index}"


class SideDay(models.Model):
    """One side's values for one CG day. ELR/SAN and the initiative chit stay secret until
    revealed (11.625 announces ELR and SAN; chits are revealed together, 11.623).

    ``second_chit``: the chit of the RePh before the day's second scenario (RO CG I SSR I.6,
    23 Oct; the RePh of ``sequence`` 2), kept apart so that the first scenario's chit stays."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="side_days")
    index = models.PositiveSmallIntegerField()
    side = models.CharField(max_length=20)
    hist_drm = models.SmallIntegerField(_("Historical DRM"), null=True, blank=True)
    # RF CG I (11.58): the chart's value per map group ({"RB": -1, "RO": 0}); a map group not
    # in it is unknown. ``hist_drm`` stays blank in a campaign game with map groups.
    hist_drms = models.JSONField(_("Historical DRM per map group"), default=dict, blank=True)
    elr = models.PositiveSmallIntegerField(_("ELR"), null=True, blank=True)
    san = models.PositiveSmallIntegerField(_("SAN"), null=True, blank=True)
    elr_san_revealed = models.BooleanField(_("ELR and SAN announced"), default=False)
    initiative_chit = models.CharField(_("initiative chit"), max_length=20, blank=True)
    chit_revealed = models.BooleanField(_("chit revealed"), default=False)
    second_chit = models.CharField(
        _("second scenario's initiative chit"), max_length=20, blank=True
    )
    second_chit_revealed = models.BooleanField(_("second scenario's chit revealed"), default=False)
    # SaP CG-3.1/3.2/4.1/4.2 (issue 16): the Russian's designations for the time frame's Stavka
    # reinforcements, {"turn_two": {unit or RG id: n}, "south": n | null}; {} when none.
    arrival_plan = models.JSONField(_("arrival designations"), default=dict, blank=True)
    version = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["campaign", "index", "side"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "index", "side"], name="one_record_per_side_day"
            )
        ]

    def __str__(self) -> str:
        return f"{self.campaign_id} day {self.index} {self.side}"


class LedgerKind(models.TextChoices):
    INITIAL = "initial", _("Initial OB")
    REPLENISHMENT = "replenishment", _("Replenishment")
    RG_PURCHASE = "rg_purchase", _("RG purchase")
    RECON = "recon", _("Recon")
    ADJUSTMENT = "adjustment", _("Referee adjustment")
    FORTIFICATION_RG = "fortification_rg", _("FPP from a fortification RG")
    FORTIFICATION_PURCHASE = "fortification_purchase", _("Fortification purchase")


# Which kinds belong to which ledger, and the sign their amount must have.
CPP_KINDS = {
    LedgerKind.INITIAL: 1,
    LedgerKind.REPLENISHMENT: 1,
    LedgerKind.RG_PURCHASE: -1,
    LedgerKind.RECON: -1,
    LedgerKind.ADJUSTMENT: 0,
}
FPP_KINDS = {
    LedgerKind.INITIAL: 1,
    LedgerKind.FORTIFICATION_RG: 1,
    LedgerKind.FORTIFICATION_PURCHASE: -1,
    LedgerKind.ADJUSTMENT: 0,
}


class LedgerEntry(models.Model):
    """One CPP or FPP movement of one side, secret to that side and the referee.

    Amounts are signed: gains positive, spending negative. Entries are never edited; a mistake is
    undone (history) or corrected by a referee adjustment with a reason.
    """

    CPP = "cpp"
    FPP = "fpp"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="ledger")
    side = models.CharField(max_length=20)
    ledger = models.CharField(max_length=3, choices=[(CPP, "CPP"), (FPP, "FPP")])
    index = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=30, choices=LedgerKind.choices)
    amount = models.IntegerField()
    rg = models.CharField(_("RG"), max_length=20, blank=True)
    # RF CG I (11.58): the map group a replenishment was rolled for (one DR per map group);
    # "" everywhere else.
    map_group = models.CharField(_("map group"), max_length=10, blank=True)
    note = models.CharField(_("reason / note"), max_length=200, blank=True)
    # A note the app wrote (a roll's booking, a fortification bought), in every language of the
    # app (campaigns.said): each reader reads it in theirs. Empty for a note a person typed.
    note_words = models.JSONField(_("note in every language"), default=dict, blank=True)
    # A recon payment (11.622, SaP 11.620): the Locations its dr gave, the roster's Recon column.
    locations = models.PositiveSmallIntegerField(_("Locations reconnoitred"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign", "side", "ledger", "index", "id"]
        indexes = [
            models.Index(fields=["campaign", "side", "ledger", "index"]),
            # The key of LedgerTotal (and the Locations): the triggers that keep it look up a
            # key's next first row here when its first goes (migration 0043); the pages read
            # LedgerTotal, not this index, since (issue 18).
            models.Index(
                fields=[
                    *("campaign", "side", "index", "ledger", "kind", "map_group", "rg", "amount"),
                    "locations",
                ],
                name="ledger_day_sums",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.side} {self.ledger} day {self.index}: {self.kind} {self.amount:+d}"

    @property
    def note_text(self) -> str:
        """The note in the reader's language (``note_words``), or as typed."""
        from campaigns.said import in_language

        return in_language(self.note_words, self.note, get_language())


class LedgerTotal(models.Model):
    """A side's CPP or FPP ledger summed per CG day, kind, map group, RG and amount — the grain
    the CG Roster reads (``campaigns.roster.rows``: "RG Purchased" names each RG and cost once
    with its count, in the order first booked) — with how many rows, their recon Locations and
    the first row's id. Derived data, never written by the app: triggers on ``LedgerEntry``
    (migration 0043_totals_ledger_totals, SQLite and PostgreSQL) add each row inserted and take
    off each row deleted or changed, in the statement that writes it, whatever writes the
    ledger (services, undo, imports, ``bulk_create``, a campaign's cascade delete, raw SQL). A
    key without rows has no total, so the table equals the ledger's ``GROUP BY``
    (tests/campaigns/ledger). The roster, the ledger page and the purchase and fortification
    pages read it: a few rows per CG day, however long the ledger (issue 18,
    docs/decisions.md). Not exported: an import's ledger rows rebuild it."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="+")
    side = models.CharField(max_length=20)
    index = models.PositiveSmallIntegerField()
    ledger = models.CharField(max_length=3)
    kind = models.CharField(max_length=30)
    map_group = models.CharField(max_length=10, blank=True)
    rg = models.CharField(max_length=20, blank=True)
    amount = models.IntegerField()  # each row's amount: the key's sum is amount × entries
    entries = models.PositiveIntegerField()  # how many ledger rows (never 0: the total goes)
    locations = models.IntegerField(default=0)  # the sum of the rows' recon Locations
    located = models.PositiveIntegerField(default=0)  # how many rows have Locations (not None)
    first = models.BigIntegerField()  # the smallest id of the key's rows: the order booked

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=[
                    *("campaign", "side", "index", "ledger", "kind", "map_group", "rg"),
                    "amount",
                ],
                name="ledger_total_key",
            )
        ]

    def __str__(self) -> str:
        each = f"{self.amount:+d} ×{self.entries}"
        return f"{self.side} {self.ledger} day {self.index} {self.kind}: {each}"


class CvpPhase(models.TextChoices):
    SCENARIO = "scenario", _("During the scenario")
    REPH_BEFORE_VC = "reph_before_vc", _("RePh, before victory determination")
    REPH_AFTER_VC = "reph_after_vc", _("RePh, after victory determination")


class CvpEntry(models.Model):
    """Casualty VP a side suffered (11.12), public: both sides see what was eliminated."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="cvp")
    side = models.CharField(_("side that lost it"), max_length=20)
    index = models.PositiveSmallIntegerField(_("CG day"))
    scenario = models.ForeignKey(
        # PROTECT: a scenario with CVP entries cannot vanish under them (e.g. by an undo).
        "Scenario",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="cvp",
    )
    phase = models.CharField(_("when"), max_length=20, choices=CvpPhase.choices)
    what = models.CharField(_("what was lost"), max_length=100)
    cvp = models.PositiveSmallIntegerField(_("CVP"))
    exited_uncontrolled = models.BooleanField(
        _("exited from an uncontrolled hex"),
        default=False,
        help_text=_("Counts for victory, not for the CPP replenishment DRM (CG13)."),
    )
    no_cvp = models.BooleanField(
        _("no CVP"), default=False, help_text=_("E.g. eliminated underground on the last CG day.")
    )
    manual = models.BooleanField(
        _("stays on the map"), default=False, help_text=_("E.g. a wreck that cannot be removed.")
    )
    orbat_entry = models.ForeignKey(
        # The OB line (in the side's Casualties box) the loss was recorded from at the scenario's
        # end; the line is the side's secret, the entry public (what was lost, its CVP).
        "OrbatEntry",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="cvp_entries",
        verbose_name=_("OB line"),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign", "index", "id"]

    def __str__(self) -> str:
        return f"{self.side} day {self.index}: {self.what} ({self.cvp} CVP)"


class ScenarioType(models.TextChoices):
    INITIAL = "initial", _("Initial scenario")
    DUAL_ATTACK = "dual_attack", _("Dual Attack")
    ASSAULT = "assault", _("Assault")
    TIME_FRAME = "time_frame", _("CG time frame")
    TURN = "turn", _("Game turn")


class Scenario(models.Model):
    """A scenario played (RF), a time frame (SaP) — public once played."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="scenarios")
    index = models.PositiveSmallIntegerField(_("CG day"))
    sequence = models.PositiveSmallIntegerField(
        default=1, help_text=_("2 for a second scenario on the same day (RO CG I, 23 Oct).")
    )
    scenario_type = models.CharField(_("type"), max_length=20, choices=ScenarioType.choices)
    attacker = models.CharField(_("attacker"), max_length=20, blank=True)
    sets_up_first = models.CharField(_("set up first"), max_length=20, blank=True)
    moves_first = models.CharField(_("moved first"), max_length=20, blank=True)
    night = models.BooleanField(_("night"), default=False)
    turns_played = models.PositiveSmallIntegerField(_("turns played"), null=True, blank=True)
    winner = models.CharField(_("winner"), max_length=20, blank=True)
    locations = models.JSONField(
        _("victory counts"),
        default=dict,
        blank=True,
        help_text=_("Per side: Stone Locations gained and lost, or whatever the VC count."),
    )
    end = models.JSONField(
        _("scenario end"),
        default=dict,
        blank=True,
        help_text=_(
            "What the scenario's end recorded besides the losses: counts per side (heroes "
            "created, units exited), who controls every Stone Location, how the winner was "
            "found."
        ),
    )
    notes = models.TextField(_("notes"), blank=True)
    version = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["campaign", "index", "sequence"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "index", "sequence"], name="one_scenario_per_slot"
            )
        ]

    def __str__(self) -> str:
        return f"{self.campaign_id} day {self.index} #{self.sequence}"


class RgStatus(models.TextChoices):
    """Where an RG stands in its life cycle (campaigns.orbat.lifecycle holds the rules)."""

    BOUGHT = "bought", _("bought, not yet rolled")
    ROLLED = "rolled", _("rolled")
    AWAITING_ENTRY = "awaiting_entry", _("awaiting entry")
    ON_MAP = "on_map", _("in the scenario")
    RETAINED = "retained", _("retained")
    WITHDRAWN = "withdrawn", _("withdrawn")
    ELIMINATED = "eliminated", _("eliminated")
    EXPENDED = "expended", _("expended")


class ReinforcementGroup(models.Model):
    """One RG of a side: given in the initial OB or bought in a RePh (11.6197).

    Secret to its side and the referee. Strength, SW, leaders are filled in when rolled (11.620).
    """

    class Source(models.TextChoices):
        INITIAL = "initial", _("Initial OB")
        PURCHASED = "purchased", _("Purchased")
        # Given by a SaP time frame's OB (CG-2 … CG-6), rolled like any RG (issue 16).
        TIME_FRAME = "time_frame", _("Time-frame reinforcement")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="rgs")
    side = models.CharField(max_length=20)
    rg_id = models.CharField(_("RG"), max_length=10)
    number = models.PositiveSmallIntegerField(
        help_text=_("The n-th RG of this id for this side, so each has its own divider box.")
    )
    index = models.PositiveSmallIntegerField(_("CG day"))
    source = models.CharField(max_length=10, choices=Source.choices)
    option = models.CharField(_("option"), max_length=10, blank=True)
    cpp_cost = models.PositiveSmallIntegerField(_("CPP cost"), default=0)
    strength = models.CharField(_("strength"), max_length=20, blank=True)
    details = models.JSONField(default=dict, blank=True)
    entered = models.BooleanField(_("entered play"), default=False)
    status = models.CharField(
        _("status"), max_length=20, choices=RgStatus.choices, default=RgStatus.BOUGHT
    )
    # RF CG I: the map group it was bought for, "" for none — ``details["map_group"]`` kept by
    # the database itself (a stored generated column: no write path can forget it), so that the
    # purchase rules' tallies and the RG Purchase Record's #P read it from an index. Derived: not
    # in the export file, not in a history snapshot (campaigns.history.services.snapshot).
    map_group = models.GeneratedField(
        expression=Coalesce(KT("details__map_group"), Value(""), output_field=models.TextField()),
        output_field=models.TextField(),
        db_persist=True,
    )

    class Meta:
        ordering = ["campaign", "side", "index", "id"]
        indexes = [
            # The purchase rules' RG tallies (refit.purchases.reading.rg_tallies): the side's RGs
            # counted per RG, map group, source, day and status in the index's order; the RG
            # Purchase Record's #P of a page (refit.purchases.records.counted_numbers): a range.
            models.Index(
                fields=["campaign", "side", "rg_id", "map_group", "source", "index", "status"],
                name="rg_tallies",
            ),
            # The OB page: its page of RGs, the newest first (campaigns.orbat.page.NEWEST_FIRST),
            # and the RGs counted by status, read from the index alone.
            models.Index(
                fields=["campaign", "side", "index", "rg_id", "number", "id"], name="rg_newest"
            ),
            models.Index(fields=["campaign", "side", "status"], name="rg_status"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "side", "rg_id", "number"], name="rg_numbers_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.side} {self.label}"

    @property
    def label(self) -> str:
        return rg_label(self.rg_id, self.number)

    @property
    def option_label(self) -> str:
        """How it was bought, in the reader's words (never the stored key)."""
        return rg_option_label(self.option)


def rg_label(rg_id: str, number: int) -> str:
    """An RG's label: its id and which of that id it is ("I1#2")."""
    return f"{rg_id}#{number}"


def rg_option_label(option: str) -> str:
    """How an RG was bought (its ``option``), in the reader's words (never the stored key)."""
    return str(RG_OPTION_WORDS.get(option, option.replace("_", " ")))


class RgTotal(models.Model):
    """A side's RGs counted per RG, CG day, source, map group and status — the purchase rules'
    tallies (``refit.purchases.reading.rg_tallies``). Derived data, never written by the app:
    triggers on ``ReinforcementGroup`` (migration 0044_rgtally_rg_totals, SQLite and
    PostgreSQL) add each RG inserted and take off each RG deleted or changed (its key's columns,
    or its ``details``, whose map group is the generated ``map_group``), in the statement that
    writes it, whatever writes the RGs (services, undo, imports, ``bulk_create``, a campaign's
    cascade delete, raw SQL). A key without RGs has no row, so the table equals the RGs'
    ``GROUP BY`` (tests/refit/purchases/test_rg_totals.py). The purchase page and the purchase
    itself read it: one row per kind of RG, not one per RG (issue 18, docs/decisions.md). Not
    exported and not in a history snapshot: an import's RGs rebuild it."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="+")
    side = models.CharField(max_length=20)
    rg_id = models.CharField(max_length=10)
    index = models.PositiveSmallIntegerField()
    source = models.CharField(max_length=10)
    map_group = models.TextField(blank=True)  # as ReinforcementGroup.map_group (generated)
    status = models.CharField(max_length=20)
    rgs = models.PositiveIntegerField()  # how many RGs (never 0: the row goes)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=[
                    # The order the purchase rules read them in (the old index rg_tallies').
                    *("campaign", "side", "rg_id", "map_group", "source", "index"),
                    "status",
                ],
                name="rg_total_key",
            )
        ]
        indexes = [
            # The side's tallies read from the index alone, in its order (rg_tallies): a third
            # faster than looking each row up from the key's index (815 rows at the bench's
            # huge size: 0.62 ms against 0.98 ms in SQLite).
            models.Index(
                fields=[
                    *("campaign", "side", "rg_id", "map_group", "source", "index", "status"),
                    "rgs",
                ],
                name="rg_total_read",
            )
        ]

    def __str__(self) -> str:
        return f"{self.side} {self.rg_id} day {self.index} {self.source} {self.status}: ×{self.rgs}"


# The purchase options an RG is stored with (refit.rules.purchase_costs: ON_MAP, RESERVE,
# DUG_IN; "" is a reinforcement), in words.
RG_OPTION_WORDS = {
    "": _("reinforcement"),
    "on_map": _("on-map set-up"),
    "reserve": _("Reserve"),
    "dug_in": _("dug-in"),
}


class OrbatBox(models.TextChoices):
    """The Chapter O divider's boxes (11.15)."""

    RETAINED = "retained", _("Retained")
    RG = "rg", _("RG awaiting entry")
    # Units a SaP time frame brings outside any RG: Stavka AFVs (CG7.22), the 9 July AM dug-in
    # T-34s (CG7.23) and German AFVs (CG-5) — awaiting entry or set-up (issue 16).
    ARRIVING = "arriving", _("Time-frame reinforcements awaiting entry")
    CASUALTIES = "casualties", _("Casualties / eliminated")
    FORTIFICATIONS = "fortifications", _("Fortification counters")
    WOUNDED = "wounded", _("Wounded leaders")
    PENDING = "pending", _("Captured / malfunctioned weapons pending")


class OrbatEntry(models.Model):
    """A line of a side's order of battle: quantity × unit type, in a divider box."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="orbat")
    side = models.CharField(max_length=20)
    box = models.CharField(_("box"), max_length=20, choices=OrbatBox.choices)
    group = models.ForeignKey(
        ReinforcementGroup,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="entries",
        verbose_name=_("RG box"),
    )
    unit_type = models.CharField(_("unit"), max_length=60)
    kind = models.CharField(_("kind"), max_length=20)
    quantity = models.PositiveSmallIntegerField(_("quantity"))
    origin_rg = models.CharField(_("from RG"), max_length=40, blank=True)
    statuses = models.JSONField(_("statuses"), default=list, blank=True)
    status_note = models.CharField(_("where / details"), max_length=100, blank=True)
    version = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["campaign", "side", "box", "group", "id"]
        indexes = [
            # The OB page: each box's lines counted, and its first lines, from the index alone.
            models.Index(fields=["campaign", "side", "box", "group", "id"], name="orbat_box_lines"),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(quantity__gte=1), name="orbat_quantity_positive"),
            models.CheckConstraint(
                condition=(Q(box="rg") & Q(group__isnull=False))
                | (~Q(box="rg") & Q(group__isnull=True)),
                name="rg_box_entries_and_only_those_have_a_group",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.side} {self.box}: {self.quantity} × {self.unit_type}"
