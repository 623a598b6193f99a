"""Corrections both players agree to in a campaign without a referee (campaigns.corrections)."""

import re

import pytest
from django.urls import reverse

from campaigns import access
from campaigns.corrections import services
from campaigns.dice import services as dice
from campaigns.history import services as history
from campaigns.models import (
    CampaignEvent,
    Correction,
    DiceRoll,
    LedgerEntry,
    Membership,
    Role,
)
from campaigns.oid import oid
from campaigns.roster import services as roster
from campaigns.roster.ledger import Movement, cpp_days

pytestmark = pytest.mark.django_db

SECRET_NOTE = "German-secret-note-5d1"
SECRET_AMOUNT = 437  # a number no page shows otherwise
# Tokens whose letters and digits may hold any number: CSRF and the live poll's (20 or more),
# the opaque ids of rows (campaigns.oid: 13 of a-z and 2-7), and the times' machine-readable form
# (``datetime="…"``: its microseconds may spell any number).
TOKENS = re.compile(r"[A-Za-z0-9]{20,}|\b[a-z2-7]{13}\b|datetime=\"[^\"]*\"")


@pytest.fixture
def bare(campaign):
    """The campaign with its referee gone: the players make the calls."""
    Membership.objects.filter(campaign=campaign, role=Role.REFEREE).delete()
    return campaign


def viewer(campaign, user):
    return access.viewer_for(user, campaign.pk)


def secret_roll(campaign, user, side="german", visibility="german"):
    return dice.roll(
        campaign,
        by=user,
        kind="DR",
        step="11.618",
        index=0,
        side=side,
        visibility=visibility,
        note=SECRET_NOTE,
    )


def cpp(campaign, side, amount, kind="replenishment", index=1):
    return roster.add_ledger_entry(
        campaign, by=None, side=side, ledger="cpp", index=index, kind=kind, amount=amount
    )


# --- access ---------------------------------------------------------------------------------


def test_who_may_ask_and_agree(bare, people):
    german, soviet, observer = (viewer(bare, people[p]) for p in ("german", "soviet", "observer"))
    assert german.can_ask_correction and soviet.can_ask_correction
    assert not observer.can_ask_correction
    assert soviet.can_agree_correction("german")
    assert not german.can_agree_correction("german")  # never its own side's request
    assert not observer.can_agree_correction("german")


def test_a_campaign_with_a_referee_offers_none_of_it(campaign, people):
    for persona in ("german", "soviet", "referee", "observer"):
        seat = viewer(campaign, people[persona])
        assert not seat.can_ask_correction
        assert not seat.can_agree_correction("german")
    roll = secret_roll(campaign, people["german"])
    with pytest.raises(services.CorrectionError):
        services.ask_void(viewer(campaign, people["german"]), roll, "misclick")


# --- (a) void a roll ------------------------------------------------------------------------


def test_void_asked_then_agreed_by_the_other_side(bare, people):
    roll = secret_roll(bare, people["german"])
    asked = services.ask_void(viewer(bare, people["german"]), roll, "clicked the wrong step")
    with pytest.raises(services.CorrectionError):  # the asker's side never agrees to its own
        services.agree(viewer(bare, people["german"]), asked.pk)
    services.agree(viewer(bare, people["soviet"]), asked.pk)
    roll.refresh_from_db()
    assert roll.voided_at is not None
    assert roll.voided_by == people["soviet"]
    assert "german" in roll.void_reason and "soviet" in roll.void_reason
    assert "clicked the wrong step" in roll.void_reason
    asked.refresh_from_db()
    assert asked.state == Correction.AGREED and asked.answered_by == people["soviet"]
    actions = list(
        CampaignEvent.objects.filter(campaign=bare, action__startswith="correction.")
        .order_by("pk")
        .values_list("action", "visibility")
    )
    assert actions == [("correction.asked", "public"), ("correction.agreed", "public")]


def test_void_checked_again_when_agreed(bare, people):
    roll = secret_roll(bare, people["german"])
    asked = services.ask_void(viewer(bare, people["german"]), roll, "misclick")
    DiceRoll.objects.filter(pk=roll.pk).update(void_reason="x")
    dice.void(roll, by=people["german"], reason="voided meanwhile")
    with pytest.raises(services.CorrectionError, match="secret to German"):
        services.agree(viewer(bare, people["soviet"]), asked.pk)
    asked.refresh_from_db()
    assert asked.state == Correction.OPEN


def test_a_roll_one_may_not_see_cannot_be_asked(bare, people):
    roll = secret_roll(bare, people["german"])
    with pytest.raises(services.CorrectionError):
        services.ask_void(viewer(bare, people["soviet"]), roll, "I think it was wrong")
    with pytest.raises(services.CorrectionError):
        services.ask_void(viewer(bare, people["observer"]), roll, "x")


def test_declined_and_withdrawn(bare, people):
    roll = secret_roll(bare, people["german"])
    german, soviet = viewer(bare, people["german"]), viewer(bare, people["soviet"])
    first = services.ask_void(german, roll, "misclick")
    with pytest.raises(services.CorrectionError):
        services.withdraw(soviet, first.pk)  # only the asking side withdraws
    services.decline(soviet, first.pk)
    with pytest.raises(services.CorrectionError, match="already answered"):
        services.agree(soviet, first.pk)
    second = services.ask_void(german, roll, "misclick, really")
    services.withdraw(german, second.pk)
    roll.refresh_from_db()
    assert roll.voided_at is None
    assert set(Correction.objects.values_list("state", flat=True)) == {"declined", "withdrawn"}


def test_a_reason_is_required(bare, people):
    roll = secret_roll(bare, people["german"])
    with pytest.raises(services.CorrectionError):
        services.ask_void(viewer(bare, people["german"]), roll, "   ")


# --- (b) a ledger adjustment ----------------------------------------------------------------


def test_adjustment_agreed_books_a_referee_style_adjustment(bare, people):
    german = viewer(bare, people["german"])
    asked = services.ask_adjustment(german, ledger="cpp", index=1, amount=3, reason="forgot recon")
    services.agree(viewer(bare, people["soviet"]), asked.pk)
    entry = LedgerEntry.objects.get(campaign=bare, kind="adjustment")
    assert (entry.side, entry.ledger, entry.index, entry.amount) == ("german", "cpp", 1, 3)
    assert "forgot recon" in entry.note and "soviet" in entry.note
    added = CampaignEvent.objects.get(campaign=bare, action="ledger.added")
    assert added.visibility == "german" and added.data["referee_only"] is True


def lowest_left(campaign, side):
    """The side's lowest CPP Left from CG day 1 on (what a take-away may take at most)."""
    rows = LedgerEntry.objects.filter(campaign=campaign, side=side, ledger="cpp")
    moves = [Movement(*r) for r in rows.values_list("index", "kind", "amount", "rg")]
    return min(day.left for day in cpp_days(len(campaign.cg.periods), moves)[1:])


def test_adjustment_below_zero_refused_when_agreed(bare, people):
    """At the limit (the balance reaches 0) it is carried out; one over, refused."""
    cpp(bare, "german", 5)
    left = lowest_left(bare, "german")
    assert left >= 5
    german, soviet = viewer(bare, people["german"]), viewer(bare, people["soviet"])
    over = services.ask_adjustment(german, ledger="cpp", index=1, amount=-1, reason="wrong DR")
    limit = services.ask_adjustment(german, ledger="cpp", index=1, amount=-left, reason="wrong DR")
    services.agree(soviet, limit.pk)  # down to 0
    assert lowest_left(bare, "german") == 0
    with pytest.raises(services.CorrectionError, match="secret to German") as refused:
        services.agree(soviet, over.pk)  # would be -1 now
    assert "-1" not in str(refused.value)  # the German balance is not the Soviet's to read
    over.refresh_from_db()
    assert over.state == Correction.OPEN
    assert LedgerEntry.objects.filter(kind="adjustment").count() == 1


def test_adjustment_asked_below_zero_refused(bare, people):
    left = lowest_left(bare, "german")
    with pytest.raises(services.CorrectionError):
        services.ask_adjustment(
            viewer(bare, people["german"]), ledger="cpp", index=1, amount=-left - 1, reason="x"
        )


# --- the page, the five personas -------------------------------------------------------------

PAGE_STATUS = {"german": 200, "soviet": 200, "referee": 404, "observer": 200, "outsider": 404}


def test_page_and_posts_for_five_personas_without_a_referee(bare, people, client_as):
    roll = secret_roll(bare, people["german"])
    asked = services.ask_void(viewer(bare, people["german"]), roll, "misclick")
    url = reverse("campaigns:corrections", args=[bare.pk])
    for persona, status in PAGE_STATUS.items():
        assert client_as(persona).get(url).status_code == status, persona
    answer = reverse("campaigns:correction_answer", args=[bare.pk, asked.pk])
    expected = {"observer": 403, "referee": 404, "outsider": 404}
    for persona, status in expected.items():
        response = client_as(persona).post(answer, {"answer": "agree"})
        assert response.status_code == status, persona
    # The German player may post, but is refused (its own request): still open.
    client_as("german").post(answer, {"answer": "agree"})
    asked.refresh_from_db()
    assert asked.state == Correction.OPEN
    assert client_as("soviet").post(answer, {"answer": "agree"}).status_code == 302
    asked.refresh_from_db()
    assert asked.state == Correction.AGREED


@pytest.mark.parametrize(
    ("persona", "status"), [("observer", 403), ("referee", 404), ("outsider", 404)]
)
def test_only_a_player_posts_a_request(bare, people, client_as, persona, status):
    roll = secret_roll(bare, people["german"], visibility="public")
    posts = {
        "correction_void": {"roll": oid(roll.pk), "reason": "misclick"},
        "correction_adjust": {"ledger": "cpp", "index": 1, "amount": 3, "reason": "typo"},
        "correction_undo": {"event": "", "reason": "typo"},
    }
    for name, data in posts.items():
        response = client_as(persona).post(reverse(f"campaigns:{name}", args=[bare.pk]), data)
        assert response.status_code == status, (persona, name)
    assert not Correction.objects.exists()


def test_the_soviet_cannot_ask_to_void_a_german_secret_roll(bare, people, client_as):
    roll = secret_roll(bare, people["german"])
    response = client_as("soviet").post(
        reverse("campaigns:correction_void", args=[bare.pk]),
        {"roll": oid(roll.pk), "reason": "I saw it"},
    )
    assert response.status_code == 200  # the form again: no such roll among the Soviet's
    assert not Correction.objects.exists()


def test_ask_through_the_page(bare, people, client_as):
    roll = secret_roll(bare, people["german"])
    german = client_as("german")
    page = german.get(reverse("campaigns:corrections", args=[bare.pk]))
    assert f'value="{oid(roll.pk)}"' in page.content.decode()
    response = german.post(
        reverse("campaigns:correction_void", args=[bare.pk]),
        {"roll": oid(roll.pk), "reason": "misclick"},
    )
    assert response.status_code == 302
    response = german.post(
        reverse("campaigns:correction_adjust", args=[bare.pk]),
        {"ledger": "cpp", "index": 1, "amount": SECRET_AMOUNT, "reason": "typo"},
    )
    assert response.status_code == 302
    assert Correction.objects.filter(campaign=bare, state="open").count() == 2
    # An empty reason shows the form again with its error.
    response = german.post(
        reverse("campaigns:correction_adjust", args=[bare.pk]),
        {"ledger": "cpp", "index": 1, "amount": 3, "reason": ""},
    )
    assert response.status_code == 200
    assert Correction.objects.count() == 2


def test_the_other_side_sees_kind_and_reason_never_the_secret(bare, people, client_as):
    roll = secret_roll(bare, people["german"])
    german = viewer(bare, people["german"])
    services.ask_void(german, roll, "misclick")
    services.ask_adjustment(german, ledger="cpp", index=1, amount=SECRET_AMOUNT, reason="typo")
    faces = " + ".join(str(face) for face in roll.faces)
    for persona in ("soviet", "observer"):
        for name in ("corrections", "history"):
            html = client_as(persona).get(reverse(f"campaigns:{name}", args=[bare.pk])).content
            # Without the tokens (CSRF, live poll), whose letters and digits may hold any number.
            text = TOKENS.sub("", html.decode())
            assert "misclick" in text and "typo" in text, (persona, name)
            assert str(SECRET_AMOUNT) not in text, (persona, name)
            assert SECRET_NOTE not in text, (persona, name)
            if name == "corrections":
                assert faces not in text, persona
    mine = client_as("german").get(reverse("campaigns:corrections", args=[bare.pk])).content
    assert f"+{SECRET_AMOUNT}" in mine.decode() and faces in mine.decode()
    # The Soviet player may answer; the observer may not.
    assert (
        'value="agree"'
        in client_as("soviet")
        .get(reverse("campaigns:corrections", args=[bare.pk]))
        .content.decode()
    )
    assert (
        'value="agree"'
        not in client_as("observer")
        .get(reverse("campaigns:corrections", args=[bare.pk]))
        .content.decode()
    )


def test_a_public_roll_shows_its_faces_to_the_other_side(bare, people, client_as):
    roll = secret_roll(bare, people["german"], visibility="public")
    services.ask_void(viewer(bare, people["german"]), roll, "misclick")
    text = client_as("soviet").get(reverse("campaigns:corrections", args=[bare.pk])).content
    assert " + ".join(str(face) for face in roll.faces) in text.decode()


def test_with_a_referee_the_page_offers_nothing(campaign, people, client_as):
    secret_roll(campaign, people["german"])
    url = reverse("campaigns:corrections", args=[campaign.pk])
    for persona in ("german", "soviet", "referee", "observer"):
        text = client_as(persona).get(url).content.decode()
        assert "/corrections/void/" not in text and "/corrections/adjust/" not in text
        assert 'name="reason"' not in text and 'value="agree"' not in text
    for persona, status in {
        "german": 403,
        "soviet": 403,
        "referee": 403,
        "observer": 403,
        "outsider": 404,
    }.items():
        response = client_as(persona).post(
            reverse("campaigns:correction_adjust", args=[campaign.pk]),
            {"ledger": "cpp", "index": 1, "amount": 3, "reason": "x"},
        )
        assert response.status_code == status, persona


def test_page_queries_do_not_grow(bare, people, client_as, django_assert_max_num_queries):
    german = viewer(bare, people["german"])
    for _n in range(2):
        services.ask_void(german, secret_roll(bare, people["german"]), "misclick")
    url = reverse("campaigns:corrections", args=[bare.pk])
    client = client_as("soviet")
    client.get(url)
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as few:
        client.get(url)
    for _n in range(6):
        services.ask_void(german, secret_roll(bare, people["german"]), "misclick")
    services.ask_adjustment(german, ledger="cpp", index=1, amount=2, reason="x")
    with CaptureQueriesContext(connection) as many:
        client.get(url)
    assert len(many) == len(few)


def test_the_live_token_moves_for_the_other_side(bare, people, client_as):
    roll = secret_roll(bare, people["german"])
    live = reverse("campaigns:live", args=[bare.pk])
    before = client_as("soviet").get(live).content
    services.ask_void(viewer(bare, people["german"]), roll, "misclick")
    assert client_as("soviet").get(live).content != before


# --- (c) undo a change of a finished phase -----------------------------------------------------


def finish_phase(campaign):
    from django.utils import timezone

    from campaigns.models import RefitPhase

    RefitPhase.objects.filter(campaign=campaign, finished_at__isnull=True).update(
        finished_at=timezone.now()
    )


def test_undo_of_a_finished_phase_asked_and_agreed(bare, people, client_as):
    entry = cpp(bare, "german", SECRET_AMOUNT)
    added = CampaignEvent.objects.get(campaign=bare, action="ledger.added")
    german, soviet = viewer(bare, people["german"]), viewer(bare, people["soviet"])
    # While the phase is open, the German player undoes it alone: nothing to ask.
    CampaignEvent.objects.filter(pk=added.pk).update(actor=people["german"])
    with pytest.raises(services.CorrectionError):
        services.ask_undo(german, added.pk, "typo")
    finish_phase(bare)
    assert added.pk in set(services.undo_targets(german).values_list("pk", flat=True))
    assert added.pk not in set(services.undo_targets(soviet).values_list("pk", flat=True))
    asked = services.ask_undo(german, added.pk, "typo in the amount")
    # The Soviet player reads the request but not the secret amount.
    text = client_as("soviet").get(reverse("campaigns:corrections", args=[bare.pk])).content
    text = TOKENS.sub("", text.decode())
    assert "typo in the amount" in text and str(SECRET_AMOUNT) not in text
    services.agree(soviet, asked.pk)
    assert not LedgerEntry.objects.filter(pk=entry.pk).exists()
    undone = CampaignEvent.objects.get(campaign=bare, action="change.undone")
    assert undone.actor == people["soviet"] and "typo in the amount" in undone.data["reason"]
    assert "german" in undone.data["reason"]


def test_undo_checked_again_when_agreed(bare, people):
    cpp(bare, "german", 5)
    added = CampaignEvent.objects.get(campaign=bare, action="ledger.added")
    finish_phase(bare)
    german, soviet = viewer(bare, people["german"]), viewer(bare, people["soviet"])
    asked = services.ask_undo(german, added.pk, "typo")
    # Undone meanwhile by another path (here the history's, as an agreed undo is).
    history.undo(added, by=people["german"], reason="typo", agreed=True)
    with pytest.raises(services.CorrectionError, match="secret to German"):
        services.agree(soviet, asked.pk)  # the change was secret: its undo's refusal too


def test_the_same_undo_is_not_asked_twice(bare, people):
    cpp(bare, "german", 5)
    added = CampaignEvent.objects.get(campaign=bare, action="ledger.added")
    finish_phase(bare)
    german = viewer(bare, people["german"])
    services.ask_undo(german, added.pk, "typo")
    with pytest.raises(services.CorrectionError, match="already asked"):
        services.ask_undo(german, added.pk, "typo, asked twice")


def test_undo_of_the_other_side_secret_cannot_be_asked(bare, people):
    cpp(bare, "german", 5)
    added = CampaignEvent.objects.get(campaign=bare, action="ledger.added")
    finish_phase(bare)
    with pytest.raises(services.CorrectionError):
        services.ask_undo(viewer(bare, people["soviet"]), added.pk, "x")
    with pytest.raises(services.CorrectionError):
        services.ask_undo(viewer(bare, people["observer"]), added.pk, "x")


# --- the links from the dice log and the history -----------------------------------------------


def select_named(name, page):
    """The options of the page's select ``name``."""
    return re.search(rf'<select name="{name}".*?</select>', page, re.S).group(0)


def test_the_dice_log_links_a_roll_to_its_request(bare, campaign, people, client_as):
    roll = secret_roll(bare, people["german"])
    link = f"{reverse('campaigns:corrections', args=[bare.pk])}?roll={oid(roll.pk)}"
    log = reverse("campaigns:dice_log", args=[bare.pk])
    assert link in client_as("german").get(log).content.decode()
    for persona in ("soviet", "observer"):
        assert "?roll=" not in client_as(persona).get(log).content.decode(), persona
    # An older roll than the form's newest ones is offered when linked.
    for _n in range(31):
        secret_roll(bare, people["german"])
    page = client_as("german").get(link).content.decode()
    assert f'value="{oid(roll.pk)}" selected' in page
    # Rows named by their opaque ids only (campaigns.oid): a database id would count the
    # other side's secret rows made in between.
    assert f'value="{roll.pk}"' not in select_named("roll", page)
    response = client_as("german").post(
        reverse("campaigns:correction_void", args=[bare.pk]),
        {"roll": oid(roll.pk), "reason": "old"},
    )
    assert response.status_code == 302
    assert Correction.objects.get(roll=roll).reason == "old"


def test_the_history_links_a_finished_change_to_its_request(bare, people, client_as):
    cpp(bare, "german", 5)
    added = CampaignEvent.objects.get(campaign=bare, action="ledger.added")
    finish_phase(bare)
    link = f"{reverse('campaigns:corrections', args=[bare.pk])}?event={oid(added.pk)}"
    url = reverse("campaigns:history", args=[bare.pk])
    assert link in client_as("german").get(url).content.decode()
    for persona in ("soviet", "observer"):
        assert "?event=" not in client_as(persona).get(url).content.decode(), persona
    page = client_as("german").get(link).content.decode()
    assert f'value="{oid(added.pk)}" selected' in page
    assert f'value="{added.pk}"' not in select_named("event", page)


def test_the_corrections_tab_only_without_a_referee(bare, people, client_as):
    url = reverse("campaigns:detail", args=[bare.pk])
    tab = reverse("campaigns:corrections", args=[bare.pk])
    for persona in ("german", "soviet", "observer"):
        assert tab in client_as(persona).get(url).content.decode(), persona


def test_no_corrections_tab_with_a_referee(campaign, people, client_as):
    url = reverse("campaigns:detail", args=[campaign.pk])
    tab = reverse("campaigns:corrections", args=[campaign.pk])
    for persona in ("german", "soviet", "referee", "observer"):
        assert tab not in client_as(persona).get(url).content.decode(), persona


# --- the history's words ------------------------------------------------------------------------


def test_each_step_has_its_words_in_english_and_japanese(bare, people):
    from django.utils import translation

    from campaigns.history.services import describe

    roll = secret_roll(bare, people["german"])
    german, soviet = viewer(bare, people["german"]), viewer(bare, people["soviet"])
    services.decline(soviet, services.ask_void(german, roll, "r1").pk)
    services.withdraw(german, services.ask_void(german, roll, "r2").pk)
    services.agree(soviet, services.ask_void(german, roll, "r3").pk)
    events = CampaignEvent.objects.filter(campaign=bare, action__startswith="correction.")
    actions = {event.action for event in events}
    assert actions == {
        "correction.asked",
        "correction.agreed",
        "correction.declined",
        "correction.withdrawn",
    }
    for event in events:
        assert event.visibility == "public"
        with translation.override("en"):
            english = describe(event)
        with translation.override("ja"):
            japanese = describe(event)
        assert english != event.action and "German" in english, english
        assert japanese != english and "ドイツ" in japanese, japanese
        assert str(roll.final) not in english.replace(event.data["reason"], "")


def test_the_overview_tells_the_other_side_a_request_waits(bare, people, client_as):
    services.ask_void(viewer(bare, people["german"]), secret_roll(bare, people["german"]), "x")
    url = reverse("campaigns:detail", args=[bare.pk])
    assert 'id="corrections-waiting"' in client_as("soviet").get(url).content.decode()
    for persona in ("german", "observer"):
        assert 'id="corrections-waiting"' not in client_as(persona).get(url).content.decode()


def test_a_public_rolls_refusal_is_told_as_it_is(bare, people):
    roll = secret_roll(bare, people["german"], visibility="public")
    asked = services.ask_void(viewer(bare, people["german"]), roll, "misclick")
    dice.void(roll, by=people["german"], reason="voided meanwhile")
    with pytest.raises(services.CorrectionError, match="already void"):
        services.agree(viewer(bare, people["soviet"]), asked.pk)


def test_with_htmx_the_open_requests_swap_in_place(bare, people, client_as):
    asked = services.ask_void(
        viewer(bare, people["german"]), secret_roll(bare, people["german"]), "x"
    )
    response = client_as("soviet").post(
        reverse("campaigns:correction_answer", args=[bare.pk, asked.pk]),
        {"answer": "decline"},
        HTTP_HX_REQUEST="true",
    )
    text = response.content.decode()
    assert response.status_code == 200
    assert text.lstrip().startswith('<section id="open-corrections">')
    assert "No request is open." in text and "Declined." in text
    assert "HX-Request" in response["Vary"]


def test_a_long_reason_is_shortened_never_the_names():
    kept = services._agreed_reason("x" * 150, "a" * 30, "b" * 30)
    assert len(kept) == services.REASON_KEPT
    assert kept.endswith(f"(asked by {'a' * 30}, agreed by {'b' * 30})")
    assert "x…" in kept
    short = services._agreed_reason("misclick", "hans", "ivan")
    assert short == "misclick (asked by hans, agreed by ivan)"


@pytest.mark.parametrize("persona", ["german", "soviet", "observer"])
def test_the_history_offers_to_ask_exactly_the_undo_targets(bare, people, client_as, persona):
    """The history reads which of its rows may be asked from the rows it loaded
    (``history.views.asked_among``): the same as ``undo_targets`` for the page's events."""
    cpp(bare, "german", 5)  # German secret, of a phase that finishes below
    cpp(bare, "soviet", 6)  # Soviet secret, likewise
    cpp(bare, "german", 7, index=2)
    history.undo(
        CampaignEvent.objects.filter(campaign=bare, action="ledger.added").latest("id"),
        by=people["german"],
    )
    finish_phase(bare)
    CampaignEvent.objects.filter(campaign=bare, action="ledger.added").update(
        actor=people["german"]
    )
    cpp(bare, "german", 8, index=3)  # of the open phase: the German player undoes it alone
    CampaignEvent.objects.filter(campaign=bare, action="ledger.added").filter(
        pk=CampaignEvent.objects.filter(campaign=bare, action="ledger.added").latest("id").pk
    ).update(actor=people["german"])
    secret_roll(bare, people["german"])
    response = client_as(persona).get(reverse("campaigns:history", args=[bare.pk]))
    rows = response.context["rows"]
    shown = [row.event.pk for row in rows]
    expected = set(
        services.undo_targets(viewer(bare, people[persona]))
        .filter(pk__in=shown)
        .values_list("pk", flat=True)
    )
    assert {row.event.pk for row in rows if row.may_ask} == expected
    if persona != "observer":
        assert expected  # the finished phase's changes of the persona's own side
    if persona == "german":
        alone = {row.event.pk for row in rows if row.can_undo}
        assert alone and not alone & expected  # the open phase's own change: undone alone
    html = response.content.decode()
    for row in rows:
        assert (f"?event={oid(row.event.pk)}" in html) == (row.event.pk in expected)
