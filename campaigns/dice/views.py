"""The dice log: every roll of the campaign the viewer may see, and voiding a roll.

Rolls are made by campaigns.dice.services (the one dice service) and never redone; a referee may
void one
with a reason, and it stays in the log struck through. What a viewer sees is decided by
campaigns.access (``filter_visible`` on the roll's scope) — the rows, the step filter's
choices and the statistics all come from the same filtered queryset, so nothing of a roll the
viewer may not see (not even how many there were) reaches the page. A page reads a fixed handful
of queries whatever the number of rolls; the statistics are one grouped query.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.db import connection
from django.db.models import Count, F, QuerySet
from django.http import HttpRequest, HttpResponse, QueryDict
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import trigger_client_event

from campaigns import access, paging
from campaigns.access import PUBLIC, REFEREE, Viewer
from campaigns.compiled import CompiledQuery
from campaigns.dice import checks, verify
from campaigns.dice import services as dice
from campaigns.dice.actors import ROLL_ACTORS, ROLL_TARGET, roll_actor_names
from campaigns.dice.html import commitment_rows, roll_rows, stats_rows
from campaigns.dice.results import result_words
from campaigns.games.registry import localized
from campaigns.games.rules import modifier_reason, signed
from campaigns.history.reads import ListQuery, ListRows
from campaigns.history.rows import Lookup, url_maker, when_drawn
from campaigns.models import Campaign, CampaignEvent, DiceCommitment, DiceRoll, RollTotal
from campaigns.oid import oid
from campaigns.periods import day_choices, day_label, period_word
from campaigns.said import in_language
from campaigns.templatetags.nav import campaign_url

DICE_PAGE_SIZE = 50  # docs/decisions.md: a page of the dice log
DR_TOTALS = tuple(range(2, 13))


# --- game data: table and step names --------------------------------------------------------


def _table_names(campaign: Campaign) -> dict[str, Any]:
    """Dice table id → its {en, ja} name, from the module's tables.json."""
    tables = campaign.game.files.get("tables") or {}
    return {
        table["id"]: table.get("name") or table["id"]
        for table in tables.get("dice_tables", [])
        if isinstance(table, dict) and "id" in table
    }


def _step_names(campaign: Campaign) -> dict[str, Any]:
    """Step rule (or id) → its {en, ja} name, from refit_steps.json / turn_sequence.json."""
    names: dict[str, Any] = {}
    for stem in ("refit_steps", "turn_sequence"):
        for step in (campaign.game.files.get(stem) or {}).get("steps", []):
            if not isinstance(step, dict) or not step.get("name"):
                continue
            for key in (step.get("id"), step.get("rule")):
                if isinstance(key, str) and key:
                    names.setdefault(key, step["name"])
    return names


def _scope_label(campaign: Campaign, scope: str) -> str:
    """Who sees a roll (or a seed's rolls): once the campaign is revealed every member does, so
    a secret scope is named as what it was."""
    revealed = campaign.revealed_at is not None
    if scope == PUBLIC:
        return _("public")
    if scope == REFEREE:
        return _("referee's, secret until the reveal") if revealed else _("referee only")
    if scope in campaign.game.side_keys:
        side = {"side": campaign.side(scope).name.in_language(get_language())}
        if revealed:
            return _("%(side)s's, secret until the reveal") % side
        return _("%(side)s only") % side
    return scope


# --- filters -------------------------------------------------------------------------------


class DiceFilterForm(forms.Form):
    """The log's GET filters. A value that is not one of the choices is ignored, not an error."""

    index = forms.TypedChoiceField(required=False, coerce=int, empty_value=None)
    step = forms.ChoiceField(required=False, label=gettext_lazy("Step / rule"))
    side = forms.ChoiceField(required=False, label=gettext_lazy("Rolled for"))

    def __init__(self, data: QueryDict, *, campaign: Campaign, steps: Iterable[str]) -> None:
        super().__init__(data, auto_id="id_filter_%s")
        self.fields["index"].label = period_word(campaign)
        self.fields["index"].choices = [("", _("Every day")), *day_choices(campaign)]
        names = self.step_names = _step_names(campaign)  # the page's rows read them too
        language = get_language()
        self.fields["step"].choices = [("", _("Every step"))] + [
            (step, f"{step} {localized(names[step], language)}" if step in names else step)
            for step in steps
        ]
        self.fields["side"].choices = [("", _("Either side"))] + [
            (side.key, side.name.in_language(language)) for side in campaign.sides
        ]

    def filters(self) -> dict[str, Any]:
        """The valid filters only: a bad value is dropped, the others still apply."""
        self.is_valid()
        return {
            name: value
            for name, value in self.cleaned_data.items()
            if value is not None and value != ""
        }


def _visible_rolls(viewer: Viewer) -> QuerySet[DiceRoll]:
    return viewer.filter_visible(DiceRoll.objects.filter(campaign=viewer.campaign))


def visible_steps(viewer: Viewer) -> list[str]:
    """The steps of the rolls ``viewer`` sees, in order (the step filter's choices).

    A ``DISTINCT`` would read an entry of the index per roll (neither SQLite nor PostgreSQL
    skips through an index); this walks the ``dice_steps`` index (campaign, visibility, step)
    from each step to the next of each visible scope instead, one probe per step, so it costs
    the same for 30 rolls or 30,000."""
    scopes = viewer.visible_scopes()
    if not scopes:
        return []
    table = connection.ops.quote_name(DiceRoll._meta.db_table)
    start = " UNION ALL ".join(["SELECT %s AS scope"] * len(scopes))
    sql = f"""
        WITH RECURSIVE scopes(scope) AS ({start}),
        walk(scope, step) AS (
            SELECT scope, (
                SELECT MIN(step) FROM {table}
                WHERE campaign_id = %s AND visibility = scopes.scope
            ) FROM scopes
            UNION ALL
            SELECT scope, (
                SELECT MIN(step) FROM {table}
                WHERE campaign_id = %s AND visibility = walk.scope AND step > walk.step
            ) FROM walk WHERE step IS NOT NULL
        )
        SELECT DISTINCT step FROM walk WHERE step IS NOT NULL ORDER BY step
    """
    with connection.cursor() as cursor:
        cursor.execute(sql, [*scopes, viewer.campaign.pk, viewer.campaign.pk])
        return [step for (step,) in cursor.fetchall()]


# --- rows ----------------------------------------------------------------------------------


@dataclass(eq=False)  # written once, read by the page; a frozen one took 3× as long to make
class RollRow(Lookup):
    """One roll as the log draws it: every value already in words (see ``_rows``)."""

    roll: DiceRoll
    pk: int
    oid: str
    when_iso: str  # the time as <time datetime="…"> gives it
    when: str  # the time as the reader reads it
    day: str
    step: str
    step_name: str
    note: str
    table_name: str
    side: str
    scope: str
    kind: str
    faces: str
    counter: int | None
    original: int
    modifiers: list[tuple[str, str]]
    final: int
    result: str
    voided: bool
    rolled_by: str
    voided_by: str
    void_url: str  # where the referee posts its void
    check: str = ""  # a verify status
    check_words: str = ""


def _step_name(names: Mapping[str, Any], roll: DiceRoll) -> str:
    """The name of the step the roll was made in: a short game's turn step when the roll has one
    (two segments' air power share rule 11.16), else the step named by the rule."""
    for key in (roll.sequence_step, roll.step):
        if key and key in names:
            return localized(names[key], get_language())
    return ""


def _rows(
    viewer: Viewer,
    rolls: list[DiceRoll],
    commitments: Mapping[int, DiceCommitment] | None = None,
    step_names: Mapping[str, Any] | None = None,
) -> list[RollRow]:
    """The rolls as the log shows them: names from game data, users (imported ones too).

    ``commitments``: the rolls' commitments by id, already read (the page's list of
    commitments holds every one of its rolls'); else each roll's own. The words a page repeats
    (a day, a step, a table, a side, a scope) are looked up once per page; ``step_names``: the
    game's step names (``_step_names``) when the page read them already."""
    campaign = viewer.campaign
    tables = _table_names(campaign)
    steps = _step_names(campaign) if step_names is None else step_names
    language = get_language()
    names: dict[tuple[int, str], str] = {}
    if any(
        roll.rolled_by_id is None or (roll.voided_at and roll.voided_by_id is None)
        for roll in rolls
    ):
        # Imported rolls have no users here: their dice.rolled / dice.voided events keep the
        # names (one query, asked only when a roll of the page has no user).
        names = roll_actor_names(
            viewer.filter_visible(
                CampaignEvent.objects.filter(
                    campaign=campaign,
                    target_type=ROLL_TARGET,
                    target_id__in=[roll.pk for roll in rolls],
                    action__in=list(ROLL_ACTORS),
                    actor__isnull=True,
                )
            )
            # Unordered: sorted by time, SQLite would walk the campaign's every event for them.
            .order_by()
            .only("action", "target_type", "target_id", "data", "actor")
        )

    def user(roll: DiceRoll, role: str) -> str:
        if getattr(roll, f"{role}_id") is None:
            return names.get((roll.pk, role), "")
        # The log's page reads the names with its rolls (``_named``); a roll read alone, its
        # users (``select_related``).
        name = getattr(roll, f"{role}_name", None)
        return name if name is not None else getattr(roll, role).get_username()

    void_url = url_maker("campaigns:void_roll", campaign.pk)
    drawn = when_drawn()
    days: dict[int, str] = {}
    scopes: dict[str, str] = {}
    sides: dict[str, str] = {}
    step_names: dict[tuple[str, str], str] = {}
    table_names: dict[str, str] = {}
    rows = []
    for roll in rolls:
        if roll.side not in sides:
            sides[roll.side] = (
                campaign.side(roll.side).name.in_language(language)
                if roll.side in campaign.game.side_keys
                else ""
            )
        if roll.index not in days:
            days[roll.index] = day_label(campaign, roll.index)
        if roll.visibility not in scopes:
            scopes[roll.visibility] = _scope_label(campaign, roll.visibility)
        step_key = (roll.sequence_step, roll.step)
        if step_key not in step_names:
            step_names[step_key] = _step_name(steps, roll)
        if roll.table_id not in table_names:
            table_names[roll.table_id] = localized(
                tables.get(roll.table_id, roll.table_id), language
            )
        commitment = (
            commitments.get(roll.commitment_id) if commitments is not None else roll.commitment
        )
        verdict = checks.check(roll, commitment).status
        when_iso, when = drawn(roll.rolled_at)
        key = oid(roll.pk)
        rows.append(
            RollRow(
                roll=roll,
                pk=roll.pk,
                oid=key,
                when_iso=when_iso,
                when=when,
                day=days[roll.index],
                step=roll.step,
                step_name=step_names[step_key],
                # ``roll_note``'s words, without its import on every call.
                note=in_language(roll.note_words, roll.note, language) if roll.note else "",
                table_name=table_names[roll.table_id],
                side=sides[roll.side],
                scope=scopes[roll.visibility],
                kind=roll.kind,
                faces=" + ".join(str(face) for face in roll.faces),
                counter=roll.counter,
                original=roll.original,
                modifiers=[
                    (signed(m.get("value", 0)), modifier_reason(m, language))
                    for m in roll.modifiers
                    if isinstance(m, dict)
                ],
                final=roll.final,
                result=result_words(roll.result, language),
                voided=bool(roll.voided_at),
                rolled_by=user(roll, "rolled_by"),
                voided_by=user(roll, "voided_by") if roll.voided_at else "",
                void_url=void_url(roll.pk, key),
                check=verdict,
                check_words=str(checks.STATUS_WORDS[verdict]),
            )
        )
    return rows


# --- statistics ----------------------------------------------------------------------------


@dataclass
class DiceStats:
    """Counts of the rolls of one group that were not voided."""

    label: str
    dr: dict[int, int] = field(default_factory=dict)  # original dr → count
    DR: dict[int, int] = field(default_factory=dict)  # original DR → count

    def add(self, kind: str, original: int, count: int) -> None:
        tally = self.DR if kind == "DR" else self.dr
        tally[original] = tally.get(original, 0) + count

    @property
    def dr_count(self) -> int:
        return sum(self.dr.values())

    @property
    def DR_count(self) -> int:  # noqa: N802 - DR and dr are the rules' names
        return sum(self.DR.values())

    @staticmethod
    def _average(tally: Mapping[int, int]) -> float | None:
        count = sum(tally.values())
        return sum(value * n for value, n in tally.items()) / count if count else None

    @property
    def dr_average(self) -> float | None:
        return self._average(self.dr)

    @property
    def DR_average(self) -> float | None:  # noqa: N802
        return self._average(self.DR)

    @property
    def distribution(self) -> list[int]:
        """How many DR came out 2, 3 … 12 (original, before modifiers)."""
        return [self.DR.get(total, 0) for total in DR_TOTALS]


# The unfiltered log's counts, a query compiled once per set of scopes a viewer may see (a few
# fixed words: campaigns.access), run with the campaign's id (campaigns.compiled).
_COUNTS: dict[tuple[str, ...], CompiledQuery] = {}


def _unfiltered_counts(viewer: Viewer) -> list[tuple[str, str, str, int, int]]:
    scopes = tuple(viewer.visible_scopes())
    query = _COUNTS.get(scopes)
    if query is None:
        # The counts the database keeps (``RollTotal``): a row per kind of roll, not per roll.
        query = _COUNTS[scopes] = CompiledQuery(
            lambda campaign_id: (
                RollTotal.objects.filter(campaign_id=campaign_id, visibility__in=scopes)
                .order_by()
                .values_list("side", "visibility", "kind", "original", "rolls")
            ),
            1,
        )
    return query(viewer.campaign.pk)


def _statistics(viewer: Viewer, rolls: QuerySet[DiceRoll] | None) -> list[DiceStats]:
    """Per side the viewer may see, then the public rolls, then everything the viewer sees.

    ``rolls`` is already filtered to what the viewer may see: the counts say nothing of other
    rolls; None: every roll the viewer may see. Voided rolls are left out.
    """
    campaign = viewer.campaign
    language = get_language()
    groups = [
        (
            DiceStats(
                _("Rolls for %(side)s") % {"side": campaign.side(key).name.in_language(language)}
            ),
            lambda side, scope, key=key: side == key,
        )
        for key in viewer.visible_sides()
    ]
    groups.append((DiceStats(_("Public rolls")), lambda side, scope: scope == PUBLIC))
    if viewer.visible_scopes() != [PUBLIC]:
        groups.append((DiceStats(_("All rolls shown")), lambda side, scope: True))
    counts = (
        _unfiltered_counts(viewer)
        if rolls is None
        else rolls.filter(voided_at__isnull=True)
        .order_by()
        .values_list("side", "visibility", "kind", "original")
        .annotate(n=Count("id"))
    )
    for side, scope, kind, original, n in counts:
        for stats, belongs in groups:
            if belongs(side, scope):
                stats.add(kind, original, n)
    return [stats for stats, _belongs in groups]


# --- the page ------------------------------------------------------------------------------


def _filtered(
    viewer: Viewer, params: QueryDict
) -> tuple[DiceFilterForm, QuerySet[DiceRoll] | None]:
    """The filter form (its step choices: steps of rolls the viewer sees) and the rolls its
    valid filters choose (None: no filter, every roll the viewer may see)."""
    filter_form = DiceFilterForm(params, campaign=viewer.campaign, steps=visible_steps(viewer))
    chosen = filter_form.filters()
    return filter_form, _visible_rolls(viewer).filter(**chosen) if chosen else None


def _named(rolls: QuerySet[DiceRoll]) -> QuerySet[DiceRoll]:
    """The log's rolls, newest first, with who rolled and who voided each (``rolled_by_name``,
    ``voided_by_name``): columns of the joins, not two users made for every row."""
    username = get_user_model().USERNAME_FIELD
    return rolls.annotate(
        rolled_by_name=F(f"rolled_by__{username}"), voided_by_name=F(f"voided_by__{username}")
    ).order_by("-rolled_at", "-id")


def _visible_of(campaign_id: int, scopes: tuple[str, ...]) -> QuerySet[DiceRoll]:
    # The scopes are the viewer's own (``Viewer.visible_scopes``: what ``filter_visible`` asks).
    return DiceRoll.objects.filter(campaign_id=campaign_id, visibility__in=scopes)


# The unfiltered log's count and pages, compiled once per set of visible scopes (a few fixed
# words: campaigns.access) and run with the campaign's id (campaigns.history.reads).
_UNFILTERED = ListQuery(
    lambda campaign_id, scopes: (
        _named(_visible_of(campaign_id, scopes)),
        _visible_of(campaign_id, scopes),
    )
)


def _log_context(
    viewer: Viewer, params: QueryDict, request: HttpRequest | None = None, **extra: Any
) -> dict[str, Any]:
    """The log's context. With the ``request`` (a GET of the page) its rows are written in
    Python (campaigns.dice.html); without (the page showing a void form's error on its row)
    the template's ``roll-row`` partial draws them."""
    campaign = viewer.campaign
    filter_form, rolls = _filtered(viewer, params)
    log = paging.listing(
        ListRows.of(_named(rolls), rolls)
        if rolls is not None
        else _UNFILTERED.rows(campaign.pk, tuple(viewer.visible_scopes())),
        params,
        size=DICE_PAGE_SIZE,
        path=campaign_url("campaigns:dice_log", campaign.pk),
        capped=True,
    )
    page = log.page
    shown = list(page.object_list)
    commitments = checks.log_commitments(viewer, shown)
    rows = _rows(
        viewer,
        shown,
        {commitment.pk: commitment for commitment in commitments},
        step_names=filter_form.step_names,
    )
    corrections_url = campaign_url("campaigns:corrections", campaign.pk)
    rows_html = ""
    if request is not None and not extra:
        drawn = when_drawn()
        rows_html = roll_rows(
            rows,
            can_void=viewer.can_overrule,
            can_ask=viewer.can_ask_correction,
            next_url=log.here,
            corrections_url=corrections_url,
            # As the page's ``{% csrf_token %}`` gives it (asked only if a row has a form).
            csrf_token=SimpleLazyObject(lambda: get_token(request)),
            short_time=lambda moment: drawn(moment)[1],
        )
    shown_commitments = [
        (
            day_label(campaign, commitment.index),
            commitment,
            checks.shown_seed(commitment),
            _scope_label(campaign, commitment.visibility),
        )
        for commitment in commitments
    ]
    stats = _statistics(viewer, rolls)
    return {
        "viewer": viewer,
        "campaign": campaign,
        "period_word": period_word(campaign),
        "filter_form": filter_form,
        "filtered": rolls is not None,
        "ignored": bool(filter_form.errors),
        "page": page,
        "rows": rows,
        "rows_html": rows_html,
        "commitments": shown_commitments,
        "commitments_html": commitment_rows(shown_commitments),
        "corrections_url": corrections_url,
        "stats": stats,
        "stats_html": stats_rows(stats),
        "dr_totals": DR_TOTALS,
        "can_void": viewer.can_overrule,
        "next": log.here,
        "newer_url": log.newer_url,
        "older_url": log.older_url,
        **extra,
    }


@require_safe
@login_required
def dice_log(request: HttpRequest, campaign_id: int) -> HttpResponse:
    viewer = access.member(request, campaign_id)
    return render(request, "campaigns/dice/log.html", _log_context(viewer, request.GET, request))


@require_safe
@login_required
def dice_verify(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Every roll the viewer may see recomputed from its commitment's revealed seed."""
    viewer = access.member(request, campaign_id)
    campaign = viewer.campaign
    result = checks.verification(viewer)
    return render(
        request,
        "campaigns/dice/verify.html",
        {
            "viewer": viewer,
            "campaign": campaign,
            "period_word": period_word(campaign),
            "result": result,
            "matches": result.counts[verify.MATCHES],
            "mismatches": result.counts[verify.MISMATCH],
            "pending": result.counts[verify.PENDING],
            "unverifiable": result.counts[verify.UNVERIFIABLE],
            "commitments": [
                {
                    "commitment": held.commitment,
                    "seed": held.seed,
                    "scope": _scope_label(campaign, held.commitment.visibility),
                    "day": day_label(campaign, held.commitment.index),
                    "matches": held.counts[verify.MATCHES],
                    "mismatches": held.counts[verify.MISMATCH],
                    "pending": held.counts[verify.PENDING],
                }
                for held in result.commitments
                if sum(held.counts.values())
            ],
            "failed": [
                {
                    "roll": roll,
                    "day": day_label(campaign, roll.index),
                    "faces": " + ".join(str(face) for face in roll.faces),
                    "expected": " + ".join(str(face) for face in verdict.expected),
                }
                for roll, verdict in result.failed
            ],
        },
    )


# --- voiding -------------------------------------------------------------------------------


class VoidForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("Why is the roll void?"),
        max_length=DiceRoll._meta.get_field("void_reason").max_length,
        error_messages={"required": gettext_lazy("Say why the roll is void.")},
    )


def _back(request: HttpRequest, campaign: Campaign, next_url: str, roll: DiceRoll) -> str:
    """Where the log was (its filters and page), or the log itself; never another site."""
    log = reverse("campaigns:dice_log", args=[campaign.pk])
    return f"{paging.back_to(request, next_url, log)}#roll-{oid(roll.pk)}"


@vary_on_headers("HX-Request")
@require_POST
@login_required
def void_roll(request: HttpRequest, campaign_id: int, roll_id: int) -> HttpResponse:
    """A referee voids a roll with a reason; it stays in the log."""
    viewer = access.member(request, campaign_id)
    roll = get_object_or_404(
        _visible_rolls(viewer).select_related("rolled_by", "voided_by"), pk=roll_id
    )
    access.require(viewer.can_overrule)  # after the lookup: a roll one may not see is a 404
    form = VoidForm(request.POST)
    next_url = request.POST.get("next", "")  # where the log was: checked by _back
    if form.is_valid():
        try:
            dice.void(roll, by=request.user, reason=form.cleaned_data["reason"])
        except dice.DiceError as error:
            messages.error(request, str(error))
        else:
            messages.success(
                request,
                _("Voided the %(kind)s %(faces)s of %(step)s (%(day)s).")
                % {
                    "kind": roll.kind,
                    "faces": " + ".join(str(face) for face in roll.faces),
                    "step": roll.step,
                    "day": day_label(viewer.campaign, roll.index),
                },
            )
        if request.htmx:
            roll.refresh_from_db()
            # The row is swapped; the statistics (voided rolls do not count) reload themselves.
            return trigger_client_event(
                _row_response(request, viewer, roll, form=None), "roll-voided"
            )
        return redirect(_back(request, viewer.campaign, next_url, roll))
    # A reason is required: show the form again, with what was typed, on the row.
    if request.htmx:
        return _row_response(request, viewer, roll, form=form)
    context = _log_context(viewer, paging.query_of(next_url), void_form=form, void_roll_id=roll.pk)
    if roll.pk not in {row.roll.pk for row in context["rows"]}:
        messages.error(request, form.errors["reason"][0])
    return render(request, "campaigns/dice/log.html", context)


def _row_response(
    request: HttpRequest, viewer: Viewer, roll: DiceRoll, *, form: VoidForm | None
) -> HttpResponse:
    (row,) = _rows(viewer, [roll])
    return render(
        request,
        "campaigns/dice/log.html#roll-row",
        {
            "campaign": viewer.campaign,
            "viewer": viewer,
            "row": row,
            "single_row": True,
            "corrections_url": reverse("campaigns:corrections", args=[viewer.campaign.pk]),
            "can_void": True,
            "void_form": form,
            "void_roll_id": roll.pk if form is not None else None,
            "next": request.POST.get("next", ""),
        },
    )
