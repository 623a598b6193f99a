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
