import pytest
from django.core.management import call_command

from campaigns.models import Campaign, Membership
from refit.purchases import receipt

pytestmark = pytest.mark.django_db


def test_it_creates_demo_users_and_campaigns_and_prints_the_logins(capsys, django_user_model):
    call_command("demo", url="http://127.0.0.1:8000/")
    out = capsys.readouterr().out
    assert "http://127.0.0.1:8000/" in out
    for username in ("german", "soviet", "referee", "observer"):
        assert username in out
        assert django_user_model.objects.get(username=username).check_password("demo-campaign")
    rf = Campaign.objects.get(module="red_factories")
    assert rf.campaign_game == "rb-cg-1"
    roles = set(rf.memberships.values_list("user__username", "role", "side"))
    assert roles == {
        ("german", "player", "german"),
        ("soviet", "player", "soviet"),
        ("referee", "referee", ""),
        ("observer", "observer", ""),
    }
    assert Campaign.objects.filter(module="slaughter_at_ponyri").exists()


def test_running_it_twice_changes_nothing():
    call_command("demo")
    counts = (Campaign.objects.count(), Membership.objects.count())
    call_command("demo")
    assert (Campaign.objects.count(), Membership.objects.count()) == counts


def test_the_demo_campaigns_have_a_few_days_of_history():
    from campaigns.roster.ledger import Movement, cpp_days

    call_command("demo")
    rf = Campaign.objects.get(module="red_factories")
    assert rf.current_period.key == "1942-10-18"
    assert rf.scenarios.get(index=0).winner == "german"
    assert rf.cvp.count() == 4
    german = cpp_days(
        13,
        [
            Movement(e.index, e.kind, e.amount, e.rg)
            for e in rf.ledger.filter(side="german", ledger="cpp")
        ],
    )
    # 15 initial − 5 for I2 = 10 left; 18 Oct: 10 + 16 replenished = 26.
    assert (german[0].left, german[1].start, german[1].total) == (10, 10, 26)
    # The two retained lines typed, and the box of each RG rolled for in 11.620 that received
    # units (issue 15: the step is marked only after every RG of the RePh has been rolled for).
    rolled = [rg for rg in rf.rgs.filter(index=0) if receipt.received(rg)]
    boxes = sum(1 for rg in rolled if receipt.ob_text(rg.details["received"]))
    assert rolled and boxes
    assert not [
        rg
        for rg in rf.rgs.exclude(details__has_key="received")
        if receipt.has_something_to_receive(rf, rg)
    ]
    assert rf.events.filter(action="orbat.added").count() == 2 + boxes
    sap = Campaign.objects.get(module="slaughter_at_ponyri")
    assert sap.current_period.key == "CG-2"
    assert sap.scenarios.count() == 1


def test_the_demo_campaigns_stand_in_their_refit_phase_where_their_calendar_is():
    call_command("demo")
    rf = Campaign.objects.get(module="red_factories")
    reph = rf.rephs.get(finished_at__isnull=True)
    assert (reph.kind, reph.index) == ("new_day", rf.period_index)
    sap = Campaign.objects.get(module="slaughter_at_ponyri")
    reph = sap.rephs.get(finished_at__isnull=True)
    assert (reph.kind, reph.index) == ("daytime", 1)


def test_the_defiant_russia_demo_stands_on_turn_3_with_its_weather_rolled_and_points_booked():
    from campaigns.models import DiceRoll, PointEntry
    from campaigns.shortgames import turn_points, turn_steps

    call_command("demo")
    dr = Campaign.objects.get(module="defiant_russia")
    roles = set(dr.memberships.values_list("user__username", "role", "side"))
    assert roles == {
        ("german", "player", "axis"),
        ("soviet", "player", "soviet"),
        ("referee", "referee", ""),
        ("observer", "observer", ""),
    }
    assert dr.current_period.key == "turn-3"
    assert dr.short_game.options == ["random_weather"]
    weather = DiceRoll.objects.get(campaign=dr, table_id="dr.weather-august")
    assert turn_steps.current_day(dr).weather == weather.result["weather"]
    # Turn 3: Axis 2 replacement points, Soviet 6 − 1 for restoring the 5th Army.
    assert turn_points.balance(dr, "axis", 2, "replacement") == 2
    assert turn_points.balance(dr, "soviet", 2, "replacement") == 5
    assert dr.units.get(name="5th Army").state == "full"
    assert dr.units.get(name="18th Tank Corps").state == "awaiting"
    assert PointEntry.objects.filter(campaign=dr, index=1, side="soviet").exists()
    assert dr.turn_marks.filter(index=2, step="axis_supply").exists()


def test_the_cherkassy_demo_has_its_units_and_the_first_steps_walked():
    call_command("demo")
    cp = Campaign.objects.get(module="cherkassy_pocket")
    assert cp.campaign_game == "scenario-1"
    assert cp.units.filter(side="german").count() == 4
    assert cp.units.get(name="2 TA / 3 TC").arrival_edge == "N"
    assert cp.turn_marks.filter(step="recovery_designation").exists()


def test_every_demo_roll_is_committed_and_verifies():
    """The demo rolls through the commitments (dice.use_seeds), not a bare seeded roller: each
    roll is recomputed on /dice/verify/ from its seed, once the seed is revealed."""
    from django.test import Client
    from django.urls import reverse

    from campaigns import access
    from campaigns.dice import checks, verify
    from campaigns.dice import services as dice
    from campaigns.models import DiceRoll

    call_command("demo")
    demo = list(Campaign.objects.all())
    rolls = DiceRoll.objects.filter(campaign__in=demo)
    assert rolls.count() > 20
    assert not rolls.filter(commitment__isnull=True).exists()
    for campaign in demo:
        # The seeds still held (the open phase's) are shown, as the reveal shows them.
        dice.reveal_commitments(campaign)
        referee = campaign.memberships.filter(role="referee").first() or campaign.memberships.get(
            user__username="german"
        )
        result = checks.verification(access.viewer_for(referee.user, campaign.pk))
        total = DiceRoll.objects.filter(campaign=campaign).count()
        if referee.role == "referee":
            assert result.counts[verify.MATCHES] == total, campaign.name
        assert not result.counts[verify.MISMATCH] and not result.counts[verify.UNVERIFIABLE]
        client = Client()
        client.force_login(referee.user)
        page = client.get(reverse("campaigns:dice_verify", args=[campaign.pk])).content.decode()
        assert '<span id="count-unverifiable">0</span>' in page, campaign.name
        assert '<span id="count-mismatches">0</span>' in page, campaign.name


def test_the_demo_seeds_follow_from_its_seed_so_every_run_rolls_the_same():
    from itertools import islice

    from campaigns.dice import services as dice
    from campaigns.models import DiceCommitment
    from refit.management.commands.demo import DEMO_DICE_SEED

    call_command("demo")
    for campaign in Campaign.objects.all():
        seeds = list(
            DiceCommitment.objects.filter(campaign=campaign)
            .order_by("pk")
            .values_list("seed", flat=True)
        )
        base = f"campaign-desk-demo:{DEMO_DICE_SEED}:{campaign.name}"
        assert seeds and seeds == list(islice(dice._seed_stream(base), len(seeds))), campaign.name
