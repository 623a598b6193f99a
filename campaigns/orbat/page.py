"""The order-of-battle page as data: the side's RGs and lines grouped into the divider's boxes,
each line's row with its forms, and the RGs with their statuses. The views
(campaigns.orbat.views) render what these build.

Windowed, so that a page's work does not grow with the campaign (docs/performance.md): the RGs
are paged, the newest (the current CG day's) first (``?rgs=2``, ``?rgs=all``); each box shows its
first ``LINES_SHOWN`` lines (``?open=<box>`` shows one box whole, ``?open=all`` every box); the
move selects offer the newest ``TARGETS_SHOWN`` RGs awaiting entry besides the page's own. Counts
come from SQL aggregates; the lines from one query taking each box's first lines by index."""

from __future__ import annotations

import contextlib
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import SafeString
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django_htmx.http import reswap, retarget

from campaigns.access import Viewer
from campaigns.compiled import CompiledQuery
from campaigns.history.rows import Lookup, url_maker
from campaigns.models import OrbatBox, OrbatEntry, ReinforcementGroup
from campaigns.oid import from_oid, oid
from campaigns.orbat import lifecycle, rg_status
from campaigns.orbat.divider import divider_boxes, side_groups
from campaigns.orbat.forms import (
    KIND_LABELS,
    STATUS_CHOICES,
    AddUnitsForm,
    Targets,
    line_status_label,
    rg_value,
    target_of,
)
from campaigns.orbat.names import ob_name
from campaigns.paging import ALL, Window, window, with_query
from campaigns.templatetags.gamedata_tags import loc

PAGE = "campaigns/orbat/orbat.html"
FIXED_BOXES = [box.value for box in OrbatBox if box != OrbatBox.RG]
RG_PAGE = 10  # RGs (their boxes and their rows in the status table) a page
LINES_SHOWN = 20  # lines of one box before "show all"
TARGETS_SHOWN = 30  # RGs awaiting entry offered by the move selects besides the page's own
NEWEST_FIRST = ("-index", "-rg_id", "-number", "-id")


# --- what the page shows ---------------------------------------------------------------------


@dataclass
class Row(Lookup):
    """One line of a box, with what its inline forms show (the posted values after an error).

    ``oid``, ``url``, ``unit`` and the rest below them (the line's token, its address, its unit
    in the reader's words …) are filled by ``Dresser`` when the row is drawn."""

    entry: OrbatEntry
    edit: bool = False
    errors: list[str] = field(default_factory=list)
    posted: dict[str, Any] | None = None
    move_options: SafeString | None = None
    oid: str = ""
    url: str = ""
    unit: str = ""
    kind: str = ""  # the line's kind in words
    check_label: str = ""  # its checkbox's name: "Check to move: 3 × 4-6-7"
    edit_href: str = ""  # its edit opened (the page's query kept)
    edit_hx: str = ""  # its edit opened in place

    # Numbers as the page prints them, already text: the template's number formatting (a
    # look-up of the language's separators for each) costs more than the rest of the value.
    @property
    def quantity(self) -> str:
        return str(self.entry.quantity)

    @property
    def single(self) -> bool:
        """Only one left: −1 is disabled."""
        return self.entry.quantity <= 1

    @property
    def fewer(self) -> str:
        return str(self.entry.quantity - 1)

    @property
    def more(self) -> str:
        return str(self.entry.quantity + 1)

    @property
    def version(self) -> str:
        return str(self.entry.version)

    @property
    def origin_rg(self) -> str:
        return self.entry.origin_rg

    @property
    def status_note(self) -> str:
        return self.entry.status_note

    @property
    def kind_label(self) -> str:
        return self.kind or str(KIND_LABELS.get(self.entry.kind, self.entry.kind))

    @property
    def origin_text(self) -> str:
        return _("from %(rg)s") % {"rg": self.entry.origin_rg}

    @property
    def status_labels(self) -> list[str]:
        return [line_status_label(key, self.entry.kind) for key in self.entry.statuses]

    @property
    def editing(self) -> bool:
        """Whether the line shows its edit, move and remove forms (one line at a time)."""
        return self.edit or bool(self.errors)

    @property
    def quantity_value(self) -> Any:
        if self.posted and "quantity" in self.posted:
            return self.posted["quantity"]
        return self.entry.quantity

    @property
    def note_value(self) -> str:
        if self.posted and "status_note" in self.posted:
            return self.posted["status_note"]
        return self.entry.status_note

    @property
    def move_value(self) -> str:
        return (self.posted or {}).get("move_quantity", "")

    @property
    def status_checks(self) -> list[tuple[str, str, bool]]:
        checked = (
            self.posted["statuses"]
            if self.posted and "statuses" in self.posted
            else self.entry.statuses
        )
        return [(key, label, key in checked) for key, label in STATUS_CHOICES]


class Dresser:
    """Fills in what every row of a page draws (``Row.oid``, ``url``, ``unit``), with the
    address and the language looked up once per page."""

    def __init__(self, viewer: Viewer, side: str, keep: str = "") -> None:
        campaign = viewer.campaign
        self.url = url_maker("campaigns:orbat_entry", campaign.pk, side)
        self.page = reverse("campaigns:orbat", args=[campaign.pk, side])
        self.keep = keep  # the page's query ("rgs=2&"), kept by the edit link
        self.names = (campaign.module, campaign.campaign_game, get_language())
        self.kinds = {key: str(label) for key, label in KIND_LABELS.items()}
        self.check = _labels()["check"]

    def __call__(self, row: Row) -> Row:
        entry = row.entry
        row.oid = oid(entry.pk)
        row.url = self.url(entry.pk)
        row.unit = ob_name(entry.unit_type, *self.names)
        row.kind = self.kinds.get(entry.kind, entry.kind)
        row.check_label = f"{self.check}: {entry.quantity} × {row.unit}"
        row.edit_href = f"{self.page}?{self.keep}edit={row.oid}#entry-{row.oid}"
        row.edit_hx = f"{self.page}?edit={row.oid}"
        return row


@dataclass
class Box(Lookup):
    target: str  # the value a form posts for this box
    anchor: str  # the HTML id of its section
    title: str
    rows: list[Row]
    group: ReinforcementGroup | None = None
    name: str = ""
    day: str = ""
    # The RG's life cycle: its status in words and what it may be set to by hand.
    status_label: str = ""
    status_targets: list[tuple[str, str]] = field(default_factory=list)
    # SaP time-frame reinforcements (issue 16): how they enter, in the reader's language.
    entries: list[str] = field(default_factory=list)
    total: int = 0  # lines in the box (rows may show only the first LINES_SHOWN)
    all_url: str = ""  # the box whole, when some of its lines are not shown

    @property
    def hidden(self) -> int:
        return self.total - len(self.rows)

    @property
    def waiting(self) -> bool:
        """An RG box still taking lines (bought, rolled, awaiting entry)."""
        return self.group is not None and self.group.status in lifecycle.WAITING


def _arrival_entries(viewer: Viewer, side: str) -> dict[tuple[str, str], str]:
    """(period, group) → "CG-3: <entry as printed>" for the side's SaP time-frame groups."""
    frames = (
        viewer.campaign.game.files.get("campaign_games", {})
        .get("campaign_games", {})
        .get(viewer.campaign.campaign_game, {})
        .get("time_frames")
        or {}
    )
    found = {}
    for period, frame in frames.items():
        for group in (frame.get("reinforcements") or {}).get(side) or []:
            found[(period, group.get("group", ""))] = f"{period}: {loc(group.get('entry', ''))}"
    return found


def _entries_of(
    entries: dict[tuple[str, str], str], group: ReinforcementGroup | None, lines: list[Row]
) -> list[str]:
    """How the box's time-frame reinforcements enter: an RG's own group, or each group whose
    units are in the box (the lines carry their time frame as their note)."""
    if group is not None:
        arrival = group.details.get("arrival") or {}
        text = entries.get((arrival.get("period", ""), arrival.get("group", "")))
        return [text] if text else []
    periods = {row.entry.status_note for row in lines}
    return [text for (period, _group), text in entries.items() if period in periods]


def anchor_of(target: str) -> str:
    return "box-" + target.replace(":", "-")


def _rg_names(viewer: Viewer, side: str) -> dict[str, str]:
    chart = viewer.campaign.game.files.get("rg_charts", {}).get("sides", {}).get(side, {})
    return {group["id"]: loc(group.get("name", "")) for group in chart.get("groups", [])}


def rg_types_of(viewer: Viewer, side: str) -> dict[str, str]:
    chart = viewer.campaign.game.files.get("rg_charts", {}).get("sides", {}).get(side, {})
    return {group["id"]: group.get("type", "") for group in chart.get("groups", [])}


def _status_targets(viewer: Viewer, group: ReinforcementGroup, rg_type: str) -> list:
    """What the viewer may set the RG to by hand (nothing for one who only reads)."""
    if not viewer.can_act_for_side(group.side):
        return []
    view = rg_status.rule_view(group, rg_type)
    return [
        (key, rg_status.status_label(key))
        for key in lifecycle.manual_targets(view, viewer.campaign.module)
    ]


# The page's queries that read a side's RGs whatever is asked, compiled once per side (a side's
# key: a fixed word of the game data) and run with the campaign's id (campaigns.compiled).
_STATUS_COUNTS: dict[str, CompiledQuery] = {}
_NEWEST_WAITING: dict[str, CompiledQuery] = {}


def _status_counts_query(side: str) -> CompiledQuery:
    return CompiledQuery(
        lambda campaign_id: (
            ReinforcementGroup.objects.filter(campaign_id=campaign_id, side=side)
            .values_list("status")
            .annotate(n=Count("id"))
            .order_by()
        ),
        1,
    )


def _newest_waiting_query(side: str) -> CompiledQuery:
    return CompiledQuery(
        lambda campaign_id: ReinforcementGroup.objects.filter(
            campaign_id=campaign_id, side=side, status__in=lifecycle.WAITING
        ).order_by(*NEWEST_FIRST)[:TARGETS_SHOWN],
        1,
    )


# The side's newest RGs, the first ``stop`` (at most a page: ``rg_window``'s first page).
_NEWEST: dict[tuple[str, int], CompiledQuery] = {}


def _newest_query(side_stop: tuple[str, int]) -> CompiledQuery:
    side, stop = side_stop
    return CompiledQuery(
        lambda campaign_id: ReinforcementGroup.objects.filter(
            campaign_id=campaign_id, side=side
        ).order_by(*NEWEST_FIRST)[:stop],
        1,
    )


def _per_side(kept: dict[Any, CompiledQuery], side: Any, make: Any) -> CompiledQuery:
    query = kept.get(side)
    if query is None:
        query = kept[side] = make(side)
    return query


def _status_counts(
    viewer: Viewer, side: str, groups: list[ReinforcementGroup] | None = None
) -> list[tuple[str, str, int]]:
    """(key, words, how many) for each status some RG of the side is in, in the cycle's order
    (one GROUP BY, or ``groups`` counted when they are loaded already)."""
    if groups is not None:
        tally = rg_status.count_by_status(groups)
    else:
        tally = lifecycle.counts(())
        tally.update(_per_side(_STATUS_COUNTS, side, _status_counts_query)(viewer.campaign.pk))
    return [(key, rg_status.status_label(key), n) for key, n in tally.items() if n]


@dataclass
class RgRow(Lookup):
    """One RG of the side in the life-cycle table: where it stands, what may be set by hand."""

    group: ReinforcementGroup
    name: str
    day: str
    status_label: str
    targets: list[tuple[str, str]]
    oid: str = ""
    label: str = ""
    status: str = ""
    status_url: str = ""  # where its status form posts


def _rg_rows(viewer: Viewer, side: str, groups: list[ReinforcementGroup]) -> list[RgRow]:
    names, types = _rg_names(viewer, side), rg_types_of(viewer, side)
    status_url = url_maker("campaigns:orbat_rg_status", viewer.campaign.pk, side)
    return [
        RgRow(
            group=group,
            name=names.get(group.rg_id, ""),
            day=_day_label(viewer, group.index),
            status_label=rg_status.status_label(group.status),
            targets=_status_targets(viewer, group, types.get(group.rg_id, "")),
            oid=oid(group.pk),
            label=group.label,
            status=group.status,
            status_url=status_url(group.pk),
        )
        for group in groups
    ]


def _day_label(viewer: Viewer, index: int) -> str:
    periods = viewer.campaign.cg.periods
    return periods[index].label.in_language(get_language()) if index < len(periods) else "—"


def groups_of(viewer: Viewer, side: str) -> list[ReinforcementGroup]:
    return side_groups(viewer.campaign, side)


def move_targets(viewer: Viewer, side: str, groups: list[ReinforcementGroup]) -> Targets:
    names = _rg_names(viewer, side)
    return Targets(
        groups=[
            (
                group,
                " · ".join(
                    part
                    for part in (
                        group.label,
                        names.get(group.rg_id, ""),
                        _day_label(viewer, group.index),
                    )
                    if part
                ),
            )
            for group in groups
            if group.status in lifecycle.WAITING
        ]
    )


def _windowed_lines(
    viewer: Viewer, side: str, groups: list[ReinforcementGroup], open_box: str
) -> tuple[list[OrbatEntry], dict[tuple[str, int | None], int]]:
    """The lines of the fixed boxes and of ``groups``' boxes, each box's first ``LINES_SHOWN``
    (every line of ``open_box``, of every box for ``all``), and each box's number of lines: two
    queries, whatever the number of lines.

    The counts are one ``GROUP BY`` on the ``orbat_box_lines`` index (no row read). The lines
    are the page's RGs' (an RG holds a few) and, of each fixed box, the first ``LINES_SHOWN`` by
    id (each a ``LIMIT`` on that index), trimmed in Python to the first ``LINES_SHOWN`` of each
    RG. (A window function numbering the lines of each box numbered every line of the side.)
    Written in SQL (SQLite and PostgreSQL alike): the ORM took longer to compile the seven
    parts than the database to answer them."""
    table = connection.ops.quote_name(OrbatEntry._meta.db_table)
    campaign = viewer.campaign.pk
    page_groups = [group.pk for group in groups]
    in_groups = f"group_id IN ({', '.join(['%s'] * len(page_groups))})" if page_groups else ""
    fixed = ", ".join(["%s"] * len(FIXED_BOXES))
    # Each box a range of the index: the fixed boxes' lines and the page's RGs', no other RG's.
    count = (
        f"SELECT box, group_id, COUNT(*) FROM {table} WHERE campaign_id = %s AND side = %s "
        f"AND box IN ({fixed}) AND group_id IS NULL GROUP BY box, group_id"
    )
    params = [campaign, side, *FIXED_BOXES]
    if in_groups:
        count += (
            f" UNION ALL SELECT box, group_id, COUNT(*) FROM {table} WHERE campaign_id = %s "
            f"AND side = %s AND box = %s AND {in_groups} GROUP BY box, group_id"
        )
        params += [campaign, side, OrbatBox.RG.value, *page_groups]
    with connection.cursor() as cursor:
        cursor.execute(count, params)
        totals = {(box, group): n for box, group, n in cursor.fetchall()}
    if open_box == ALL:
        everything = Q(group__isnull=True) | Q(group__in=page_groups)
        lines = OrbatEntry.objects.filter(campaign=campaign, side=side).filter(everything)
        return list(lines.order_by("id")), totals
    opened: int | None = None
    if open_box.startswith("rg:"):
        with contextlib.suppress(ValueError):
            opened = from_oid(open_box.removeprefix("rg:"))
    parts, params = [], []
    for number, box in enumerate(FIXED_BOXES):
        # The units arriving in a SaP time frame are shown whole: how they enter is read from
        # them.
        whole = box in (open_box, OrbatBox.ARRIVING.value)
        parts.append(
            f"SELECT id FROM (SELECT id FROM {table} WHERE campaign_id = %s AND side = %s "
            f"AND box = %s AND group_id IS NULL ORDER BY id{'' if whole else ' LIMIT %s'}) "
            f"AS box{number}"
        )
        params += [campaign, side, box] if whole else [campaign, side, box, LINES_SHOWN]
    # Not filtered again on the campaign and side, which every part is already: SQLite would
    # then walk the campaign's every line instead of looking up the ones named.
    sql = f"SELECT * FROM {table} WHERE id IN ({' UNION ALL '.join(parts)})"
    if in_groups:
        sql += f" OR {in_groups}"
        params += page_groups
    lines, kept = [], Counter()
    for line in OrbatEntry.objects.raw(sql + " ORDER BY id", params):
        if line.group_id is not None and line.group_id != opened:
            kept[line.group_id] += 1
            if kept[line.group_id] > LINES_SHOWN:
                continue
        lines.append(line)
    return lines, totals


def _boxes(
    viewer: Viewer,
    side: str,
    groups: list[ReinforcementGroup],
    rows: dict[int, Row],
    params: QueryDict,
    path: str,
    keep: str = "",
) -> list[Box]:
    """The divider's boxes of ``groups`` (the page's RGs) and the fixed boxes, with their lines
    (windowed: ``_windowed_lines``).

    ``rows`` replaces the plain row of some lines (the one being edited, one refused).
    """

    dress = Dresser(viewer, side, keep)

    def shown(entry: OrbatEntry) -> Row:
        row = rows.get(entry.pk) or Row(entry)
        if row.entry is not entry:
            row.entry = entry  # what is saved now, with the typed values kept in ``posted``
        return dress(row)

    def whole(target: str) -> str:
        query = params.copy()
        for key in ("edit", "line", "box"):
            query.pop(key, None)
        query["open"] = target
        return with_query(path, query) + "#" + anchor_of(target)

    open_box = params.get("open", "")
    lines, totals = _windowed_lines(viewer, side, groups, open_box)
    names = _rg_names(viewer, side)
    types = rg_types_of(viewer, side)
    entries = _arrival_entries(viewer, side)
    boxes = []
    for divider_box in divider_boxes(groups, ((entry, shown(entry)) for entry in lines)):
        group = divider_box.group
        if group is not None:
            box = Box(
                target=rg_value(group),
                anchor=anchor_of(rg_value(group)),
                title=group.label,
                rows=divider_box.lines,
                group=group,
                name=names.get(group.rg_id, ""),
                day=_day_label(viewer, group.index),
                status_label=rg_status.status_label(group.status),
                status_targets=_status_targets(viewer, group, types.get(group.rg_id, "")),
                entries=_entries_of(entries, group, []),
                total=totals.get((OrbatBox.RG.value, group.pk), 0),
            )
        else:
            fixed = OrbatBox(divider_box.box)
            box = Box(
                target=fixed.value,
                anchor=anchor_of(fixed.value),
                title=str(fixed.label),
                rows=divider_box.lines,
                entries=(
                    _entries_of(entries, None, divider_box.lines)
                    if fixed == OrbatBox.ARRIVING
                    else []
                ),
                total=totals.get((fixed.value, None), 0),
            )
        if box.hidden > 0:
            box.all_url = whole(box.target)
        boxes.append(box)
    return boxes


class _Counted:
    """A queryset whose length is already known (the status counts' sum): the paginator asks
    for no COUNT of its own."""

    def __init__(self, queryset, count: int, first: Any = None) -> None:
        self.queryset, self.number, self.first = queryset, count, first

    def count(self) -> int:
        return self.number

    def __len__(self) -> int:
        return self.number

    def __getitem__(self, key):
        if (
            self.first is not None
            and isinstance(key, slice)
            and not key.start
            and key.step is None
            and key.stop is not None
            and 0 < key.stop <= RG_PAGE
        ):
            return self.first(key.stop)  # the first page (the one nearly always read)
        return self.queryset[key]

    def __iter__(self):
        return iter(self.queryset)


def rg_window(
    viewer: Viewer,
    side: str,
    params: QueryDict,
    path: str,
    total: int,
    groups: list[ReinforcementGroup] | None = None,
) -> Window:
    """The page's RGs, the newest (the current CG day's) first: ``?rgs=<n>``, ``?rgs=all``;
    from ``groups`` when they are loaded already, else one query for the page's rows."""
    if groups is not None:
        rows = sorted(groups, key=lambda g: (g.index, g.rg_id, g.number, g.pk), reverse=True)
    else:
        rows = _Counted(
            ReinforcementGroup.objects.filter(campaign=viewer.campaign, side=side).order_by(
                *NEWEST_FIRST
            ),
            total,
            lambda stop: _per_side(_NEWEST, (side, stop), _newest_query)(viewer.campaign.pk),
        )
    return window(rows, params, size=RG_PAGE, path=path, param="rgs")


def shown_targets(
    viewer: Viewer, side: str, page_groups: list[ReinforcementGroup], selected: str = ""
) -> list[ReinforcementGroup]:
    """The RGs the page's move selects offer: the newest ``TARGETS_SHOWN`` awaiting entry, the
    page's own and the one asked for (``?box=rg:…``), in the divider's order. What is posted
    is checked against every RG awaiting entry (``groups_of``), not against these."""
    waiting = ReinforcementGroup.objects.filter(
        campaign=viewer.campaign, side=side, status__in=lifecycle.WAITING
    )
    newest = _per_side(_NEWEST_WAITING, side, _newest_waiting_query)(viewer.campaign.pk)
    picked = {group.pk: group for group in newest}
    for group in page_groups:
        picked.setdefault(group.pk, group)
    if selected.startswith("rg:"):
        try:
            pk = from_oid(selected.removeprefix("rg:"))
        except ValueError:
            pk = None
        if pk is not None and pk not in picked:
            picked.update({group.pk: group for group in waiting.filter(pk=pk)})
    return sorted(picked.values(), key=lambda g: (g.index, g.rg_id, g.number, g.pk))


def page_context(
    viewer: Viewer,
    side: str,
    *,
    add_form: AddUnitsForm | None = None,
    row: Row | None = None,
    editing: int | None = None,
    groups: list[ReinforcementGroup] | None = None,
    selected_box: str = "",
    move_box: str = "",
    params: QueryDict | None = None,
) -> dict[str, Any]:
    """The whole page; ``row`` is a line to show as given (refused), ``editing`` one to open;
    ``params`` the page's query (its RG page, its open box); ``groups`` every RG of the side,
    given when a posted box was checked against them."""
    params = params if params is not None else QueryDict()
    path = reverse("campaigns:orbat", args=[viewer.campaign.pk, side])
    status_counts = _status_counts(viewer, side, groups)
    rgs = rg_window(viewer, side, params, path, sum(n for *_, n in status_counts), groups)
    page_groups = sorted(rgs.rows, key=lambda g: (g.index, g.rg_id, g.number, g.pk))
    if groups is not None:
        targets = move_targets(viewer, side, groups)
    else:
        targets = move_targets(
            viewer, side, shown_targets(viewer, side, page_groups, selected_box or move_box)
        )
    if add_form is None:
        add_form = AddUnitsForm(targets=targets, initial={"box": selected_box})
    rows = {}
    if editing is not None:
        rows[editing] = Row(OrbatEntry(pk=editing), edit=True)
    if row is not None:
        rows[row.entry.pk] = row
    for special in rows.values():
        if special.move_options is None:
            special.move_options = targets.options_html()
    kept = params.copy()
    for key in ("edit", "line", "box"):
        kept.pop(key, None)
    keep = kept.urlencode() + "&" if kept else ""
    return {
        "viewer": viewer,
        "campaign": viewer.campaign,
        "side": side,
        "side_name": viewer.campaign.side(side).name,
        "orbat_url": path,
        "can_record": viewer.can_record,
        "boxes": _boxes(viewer, side, page_groups, rows, params, path, keep),
        "rgs": rgs,
        "open_all_url": "" if params.get("open") == ALL else _open_all(params, path),
        "status_counts": status_counts,
        "rg_rows": _rg_rows(viewer, side, page_groups),
        "add_form": add_form,
        "move_options": targets.options_html(selected=move_box),
        "labels": _labels(),
    }


def _open_all(params: QueryDict, path: str) -> str:
    query = params.copy()
    for key in ("edit", "line", "box"):
        query.pop(key, None)
    query["open"] = ALL
    return with_query(path, query)


def _labels() -> dict[str, str]:
    """Words repeated on every line, translated once per page."""
    return {
        "fewer": _("One fewer"),
        "more": _("One more"),
        "edit": _("Edit, move or remove"),
        "check": _("Check to move"),
    }


def _row_context(viewer: Viewer, side: str, row: Row) -> dict[str, Any]:
    """The context of one line alone (the HTMX swap of a row)."""
    if row.editing and row.move_options is None:
        row.move_options = move_targets(
            viewer, side, shown_targets(viewer, side, [], target_of(row.entry))
        ).options_html()
    return {
        "viewer": viewer,
        "campaign": viewer.campaign,
        "side": side,
        "orbat_url": reverse("campaigns:orbat", args=[viewer.campaign.pk, side]),
        "can_record": viewer.can_record,
        "row": Dresser(viewer, side)(row),
        "single_row": True,
        "labels": _labels(),
    }


def row_response(request: HttpRequest, viewer: Viewer, side: str, row: Row) -> HttpResponse:
    """The HTMX answer that swaps one line in place, whichever element the form aimed at."""
    response = render(request, PAGE + "#orbat-row", _row_context(viewer, side, row))
    return reswap(retarget(response, f"#entry-{oid(row.entry.pk)}"), "outerHTML")


def page_url(campaign_id: int, side: str, anchor: str = "", box: str = "") -> str:
    url = reverse("campaigns:orbat", args=[campaign_id, side])
    if box:
        url += f"?box={box}"
    return url + (f"#{anchor}" if anchor else "")


def render_boxes(request: HttpRequest, context: dict[str, Any]) -> HttpResponse:
    template = PAGE + "#orbat-boxes" if request.htmx else PAGE
    return render(request, template, context)
