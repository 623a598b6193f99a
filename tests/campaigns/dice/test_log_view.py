"""The dice log page (campaigns.dice.views.dice_log) and voiding a roll (void_roll)."""

import re

import pytest
from django.urls import reverse

from campaigns.access import REFEREE, viewer_for
from campaigns.dice import services as dice
from campaigns.dice.views import visible_steps
from campaigns.games.registry import get_module
from campaigns.games.rules import Drm
from campaigns.members import services
from campaigns.models import CampaignEvent, DiceRoll, Membership
from campaigns.oid import oid

pytestmark = pytest.mark.django_db

# Words that appear only with one scope's rolls.
GERMAN_MARK = "Kessel dice"
SOVIET_MARKS = ("Ferry dice", "11.6205", "Soviet Leader Table")
REFEREE_MARK = "Referee sniper dice"
PUBLIC_MARK = "Public weather dice"


class Loaded:
    """A roller that returns the faces it is given, in order."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        return self.faces.pop(0)


def url(campaign, **params):
    path = reverse("campaigns:dice_log", args=[campaign.pk])
    if params:
        from urllib.parse import urlencode

        path += "?" + urlencode(params)
    return path


def void_url(roll):
    return reverse("campaigns:void_roll", args=[roll.campaign_id, roll.pk])


def roll_german_cpp(campaign, people, faces=(4, 6)):
    """RF 11.6162's example: DR 10, Historical DRM −2, 44 CVP −2 → 6 → +16 CPP."""
    with dice.use_roller(Loaded(*faces)):
        return dice.roll(
            campaign,
            by=people["german"],
            kind="DR",
            step="11.616",
            index=1,
            side="german",
            visibility="german",
            table=campaign.game.dice_table("rf.cpp-replenishment"),
            modifiers=[
                Drm(-2, "Historical DRM (11.6161)"),
                Drm(-2, "44 CVP: −1 per 20 (11.616)"),
            ],
            note=GERMAN_MARK,
        )


def roll_soviet_secret(campaign, people, faces=(6, 6), count=1):
    rolls = []
    with dice.use_roller(Loaded(*(faces * count))):
        for _n in range(count):
            rolls.append(
                dice.roll(
                    campaign,
                    by=people["soviet"],
                    kind="DR",
                    step="11.6205",
                    index=2,
                    side="soviet",
                    visibility="soviet",
                    table=campaign.game.dice_table("rf.leaders-soviet"),
                    note="Ferry dice",
                )
            )
    return rolls


@pytest.fixture
def rolls(campaign, people):
    """One roll per scope: German and Soviet secrets, a public roll, a referee's roll."""
    german = roll_german_cpp(campaign, people)
    (soviet,) = roll_soviet_secret(campaign, people)
    with dice.use_roller(Loaded(3, 5, 2)):
        public = dice.roll(
            campaign,
            by=people["referee"],
            kind="DR",
            step="11.618",
            index=1,
            visibility="public",
            table=campaign.game.dice_table("rf.weather"),
            note=PUBLIC_MARK,
        )
        referee = dice.roll(
            campaign,
            by=people["referee"],
            kind="dr",
            step="11.6122",
            index=0,
            visibility=REFEREE,
            note=REFEREE_MARK,
        )
    return {"german": german, "soviet": soviet, "public": public, "referee": referee}


SEES = {
    "german": {"german", "public"},
    "soviet": {"soviet", "public"},
    "observer": {"public"},
    "referee": {"german", "soviet", "public", "referee"},
}


# --- who sees what -------------------------------------------------------------------------


@pytest.mark.parametrize("persona", list(SEES))
def test_each_member_sees_public_rolls_and_only_their_own_secret_ones(
    campaign, rolls, client_as, persona
):
    response = client_as(persona).get(url(campaign))
    assert response.status_code == 200
    shown = {row.roll.pk for row in response.context["rows"]}
    assert shown == {rolls[scope].pk for scope in SEES[persona]}
    html = response.content.decode()
    assert PUBLIC_MARK in html
    assert (GERMAN_MARK in html) == ("german" in SEES[persona])
    assert (REFEREE_MARK in html) == ("referee" in SEES[persona])
    for mark in SOVIET_MARKS:
        assert (mark in html) == ("soviet" in SEES[persona]), mark


def test_an_outsider_gets_404_for_the_log_and_the_void(campaign, rolls, client_as):
    client = client_as("outsider")
    assert client.get(url(campaign)).status_code == 404
    assert client.post(void_url(rolls["public"]), {"reason": "x"}).status_code == 404
    assert not DiceRoll.objects.filter(voided_at__isnull=False).exists()


def test_an_anonymous_visitor_is_asked_to_sign_in(campaign, client):
    response = client.get(url(campaign))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


def without_tokens(html: str) -> str:
    """The page without its per-response CSRF tokens."""
    return re.sub(r"[A-Za-z0-9]{64}", "TOKEN", html)


@pytest.mark.parametrize("persona", ["german", "observer"])
def test_the_page_is_the_same_whether_or_not_the_soviets_rolled_in_secret(
    campaign, rolls, client_as, people, persona
):
    client = client_as(persona)
    before = without_tokens(client.get(url(campaign)).content.decode())
    roll_soviet_secret(campaign, people, faces=(1, 2), count=7)
    after = without_tokens(client.get(url(campaign)).content.decode())
    assert after == before  # not a row, not a count, not a step in the filter
    # While the Soviet player's own page changed.
    soviet = client_as("soviet").get(url(campaign))
    assert soviet.context["page"].paginator.count == 9


# --- what a row shows ----------------------------------------------------------------------


def test_a_roll_shows_day_step_table_who_dice_modifiers_final_and_result(
    campaign, rolls, client_as
):
    response = client_as("german").get(url(campaign))
    html = response.content.decode()
    row = re.search(rf'<tr id="roll-{oid(rolls["german"].pk)}">(.*?)</tr>', html, re.S).group(1)
    assert "11.616" in row and "CPP replenishment" in row  # step and its name
    assert "CPP Replenishment Table" in row
    assert f"<td>{campaign.cg.periods[1].label.en}</td>" in row  # the CG day
    assert ">german<" in row  # who rolled
    assert "DR 4 + 6" in row
    assert ">10<" in row  # original
    assert "\N{MINUS SIGN}2 Historical DRM (11.6161)" in row
    assert "\N{MINUS SIGN}2 44 CVP: −1 per 20 (11.616)" in row
    assert "<strong>6</strong>" in row  # final
    assert "CPP: 16" in row  # result, its key in words
    assert "German only" in row


def test_rows_are_newest_first(campaign, rolls, client_as):
    response = client_as("referee").get(url(campaign))
    assert [row.roll.pk for row in response.context["rows"]] == [
        rolls["referee"].pk,
        rolls["public"].pk,
        rolls["soviet"].pk,
        rolls["german"].pk,
    ]


def test_the_day_table_and_step_read_in_japanese(campaign, rolls, client_as, people):
    people["german"].language = "ja"
    people["german"].save()
    html = client_as("german").get(url(campaign)).content.decode()
    table = campaign.game.files["tables"]["dice_tables"]
    names = {t["id"]: t["name"] for t in table}
    assert names["rf.cpp-replenishment"]["ja"] in html
    assert names["rf.weather"]["ja"] in html
    assert campaign.cg.periods[1].label.ja in html
    assert "CPP Replenishment Table" not in html


def test_a_text_result_is_shown_in_the_readers_language(campaign, people, client_as):
    with dice.use_roller(Loaded(6, 6)):
        dice.roll(
            campaign,
            by=people["referee"],
            kind="DR",
            step="11.618",
            index=0,
            visibility="public",
        )
    DiceRoll.objects.update(result={"en": "Heavy rain", "ja": "豪雨"})
    assert "Heavy rain" in client_as("observer").get(url(campaign)).content.decode()
    people["observer"].language = "ja"
    people["observer"].save()
    html = client_as("observer").get(url(campaign)).content.decode()
    assert "豪雨" in html and "Heavy rain" not in html


def test_an_empty_log_says_so(campaign, client_as):
    html = client_as("observer").get(url(campaign)).content.decode()
    assert "No dice have been rolled yet." in html


# --- filters -------------------------------------------------------------------------------


def shown(response):
    return {row.roll.pk for row in response.context["rows"]}


def test_the_log_filters_by_day_step_and_side(campaign, rolls, client_as):
    client = client_as("referee")
    assert shown(client.get(url(campaign, index=1))) == {rolls["german"].pk, rolls["public"].pk}
    assert shown(client.get(url(campaign, step="11.6205"))) == {rolls["soviet"].pk}
    assert shown(client.get(url(campaign, side="german"))) == {rolls["german"].pk}
    assert shown(client.get(url(campaign, index=1, side="german", step="11.616"))) == {
        rolls["german"].pk
    }
    response = client.get(url(campaign, index=2, side="german"))
    assert shown(response) == set()
    assert "No roll matches the filters." in response.content.decode()


@pytest.mark.parametrize(
    "params",
    [{"index": "abc"}, {"index": "99"}, {"index": "-1"}, {"side": "romanian"}, {"step": "x"}],
)
def test_a_bad_filter_is_ignored_with_a_note(campaign, rolls, client_as, params):
    response = client_as("referee").get(url(campaign, **params))
    assert response.status_code == 200
    assert shown(response) == {roll.pk for roll in rolls.values()}
    assert "A filter value was not understood and was ignored." in response.content.decode()


def test_a_bad_filter_does_not_drop_the_good_ones(campaign, rolls, client_as):
    response = client_as("referee").get(url(campaign, index="x", side="soviet"))
    assert shown(response) == {rolls["soviet"].pk}


def test_the_step_filter_offers_only_steps_the_viewer_has_seen(campaign, rolls, client_as):
    choices = client_as("german").get(url(campaign)).context["filter_form"].fields["step"]
    assert [value for value, _label in choices.choices] == ["", "11.616", "11.618"]
    # A player who asks for the other side's secret step learns nothing from it.
    response = client_as("german").get(url(campaign, step="11.6205"))
    assert shown(response) == {rolls["german"].pk, rolls["public"].pk}
    assert "Ferry dice" not in response.content.decode()


# --- statistics ----------------------------------------------------------------------------


def stats_of(response):
    return {group.label: group for group in response.context["stats"]}


def test_statistics_count_each_visible_side_public_rolls_and_all_shown(campaign, rolls, client_as):
    stats = stats_of(client_as("referee").get(url(campaign)))
    assert list(stats) == [
        "Rolls for German",
        "Rolls for Soviet",
        "Public rolls",
        "All rolls shown",
    ]
    german = stats["Rolls for German"]
    assert (german.DR_count, german.dr_count, german.DR_average) == (1, 0, 10)
    assert german.distribution == [0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0]  # one 10
    every = stats["All rolls shown"]
    assert (every.DR_count, every.dr_count) == (3, 1)
    assert every.DR_average == pytest.approx((10 + 12 + 8) / 3)
    assert every.dr_average == 2
    assert every.distribution == [0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1]


def test_statistics_follow_the_filters(campaign, rolls, client_as):
    stats = stats_of(client_as("referee").get(url(campaign, index=1)))
    assert stats["All rolls shown"].DR_count == 2
    assert stats["Rolls for Soviet"].DR_count == 0


@pytest.mark.parametrize(
    ("persona", "groups", "dr_rolls"),
    [
        ("german", ["Rolls for German", "Public rolls", "All rolls shown"], 2),
        ("soviet", ["Rolls for Soviet", "Public rolls", "All rolls shown"], 2),
        ("observer", ["Public rolls"], 1),
    ],
)
def test_statistics_never_count_rolls_the_viewer_may_not_see(
    campaign, rolls, client_as, people, persona, groups, dr_rolls
):
    roll_soviet_secret(campaign, people, count=5) if persona != "soviet" else None
    stats = stats_of(client_as(persona).get(url(campaign)))
    assert list(stats) == groups
    assert stats[groups[-1]].DR_count == dr_rolls
    assert sum(group.dr_count for group in stats.values()) == 0


def test_voided_rolls_stay_in_the_log_but_not_in_the_statistics(campaign, rolls, people, client_as):
    dice.void(rolls["german"], by=people["referee"], reason="Wrong table")
    response = client_as("german").get(url(campaign))
    assert rolls["german"].pk in shown(response)
    assert stats_of(response)["Rolls for German"].DR_count == 0
    html = response.content.decode()
    row = re.search(rf'<tr id="roll-{oid(rolls["german"].pk)}">(.*?)</tr>', html, re.S).group(1)
    assert "<s>DR 4 + 6</s>" in row and "<s>6</s>" in row
    assert "by referee" in row and "Wrong table" in row


# --- pages ---------------------------------------------------------------------------------


def many_rolls(campaign, people, count, **extra):
    DiceRoll.objects.bulk_create(
        DiceRoll(
            campaign=campaign,
            index=n % len(campaign.cg.periods),
            side=("german", "soviet")[n % 2],
            step=("11.616", "11.6205", "11.618")[n % 3],
            table_id="rf.cpp-replenishment",
            kind="DR",
            faces=[n % 6 + 1, (n // 6) % 6 + 1],
            modifiers=[{"value": -1, "reason": "Historical DRM"}],
            original=n % 6 + (n // 6) % 6 + 2,
            final=n % 6 + (n // 6) % 6 + 1,
            result={"cpp": n % 20},
            note=f"roll {n}",
            visibility=("german", "soviet", "public", REFEREE)[n % 4],
            rolled_by=people[("german", "soviet", "referee")[n % 3]],
            **extra,
        )
        for n in range(count)
    )


def test_the_log_shows_50_rolls_a_page(campaign, people, client_as):
    many_rolls(campaign, people, 125)
    client = client_as("referee")
    first = client.get(url(campaign))
    assert len(first.context["rows"]) == 50
    assert first.context["page"].paginator.count == 125
    html = first.content.decode()
    assert f'href="{url(campaign, page=2)}"' in html and "Page 1 of 3" in html
    third = client.get(url(campaign, page=3))
    assert len(third.context["rows"]) == 25
    # Nonsense pages fall back to the first or last one.
    assert client.get(url(campaign, page="x")).context["page"].number == 1
    assert client.get(url(campaign, page=99)).context["page"].number == 3
    # The page links keep the filters.
    filtered = client.get(url(campaign, side="german")).content.decode()
    link = url(campaign, side="german", page=2).replace("&", "&amp;")
    assert f'href="{link}"' in filtered


def test_a_long_log_is_counted_only_a_few_pages_ahead(campaign, people, client_as, monkeypatch):
    """Past ``LOOKAHEAD`` pages the count says "more than" (its COUNT reads no further), and
    the last pages count to the end."""
    monkeypatch.setattr("campaigns.paging.LOOKAHEAD", 1)
    monkeypatch.setattr("campaigns.dice.views.DICE_PAGE_SIZE", 100)
    many_rolls(campaign, people, 450)
    client = client_as("referee")
    first = client.get(url(campaign))
    html = first.content.decode()
    assert "More than 200 rolls" in html and "Page 1 of at least 3" in html
    assert f'href="{url(campaign, page=2)}"' in html
    fourth = client.get(url(campaign, page=4)).content.decode()
    assert "450 rolls" in fourth and "Page 4 of 5" in fourth
    assert len(client.get(url(campaign, page=5)).context["rows"]) == 50
    assert client.get(url(campaign, page=99)).context["page"].number == 5
    # A filter is counted the same way (its own rows).
    step = client.get(url(campaign, step="11.616")).content.decode()
    assert "More than" not in step and "150 rolls" in step and "Page 1 of 2" in step


@pytest.mark.parametrize("persona", ["referee", "german", "observer"])
def test_the_number_of_queries_does_not_grow_with_rolls_or_days(
    campaign, people, client_as, persona, django_assert_max_num_queries
):
    many_rolls(campaign, people, 8)
    client = client_as(persona)
    with django_assert_max_num_queries(12) as small:
        assert client.get(url(campaign)).status_code == 200
    big = services.create_campaign(
        user=people["referee"],
        name="The long one",
        module=get_module("red_factories"),
        cg_key="rb-cg-3",
        role="referee",
        side="",
    )
    for name in ("german", "observer"):
        role, side = ("observer", "") if name == "observer" else ("player", name)
        Membership.objects.create(campaign=big, user=people[name], role=role, side=side)
    assert len(big.cg.periods) == 30
    many_rolls(big, people, 500)
    DiceRoll.objects.filter(campaign=big, pk__in=DiceRoll.objects.filter(campaign=big)[:40]).update(
        voided_at=big.created_at, voided_by=people["referee"], void_reason="Wrong step"
    )
    with django_assert_max_num_queries(len(small.captured_queries)):
        response = client.get(url(big))
    assert len(response.context["rows"]) == 50
    with django_assert_max_num_queries(len(small.captured_queries)):
        assert client.get(url(big, index=5, side="german", page=2)).status_code == 200


# --- voiding -------------------------------------------------------------------------------


def test_the_referee_voids_a_roll_with_a_reason_and_it_stays_in_the_log(
    campaign, rolls, client_as, people
):
    client = client_as("referee")
    back = url(campaign, side="german")
    response = client.post(void_url(rolls["german"]), {"reason": " Wrong table ", "next": back})
    assert response.status_code == 302
    assert response["Location"] == f"{back}#roll-{oid(rolls['german'].pk)}"
    roll = DiceRoll.objects.get(pk=rolls["german"].pk)
    assert (roll.voided_by, roll.void_reason) == (people["referee"], "Wrong table")
    assert roll.voided_at is not None
    event = CampaignEvent.objects.get(action="dice.voided")
    assert (event.target_id, event.visibility) == (roll.pk, "german")
    page = client.get(response["Location"])
    html = page.content.decode()
    assert "Voided the DR 4 + 6 of 11.616" in html
    assert roll.pk in shown(page)


def test_the_void_form_is_only_offered_to_the_referee(campaign, rolls, client_as):
    action = void_url(rolls["public"])
    assert action in client_as("referee").get(url(campaign)).content.decode()
    for persona in ("german", "soviet", "observer"):
        assert action not in client_as(persona).get(url(campaign)).content.decode(), persona


def test_a_void_needs_a_reason_and_keeps_the_page(campaign, rolls, client_as):
    client = client_as("referee")
    back = url(campaign, index=1)
    response = client.post(void_url(rolls["public"]), {"reason": "   ", "next": back})
    assert response.status_code == 200
    html = response.content.decode()
    assert "Say why the roll is void." in html
    assert 'class="errorlist' in html
    assert shown(response) == {rolls["german"].pk, rolls["public"].pk}  # the filtered page
    assert not DiceRoll.objects.filter(voided_at__isnull=False).exists()


def test_with_htmx_the_row_is_swapped(campaign, rolls, client_as):
    client = client_as("referee")
    roll = rolls["public"]
    response = client.post(
        void_url(roll),
        {"reason": "Rolled twice", "next": url(campaign)},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert html.strip().startswith(f'<tr id="roll-{oid(roll.pk)}">')
    assert "<html" not in html
    assert "Rolled twice" in html and "by referee" in html
    assert "Voided the DR" in html  # the message, inside the row
    assert "roll-voided" in response["HX-Trigger"]  # the statistics reload
    assert "HX-Request" in response["Vary"]


def test_with_htmx_a_missing_reason_comes_back_in_the_row(campaign, rolls, client_as):
    response = client_as("referee").post(
        void_url(rolls["public"]), {"reason": ""}, headers={"HX-Request": "true"}
    )
    html = response.content.decode()
    assert html.strip().startswith(f'<tr id="roll-{oid(rolls["public"].pk)}">')
    assert "Say why the roll is void." in html and "<details open>" in html


def test_a_roll_is_voided_only_once(campaign, rolls, client_as, people):
    dice.void(rolls["public"], by=people["referee"], reason="First")
    response = client_as("referee").post(
        void_url(rolls["public"]), {"reason": "Second"}, follow=True
    )
    assert "That roll is already void." in response.content.decode()
    assert DiceRoll.objects.get(pk=rolls["public"].pk).void_reason == "First"


@pytest.mark.parametrize(
    ("persona", "scope", "status"),
    [
        ("german", "german", 403),
        ("german", "public", 403),
        ("german", "soviet", 404),  # a roll the German may not see does not exist for him
        ("german", "referee", 404),
        ("soviet", "german", 404),
        ("soviet", "soviet", 403),
        ("observer", "public", 403),
        ("observer", "german", 404),
        ("outsider", "public", 404),
    ],
)
def test_only_the_referee_may_void(campaign, rolls, client_as, persona, scope, status):
    response = client_as(persona).post(void_url(rolls[scope]), {"reason": "I lost"})
    assert response.status_code == status
    assert not DiceRoll.objects.filter(voided_at__isnull=False).exists()


def test_a_roll_of_another_campaign_is_404(campaign, rolls, client_as, people):
    other = services.create_campaign(
        user=people["referee"],
        name="Other",
        module=get_module("red_factories"),
        cg_key="rb-cg-1",
        role="referee",
        side="",
    )
    path = reverse("campaigns:void_roll", args=[other.pk, rolls["public"].pk])
    assert client_as("referee").post(path, {"reason": "x"}).status_code == 404


def test_voiding_is_post_only(campaign, rolls, client_as):
    assert client_as("referee").get(void_url(rolls["public"])).status_code == 405


@pytest.mark.parametrize(
    "elsewhere", ["https://evil.example/dice/", "//evil.example{log}", "/campaigns/"]
)
def test_the_way_back_stays_on_the_log(campaign, rolls, client_as, elsewhere):
    next_url = elsewhere.format(log=url(campaign))
    response = client_as("referee").post(
        void_url(rolls["public"]), {"reason": "x", "next": next_url}
    )
    assert response["Location"] == f"{url(campaign)}#roll-{oid(rolls['public'].pk)}"


@pytest.mark.parametrize("persona", ["referee", "german", "soviet", "observer"])
def test_the_step_choices_walk_the_index_and_equal_a_distinct(campaign, people, persona):
    """``visible_steps`` (one probe of the index per step) names the same steps, in the same
    order, as a DISTINCT over every roll the viewer sees — blank steps included."""
    many_rolls(campaign, people, 60)
    many_rolls(campaign, people, 7)
    DiceRoll.objects.filter(campaign=campaign, note__in=[f"roll {n}" for n in range(7)]).update(
        step=""
    )
    DiceRoll.objects.filter(campaign=campaign, visibility="german", step="11.618").update(
        step="11.6122"
    )
    viewer = viewer_for(people[persona], campaign.pk)
    distinct = (
        viewer.filter_visible(DiceRoll.objects.filter(campaign=campaign))
        .order_by("step")
        .values_list("step", flat=True)
        .distinct()
    )
    assert visible_steps(viewer) == list(distinct)
    assert ("11.6122" in visible_steps(viewer)) == (persona in ("german", "referee"))


@pytest.mark.parametrize("persona", ["german", "soviet", "referee", "observer"])
def test_the_unfiltered_counts_compiled_once_are_the_orms(campaign, rolls, people, persona):
    """The statistics of the unfiltered log come from a query compiled once per set of scopes
    (views._unfiltered_counts): the same rows as the ORM's query over the viewer's rolls."""
    from django.db.models import Count

    from campaigns.dice.views import _unfiltered_counts

    viewer = viewer_for(people[persona], campaign.pk)
    roll_german_cpp(campaign, people, faces=(1, 1))
    expected = sorted(
        viewer.filter_visible(DiceRoll.objects.filter(campaign=campaign, voided_at__isnull=True))
        .order_by()
        .values_list("side", "visibility", "kind", "original")
        .annotate(n=Count("id"))
    )
    assert expected
    assert sorted(_unfiltered_counts(viewer)) == expected
    assert sorted(_unfiltered_counts(viewer)) == expected  # run again: the compiled query
