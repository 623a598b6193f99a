"""The history page (campaigns.history.views.campaign_history) and its undo button (undo_change):
paging, filters, who sees what, undo from any page."""

import re
from urllib.parse import urlencode

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.access import REFEREE, viewer_for
from campaigns.history import services as history
from campaigns.history.views import HISTORY_PAGE_SIZE
from campaigns.models import CampaignEvent, LedgerEntry
from campaigns.oid import oid
from campaigns.roster import services as roster

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
MEMBERS = ("german", "soviet", "referee", "observer")


def url(campaign, **params):
    path = reverse("campaigns:history", args=[campaign.pk])
    return f"{path}?{urlencode(params)}" if params else path


def filler(campaign, people, count, *, index=0, visibility="public"):
    """``count`` calendar edits (public unless said), the referee's."""
    for _n in range(count):
        history.record(
            campaign, people["referee"], "day.updated", visibility=visibility, index=index
        )


def ledger_event(campaign, actor, side, *, index=1, amount=16):
    return history.record(
        campaign,
        actor,
        "ledger.added",
        visibility=side,
        side=side,
        index=index,
        ledger="cpp",
        kind="replenishment",
        amount=amount,
    )


def cvp_event(campaign, actor, side, *, index=2):
    return history.record(campaign, actor, "cvp.added", side=side, index=index, what="4-6-7", cvp=2)


def referee_roll(campaign, people, *, index=0):
    return history.record(
        campaign,
        people["referee"],
        "dice.rolled",
        visibility=REFEREE,
        index=index,
        kind="dr",
        step="11.6122",
        table="",
        faces=[3],
        final=3,
    )


def visible_ids(campaign, people, persona):
    viewer = viewer_for(people[persona], campaign.pk)
    return list(
        viewer.filter_visible(campaign.events.all())
        .order_by("-created_at", "-id")
        .values_list("pk", flat=True)
    )


def shown_ids(response):
    return [row.event.pk for row in response.context["rows"]]


# --- paging ----------------------------------------------------------------------------------


def test_every_event_is_reachable_newest_first(campaign, people, client_as):
    filler(campaign, people, HISTORY_PAGE_SIZE + 20)
    expected = visible_ids(campaign, people, "observer")
    assert len(expected) > HISTORY_PAGE_SIZE + 1
    client = client_as("observer")
    first = client.get(url(campaign))
    second = client.get(url(campaign, page=2))
    assert shown_ids(first) == expected[:HISTORY_PAGE_SIZE]
    assert shown_ids(second) == expected[HISTORY_PAGE_SIZE:]
    # The campaign's first event, the 101st and more from the top, is on the second page.
    created = campaign.events.get(action="campaign.created").pk
    assert created in shown_ids(second) and created not in shown_ids(first)
    assert "Created the campaign “Into the Factory, club night”." in second.content.decode()
    assert first.context["page"].paginator.num_pages == 2


def test_the_page_links_keep_the_filters(campaign, people, client_as):
    filler(campaign, people, HISTORY_PAGE_SIZE + 5, index=3)
    html = client_as("german").get(url(campaign, index=3)).content.decode()
    older = url(campaign, index=3, page=2).replace("&", "&amp;")
    assert f'href="{older}"' in html
    assert "Page 1 of 2" in html
    html = client_as("german").get(url(campaign, index=3, page=2)).content.decode()
    newer = url(campaign, index=3, page=1).replace("&", "&amp;")
    assert f'href="{newer}"' in html


@pytest.mark.parametrize(("asked", "shown"), [("99", 2), ("0", 2), ("-1", 2), ("two", 1)])
def test_a_page_number_out_of_range_shows_the_last_page(campaign, people, client_as, asked, shown):
    """Documented choice: past the end (or below 1) is the last page, not a number the first —
    an old bookmark lands on a page, never on an error."""
    filler(campaign, people, HISTORY_PAGE_SIZE)
    response = client_as("observer").get(url(campaign, page=asked))
    assert response.status_code == 200
    assert response.context["page"].number == shown


def test_a_long_history_is_counted_only_a_few_pages_ahead(campaign, people, client_as, monkeypatch):
    """The count stops ``LOOKAHEAD`` pages past the one asked ("more than"), so a page of a
    history of any length reads the same rows of the index; every event is still reachable
    through the "older" links, and a page past the end is still the last one."""
    monkeypatch.setattr("campaigns.history.views.HISTORY_PAGE_SIZE", 5)
    monkeypatch.setattr("campaigns.paging.LOOKAHEAD", 1)
    filler(campaign, people, 40)
    expected = visible_ids(campaign, people, "observer")
    client = client_as("observer")
    with CaptureQueriesContext(connection) as queries:
        first = client.get(url(campaign))
    html = first.content.decode()
    assert "More than 10 changes" in html and "Page 1 of at least 3" in html
    (count,) = [q["sql"] for q in queries.captured_queries if "COUNT(" in q["sql"]]
    assert "LIMIT 11" in count
    shown, page = [], first
    while True:
        shown += shown_ids(page)
        older = page.context["listing"].older_url
        if not older:
            break
        page = client.get(older)
    assert shown == expected
    assert "More than" not in page.content.decode()  # the last page counts to the end
    pages = -(-len(expected) // 5)
    assert f"Page {pages} of {pages}" in page.content.decode()
    last = client.get(url(campaign, page=99))
    assert shown_ids(last) == shown_ids(page)
    people["observer"].language = "ja"
    people["observer"].save()
    html = client_as("observer").get(url(campaign)).content.decode()
    assert "変更10件超" in html and "1／3ページ以上" in html


# --- filters ---------------------------------------------------------------------------------


def test_the_day_filter_keeps_the_changes_about_that_day(campaign, people, client_as):
    filler(campaign, people, 3, index=1)
    filler(campaign, people, 2, index=2)
    cvp_event(campaign, people["soviet"], "german", index=2)
    response = client_as("observer").get(url(campaign, index=2))
    events = [row.event for row in response.context["rows"]]
    assert len(events) == 3
    assert {event.data["index"] for event in events} == {2}
    html = response.content.decode()
    # The calendar's labels under the campaign's period word, as on the other pages.
    assert '<label for="id_filter_index">CG day</label>' in html
    assert "3 changes" in html


def test_a_short_games_day_filter_is_called_turn(people, client_as):
    from campaigns.games.registry import get_module
    from campaigns.members import services

    game = services.create_campaign(
        user=people["german"],
        name="Barbarossa",
        module=get_module("defiant_russia"),
        cg_key=get_module("defiant_russia").campaign_games[0].key,
        role="player",
        side=get_module("defiant_russia").sides[0].key,
    )
    html = client_as("german").get(url(game)).content.decode()
    assert '<label for="id_filter_index">Turn</label>' in html


def test_the_side_filter_shows_a_sides_secrets_and_the_public_changes_about_it(
    campaign, people, client_as
):
    german_secret = ledger_event(campaign, people["german"], "german")
    soviet_secret = ledger_event(campaign, people["soviet"], "soviet")
    about_german = cvp_event(campaign, people["soviet"], "german")
    about_soviet = cvp_event(campaign, people["german"], "soviet")
    roll = referee_roll(campaign, people)

    def shown(persona, side):
        response = client_as(persona).get(url(campaign, side=side))
        assert response.status_code == 200
        assert not response.context["ignored"]
        return set(shown_ids(response))

    def joined(side):  # the fixture's public events naming the side: its player joined
        return set(
            campaign.events.filter(visibility="public", data__side=side)
            .exclude(pk__in=[about_german.pk, about_soviet.pk])
            .values_list("pk", flat=True)
        )

    assert joined("german") and joined("soviet")
    assert shown("german", "german") == {german_secret.pk, about_german.pk} | joined("german")
    assert shown("referee", "soviet") == {soviet_secret.pk, about_soviet.pk} | joined("soviet")
    assert shown("referee", "referee") == {roll.pk}
    public = shown("observer", "public")
    assert {about_german.pk, about_soviet.pk} <= public
    assert public.isdisjoint({german_secret.pk, soviet_secret.pk, roll.pk})


SIDE_CHOICES = {
    "german": ["", "public", "german"],
    "soviet": ["", "public", "soviet"],
    "referee": ["", "public", "german", "soviet", REFEREE],
    "observer": ["", "public"],
}


@pytest.mark.parametrize("persona", MEMBERS)
def test_the_side_filter_offers_only_the_sides_the_viewer_may_see(campaign, client_as, persona):
    form = client_as(persona).get(url(campaign)).context["filter_form"]
    assert [key for key, _label in form.fields["side"].choices] == SIDE_CHOICES[persona]


def test_the_kind_filter(campaign, people, client_as):
    german_secret = ledger_event(campaign, people["german"], "german")
    about_german = cvp_event(campaign, people["soviet"], "german")
    filler(campaign, people, 2)
    client = client_as("german")
    assert shown_ids(client.get(url(campaign, kind="cvp"))) == [about_german.pk]
    assert shown_ids(client.get(url(campaign, kind="roster"))) == [german_secret.pk]
    members = client.get(url(campaign, kind="members"))
    assert {row.event.action for row in members.context["rows"]} == {
        "member.joined",
        "invitation.created",
        # The referee's seat waited for the German and the Soviet side (tests.seats.join).
        "member.seat_requested",
        "member.seat_consented",
        "member.seat_opened",
    }
    # Filters add up.
    both = client.get(url(campaign, kind="cvp", side="german", index=2))
    assert shown_ids(both) == [about_german.pk]
    assert shown_ids(client.get(url(campaign, kind="cvp", index=1))) == []


def test_the_kinds_are_offered_with_readable_names(campaign, client_as):
    form = client_as("german").get(url(campaign)).context["filter_form"]
    labels = dict(form.fields["kind"].choices)
    assert labels["purchases"] == "Purchases"
    assert labels["perimeters"] == "Perimeters"
    assert labels["refit"] == "Refit Phase steps"
    assert labels["turns"] == "Short-game turns and options"


@pytest.mark.parametrize(
    "params",
    [
        {"index": "999"},
        {"index": "day one"},
        {"kind": "nothing"},
        {"side": "martians"},
        {"side": "soviet"},  # another side's secrets: not a choice for the German player
        {"side": REFEREE},
        {"page": "x", "index": "-1"},
    ],
)
def test_a_bad_filter_value_is_ignored_with_an_error(campaign, people, client_as, params):
    ledger_event(campaign, people["soviet"], "soviet")
    response = client_as("german").get(url(campaign, **params))
    assert response.status_code == 200
    assert response.context["ignored"]
    assert response.context["filter_form"].errors
    html = response.content.decode()
    assert "A filter value was not understood and was ignored." in html
    assert 'aria-invalid="true"' in html
    # Ignored: the list is the unfiltered one.
    assert shown_ids(response) == visible_ids(campaign, people, "german")


def test_a_bad_value_leaves_the_other_filters_in_force(campaign, people, client_as):
    about_german = cvp_event(campaign, people["soviet"], "german")
    response = client_as("german").get(url(campaign, kind="cvp", index="zero"))
    assert response.context["ignored"]
    assert shown_ids(response) == [about_german.pk]


def test_no_match_says_so(campaign, client_as):
    html = client_as("german").get(url(campaign, kind="perimeters")).content.decode()
    assert "No change matches the filters." in html


# --- who sees what ---------------------------------------------------------------------------


SEES = {
    "german": {"public", "german"},
    "soviet": {"public", "soviet"},
    "referee": {"public", "german", "soviet", REFEREE},
    "observer": {"public"},
}


@pytest.mark.parametrize("persona", MEMBERS)
def test_each_persona_sees_its_scopes_on_every_page(campaign, people, client_as, persona):
    for side in ("german", "soviet"):
        for _n in range(60):
            ledger_event(campaign, people[side], side)
    for _n in range(60):
        referee_roll(campaign, people)
    client = client_as(persona)
    first = client.get(url(campaign))
    pages = first.context["page"].paginator.num_pages
    seen = []
    for number in range(1, pages + 1):
        seen += [row.event for row in client.get(url(campaign, page=number)).context["rows"]]
    assert {event.visibility for event in seen} == SEES[persona]
    assert [event.pk for event in seen] == visible_ids(campaign, people, persona)


def test_an_outsider_gets_404_and_learns_nothing(campaign, people, client_as):
    filler(campaign, people, 5)
    client = client_as("outsider")
    assert client.get(url(campaign)).status_code == 404
    assert client.get(url(campaign, page=2, kind="cvp")).status_code == 404
    assert client.get(url(campaign), **HX).status_code == 404


def test_hidden_events_are_not_counted(campaign, people, client_as):
    """Three pages of German secrets: the Soviet player's history is one page long, and its
    count is only what the Soviet player may see."""
    for _n in range(3 * HISTORY_PAGE_SIZE):
        ledger_event(campaign, people["german"], "german")
    visible = len(visible_ids(campaign, people, "soviet"))
    assert visible < HISTORY_PAGE_SIZE
    response = client_as("soviet").get(url(campaign))
    page = response.context["page"]
    assert page.paginator.count == visible
    assert page.paginator.num_pages == 1
    html = response.content.decode()
    assert f"{visible} changes" in html
    assert "Page 1 of" not in html
    assert "Older changes" not in html
    # Not by asking for a later page either, nor by filtering on the German side.
    assert client_as("soviet").get(url(campaign, page=2)).context["page"].number == 1
    by_german = client_as("soviet").get(url(campaign, side="german"))
    assert by_german.context["page"].paginator.count == visible
    assert "CPP" not in by_german.content.decode().split('id="history"')[1]
    # The German player sees them all, over more than three pages.
    german = client_as("german").get(url(campaign)).context["page"]
    count = len(visible_ids(campaign, people, "german"))
    assert german.paginator.count == count > 3 * HISTORY_PAGE_SIZE
    assert german.paginator.num_pages == -(-count // HISTORY_PAGE_SIZE) == 4


# --- undo ------------------------------------------------------------------------------------


def test_undo_from_an_old_filtered_page_returns_to_it(campaign, people, client_as):
    entry = roster.add_ledger_entry(
        campaign,
        by=people["german"],
        side="german",
        ledger="cpp",
        index=1,
        kind="replenishment",
        amount=16,
    )
    event = campaign.events.get(action="ledger.added")
    for _n in range(HISTORY_PAGE_SIZE + 5):
        cvp_event(campaign, people["referee"], "german", index=3)
    client = client_as("german")
    first = client.get(url(campaign, side="german"))
    assert event.pk not in shown_ids(first)
    page = url(campaign, side="german", page=2)
    response = client.get(page)
    (row,) = [row for row in response.context["rows"] if row.event.pk == event.pk]
    assert row.can_undo
    html = response.content.decode()
    undo = reverse("campaigns:undo", args=[campaign.pk, event.pk])
    assert f'action="{undo}"' in html
    assert f'name="next" value="{page.replace("&", "&amp;")}"' in html

    answer = client.post(undo, {"next": page})
    assert answer.status_code == 302
    assert answer.url == f"{page}#event-{oid(event.pk)}"
    assert not LedgerEntry.objects.filter(pk=entry.pk).exists()
    back = client.get(answer.url)
    assert "Undone:" in back.content.decode()
    (row,) = [row for row in back.context["rows"] if row.event.pk == event.pk]
    assert row.event.undone_at is not None and not row.can_undo


@pytest.mark.parametrize(
    "next_url",
    ["https://elsewhere.example/history/", "/campaigns/", "", "//elsewhere.example/x"],
)
def test_undo_returns_only_to_this_history(campaign, people, client_as, next_url):
    event = ledger_event(campaign, people["german"], "german")
    event.data["undo"] = []  # nothing to put back: the undo is refused, the way back the same
    event.save()
    answer = client_as("german").post(
        reverse("campaigns:undo", args=[campaign.pk, event.pk]), {"next": next_url}
    )
    assert answer.status_code == 302
    assert answer.url == f"{url(campaign)}#event-{oid(event.pk)}"


def test_undo_buttons_are_the_same_on_every_page(campaign, people, client_as):
    """A player's own changes, the referee's any visible one, the observer's none — on page 2
    as on page 1."""
    roster.add_ledger_entry(
        campaign,
        by=people["german"],
        side="german",
        ledger="cpp",
        index=1,
        kind="replenishment",
        amount=16,
    )
    event = campaign.events.get(action="ledger.added")
    filler(campaign, people, HISTORY_PAGE_SIZE + 1)
    for persona, undoable in (
        ("german", True),
        ("referee", True),
        ("observer", None),
        ("soviet", None),
    ):
        rows = client_as(persona).get(url(campaign, page=2)).context["rows"]
        found = [row.can_undo for row in rows if row.event.pk == event.pk]
        assert found == ([] if undoable is None else [undoable]), persona


def test_undoable_for_among_reads_only_those_events(campaign, people):
    mine = ledger_event(campaign, people["german"], "german")
    mine.data["undo"] = [{"model": "campaigns.ledgerentry", "pk": 0, "before": None, "after": None}]
    mine.save()
    other = CampaignEvent.objects.create(
        campaign=campaign, actor=people["german"], action="ledger.added", visibility="german"
    )
    other.data = mine.data
    other.save()
    viewer = viewer_for(people["german"], campaign.pk)
    assert set(history.undoable_for(viewer).values_list("pk", flat=True)) == {mine.pk, other.pk}
    assert list(history.undoable_for(viewer, among=[mine.pk]).values_list("pk", flat=True)) == [
        mine.pk
    ]
    assert not history.undoable_for(viewer, among=[]).exists()


# --- HTMX and without JavaScript ------------------------------------------------------------


def test_without_javascript_the_filters_are_a_get_form(campaign, people, client_as):
    filler(campaign, people, HISTORY_PAGE_SIZE + 1)
    html = client_as("german").get(url(campaign)).content.decode()
    form = re.search(
        r'<form method="get" action="([^"]+)"[^>]*id="history-filters".*?</form>', html, re.S
    )
    assert form is not None
    assert form.group(1) == url(campaign)
    for name in ("index", "side", "kind"):
        assert f'name="{name}"' in form.group(0)
    assert '<button type="submit">Filter</button>' in form.group(0)
    # The page links are plain links too.
    assert f'href="{url(campaign, page=2)}"' in html


def test_with_htmx_the_list_swaps_in_place(campaign, people, client_as):
    filler(campaign, people, HISTORY_PAGE_SIZE + 1, index=2)
    client = client_as("german")
    full = client.get(url(campaign, index=2))
    partial = client.get(url(campaign, index=2), **HX)
    assert partial.status_code == 200
    assert "HX-Request" in partial["Vary"]
    html = partial.content.decode()
    assert html.lstrip().startswith('<section id="history-list">')
    assert "<html" not in html and '<nav class="campaign' not in html
    assert re.findall(r'id="event-(\w+)"', html) == [oid(pk) for pk in shown_ids(full)]
    # The form, the page links: hx-get into the list, the address bar following, hrefs kept.
    assert 'hx-target="#history-list"' in html
    assert html.count('hx-push-url="true"') >= 2
    older = url(campaign, index=2, page=2).replace("&", "&amp;")
    assert f'href="{older}" rel="next" hx-get="{older}"' in html
    # htmx restoring a page it no longer has in its cache asks for the whole page.
    restore = client.get(url(campaign), HTTP_HX_HISTORY_RESTORE_REQUEST="true", **HX)
    assert "<html" in restore.content.decode()


# --- a fixed number of queries ---------------------------------------------------------------


@pytest.mark.parametrize(
    "params", [{}, {"page": 2}, {"index": 1, "side": "german", "kind": "roster"}]
)
def test_the_number_of_queries_does_not_grow_with_the_history(
    campaign, people, client_as, django_assert_max_num_queries, params
):
    def grow(count):
        for _n in range(count):
            ledger_event(campaign, people["german"], "german")
            roster.add_ledger_entry(
                campaign,
                by=people["german"],
                side="german",
                ledger="fpp",
                index=1,
                kind="fortification_rg",
                amount=1,
            )
            filler(campaign, people, 1, index=1)

    client = client_as("german")
    grow(40)
    with CaptureQueriesContext(connection) as small:
        assert client.get(url(campaign, **params)).status_code == 200
    grow(160)
    with django_assert_max_num_queries(len(small.captured_queries)):
        assert client.get(url(campaign, **params)).status_code == 200


def test_the_undo_question_is_asked_of_the_pages_events_only(campaign, people, client_as):
    for _n in range(HISTORY_PAGE_SIZE + 10):
        roster.add_ledger_entry(
            campaign,
            by=people["german"],
            side="german",
            ledger="fpp",
            index=1,
            kind="fortification_rg",
            amount=1,
        )
    with CaptureQueriesContext(connection) as queries:
        rows = client_as("german").get(url(campaign)).context["rows"]
    # No query reads the data's "undo" key (not merely the undone_at column): the page's rows,
    # already loaded, answer it (history.undoable_among), so nothing walks the campaign's events.
    reading_undo = [
        q["sql"] for q in queries.captured_queries if re.search(r"""['"]undo['"]""", q["sql"])
    ]
    assert reading_undo == []
    assert sum(row.can_undo for row in rows) == HISTORY_PAGE_SIZE


# --- languages -------------------------------------------------------------------------------


def test_the_filters_read_in_japanese(campaign, people, client_as):
    people["german"].language = "ja"
    people["german"].save()
    html = client_as("german").get(url(campaign)).content.decode()
    assert "購入" in html  # Purchases
    assert "すべての種類" in html  # Every kind
    assert "Every kind" not in html
