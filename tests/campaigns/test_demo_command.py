import pytest
from django.core.management import call_command

from campaigns.models import Campaign, Membership

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
    from campaigns.ledger import Movement, cpp_days

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
    assert rf.events.filter(action="orbat.added").count() == 2
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
