"""Create demo users and campaigns (idempotent): `python manage.py demo`."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from campaigns import services
from campaigns.games.registry import get_module
from campaigns.models import Campaign, Role

DEMO_PASSWORD = "demo-campaign"
DEMO_USERS = {
    "german": "German player in both demo campaigns; created them",
    "soviet": "Soviet (RF) / Russian (SaP) player",
    "referee": "referee of the Red Factories demo",
    "observer": "observer of the Red Factories demo",
}
DEMO_CAMPAIGNS = [
    {
        "name": "Demo — Into the Factory",
        "module": "red_factories",
        "cg": "rb-cg-1",
        "members": [
            ("german", Role.PLAYER, "german"),
            ("soviet", Role.PLAYER, "soviet"),
            ("referee", Role.REFEREE, ""),
            ("observer", Role.OBSERVER, ""),
        ],
    },
    {
        "name": "Demo — A Timetable Disrupted",
        "module": "slaughter_at_ponyri",
        "cg": "timetable-disrupted",
        "members": [("german", Role.PLAYER, "german"), ("soviet", Role.PLAYER, "russian")],
    },
]


class Command(BaseCommand):
    help = "Create demo users and campaigns; running it again changes nothing."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--url", default="http://127.0.0.1:8000/", help="URL to print")

    @transaction.atomic
    def handle(self, *args, url: str, **options) -> None:
        User = get_user_model()
        users = {}
        for username in DEMO_USERS:
            user, created = User.objects.get_or_create(username=username)
            if created:
                user.set_password(DEMO_PASSWORD)
                user.save()
            users[username] = user
        for spec in DEMO_CAMPAIGNS:
            if Campaign.objects.filter(name=spec["name"]).exists():
                continue
            creator, role, side = spec["members"][0]
            campaign = services.create_campaign(
                user=users[creator],
                name=spec["name"],
                module=get_module(spec["module"]),
                cg_key=spec["cg"],
                role=role,
                side=side,
            )
            for username, member_role, member_side in spec["members"][1:]:
                invitation = services.create_invitation(
                    campaign, by=users[creator], role=member_role, side=member_side
                )
                services.accept_invitation(invitation, user=users[username])
                services.revoke_invitation(invitation, by=users[creator])
        self.stdout.write(self.style.SUCCESS(f"Open {url}"))
        self.stdout.write(f"Demo logins (password for each: {DEMO_PASSWORD}):")
        for username, what in DEMO_USERS.items():
            self.stdout.write(f"  {username:<9} {what}")
