"""Verifiable dice (issue 22): the commitments, each roll's faces from the seed, the verify page,
the dice log's hashes and seeds, ``manage.py verify_dice``, and the export's round trip."""

import hashlib
import hmac
import json
from collections import Counter

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone

from campaigns import access
from campaigns.dice import services as dice
from campaigns.dice import verify
from campaigns.dice.middleware import DiceClientMiddleware
from campaigns.models import DiceCommitment, DiceRoll, RefitPhase
from campaigns.transfer import services as transfer
from refit.walker import services as walker
from tests.refit.builders import finish_phase

pytestmark = pytest.mark.django_db

GERMAN_NOTE = "German secret dr"
MEMBERS = ("german", "soviet", "referee", "observer")


# --- the algorithm --------------------------------------------------------------------------


def test_the_faces_follow_the_documented_hmac():
    seed = "00" * 32
    digest = hmac.new(bytes(32), b"0::0", hashlib.sha256).digest()
    # docs/verifiable-dice.md's example: bytes 140 and 233 → faces 140 % 6 + 1, 233 % 6 + 1
    assert list(digest[:2]) == [140, 233]
    assert verify.faces_for(seed, 0, "", 2) == [3, 6]
    assert verify.seed_hash(seed) == hashlib.sha256(bytes(32)).hexdigest()


def test_bytes_from_252_are_skipped():
    """No modulo bias: a byte of 252 or more gives no face (found by search, then checked)."""
    seed = "11" * 32
    for counter in range(2000):
        digest = hmac.new(bytes.fromhex(seed), f"{counter}::0".encode(), hashlib.sha256).digest()
        if digest[0] >= 252:
            break
    else:
        pytest.fail("no digest starts with a byte of 252 or more")
    expected = [b % 6 + 1 for b in digest if b < 252][:2]
    assert verify.faces_for(seed, counter, "", 2) == expected


def test_the_faces_are_even():
    counts = Counter(face for n in range(6000) for face in verify.faces_for("ab" * 32, n, "", 1))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(900 < count < 1100 for count in counts.values()), counts


def test_the_client_value_changes_the_roll_and_bad_ones_are_none():
    seed = "cd" * 32
    assert [verify.faces_for(seed, 0, f"{n:02x}", 2) for n in range(20)] != [
        verify.faces_for(seed, 0, "", 2)
    ] * 20
    assert verify.clean_client("ABcd") == "abcd"
    assert verify.clean_client("x" * 3) == ""
    assert verify.clean_client("a" * 65) == ""


def test_a_seed_that_is_not_the_committed_one_fails():
    seed = "01" * 32
    faces = verify.faces_for(seed, 3, "", 2)
    good = verify.check_roll(
        faces=faces, counter=3, client="", seed=seed, committed_hash=verify.seed_hash(seed)
    )
    assert good.status == verify.MATCHES
    other = verify.check_roll(
        faces=faces, counter=3, client="", seed="02" * 32, committed_hash=verify.seed_hash(seed)
    )
    assert other.status == verify.MISMATCH
    assert (
        verify.check_roll(faces=faces, counter=3, client="", seed="", committed_hash="x").status
        == verify.PENDING
    )
    assert (
        verify.check_roll(faces=faces, counter=None, client="", seed="", committed_hash=None).status
        == verify.UNVERIFIABLE
    )


# --- the service --------------------------------------------------------------------------


def roll(campaign, people, persona="referee", *, visibility="public", side="", note=""):
    reph = RefitPhase.objects.get(campaign=campaign, finished_at__isnull=True)
    return dice.roll(
        campaign,
        by=people[persona],
        kind="DR",
        step="11.618",
        index=reph.index,
        side=side,
        visibility=visibility,
        note=note,
    )


def finish_open_phase(campaign):
    """The open phase is over (as walker.finish ends it): its seeds are revealed."""
    reph = RefitPhase.objects.get(campaign=campaign, finished_at__isnull=True)
    RefitPhase.objects.filter(pk=reph.pk).update(finished_at=timezone.now())
    dice.reveal_commitments(campaign, reph=reph)


def test_a_new_campaign_commits_to_every_scope_before_any_roll(campaign):
    commitments = DiceCommitment.objects.filter(campaign=campaign)
    assert sorted(commitments.values_list("visibility", flat=True)) == [
        "german",
        "public",
        "referee",
        "soviet",
    ]
    reph = walker.open_reph(campaign)
    assert all(c.reph_id == reph.pk and c.revealed_at is None for c in commitments)
    assert all(c.seed_hash == verify.seed_hash(c.seed) for c in commitments)


def test_each_roll_takes_the_next_counter_and_the_roller_value(campaign, people):
    with dice.client_value("00ff"):
        first = roll(campaign, people)
    second = roll(campaign, people)
    commitment = DiceCommitment.objects.get(campaign=campaign, visibility="public")
    assert (first.commitment, first.counter, first.client_value) == (commitment, 0, "00ff")
    assert (second.counter, second.client_value) == (1, "")
    assert first.faces == verify.faces_for(commitment.seed, 0, "00ff", 2)
    assert second.faces == verify.faces_for(commitment.seed, 1, "", 2)
    assert commitment.next_counter == 2


def test_a_secret_roll_takes_its_sides_commitment(campaign, people):
    secret = roll(campaign, people, "german", visibility="german", side="german")
    assert secret.commitment.visibility == "german"
    assert secret.counter == 0


def test_finishing_the_phase_reveals_its_seeds_and_the_next_phase_gets_new_ones(campaign, people):
    first = roll(campaign, people)
    finish_open_phase(campaign)
    assert DiceCommitment.objects.get(pk=first.commitment_id).revealed_at is not None
    RefitPhase.objects.create(campaign=campaign, kind="scenario", index=0)
    later = roll(campaign, people)
    assert later.commitment_id != first.commitment_id and later.counter == 0


def test_the_middleware_passes_the_browsers_value_to_the_roll(campaign, people):
    made = {}

    def view(request):
        made["roll"] = roll(campaign, people)
        return None

    request = RequestFactory().post("/", {"dice_client": "beef01"})
    DiceClientMiddleware(view)(request)
    assert made["roll"].client_value == "beef01"
    request = RequestFactory().post("/", {"dice_client": "<script>"})
    DiceClientMiddleware(view)(request)
    assert made["roll"].client_value == ""


# --- pages ------------------------------------------------------------------------------


def verify_url(campaign):
    return reverse("campaigns:dice_verify", args=[campaign.pk])


def log_url(campaign):
    return reverse("campaigns:dice_log", args=[campaign.pk])


@pytest.fixture
def rolled(campaign, people):
    roll(campaign, people)
    roll(campaign, people)
    roll(campaign, people, "german", visibility="german", side="german", note=GERMAN_NOTE)
    return campaign


def seeds(campaign, visibility):
    return list(
        DiceCommitment.objects.filter(campaign=campaign, visibility=visibility).values_list(
            "seed", "seed_hash"
        )
    )


@pytest.mark.parametrize("persona", MEMBERS)
def test_no_seed_is_shown_before_the_phase_is_over(rolled, client_as, people, persona):
    client = client_as(persona)
    pages = (
        client.get(log_url(rolled)).content.decode()
        + client.get(verify_url(rolled)).content.decode()
    )
    data = transfer.dumps(transfer.build_export(access.viewer_for(people[persona], rolled.pk)))
    for seed, seed_hash in seeds(rolled, "public"):
        assert seed_hash in pages
        assert seed not in pages and seed not in data
    german_seed, german_hash = seeds(rolled, "german")[0]
    assert german_seed not in pages and german_seed not in data
    assert (german_hash in pages) == (persona in ("german", "referee"))


@pytest.mark.parametrize("persona", MEMBERS)
def test_the_seeds_are_shown_once_the_phase_is_over_to_those_who_see_their_scope(
    rolled, client_as, persona
):
    finish_open_phase(rolled)
    client = client_as(persona)
    log = client.get(log_url(rolled)).content.decode()
    page = client.get(verify_url(rolled)).content.decode()
    public_seed = seeds(rolled, "public")[0][0]
    assert public_seed in log and public_seed in page
    german_seed = seeds(rolled, "german")[0][0]
    sees = persona in ("german", "referee")
    assert (german_seed in page) == sees and (german_seed in log) == sees
    matches = 3 if sees else 2
    assert f'<span id="count-matches">{matches}</span>' in page
    assert '<span id="count-mismatches">0</span>' in page


def test_an_outsider_gets_no_verify_page(rolled, client_as):
    assert client_as("outsider").get(verify_url(rolled)).status_code == 404


def test_before_the_end_the_rolls_are_pending(rolled, client_as):
    page = client_as("referee").get(verify_url(rolled)).content.decode()
    assert '<span id="count-pending">3</span>' in page


def test_a_tampered_roll_fails_verification(rolled, client_as):
    finish_open_phase(rolled)
    tampered = DiceRoll.objects.filter(campaign=rolled, visibility="public").first()
    faces = [7 - face for face in tampered.faces]  # every face changed
    DiceRoll.objects.filter(pk=tampered.pk).update(faces=faces, original=sum(faces))
    page = client_as("observer").get(verify_url(rolled)).content.decode()
    assert '<span id="count-mismatches">1</span>' in page
    assert "does not match its commitment" in page


def test_a_voided_roll_stays_in_the_check(rolled, client_as, people):
    voided = DiceRoll.objects.filter(campaign=rolled, visibility="public").first()
    dice.void(voided, by=people["referee"], reason="Rolled twice")
    finish_open_phase(rolled)
    page = client_as("observer").get(verify_url(rolled)).content.decode()
    assert '<span id="count-matches">2</span>' in page


def test_older_rolls_are_not_verifiable(campaign, people, client_as):
    with dice.use_roller(7):
        roll(campaign, people)
    page = client_as("soviet").get(verify_url(campaign)).content.decode()
    assert '<span id="count-unverifiable">1</span>' in page
    log = client_as("soviet").get(log_url(campaign)).content.decode()
    assert "not verifiable (made before commitments)" in log


def test_after_the_campaigns_reveal_everyone_checks_the_secret_rolls(rolled, client_as):
    from campaigns.models import Campaign

    finish_open_phase(rolled)
    Campaign.objects.filter(pk=rolled.pk).update(revealed_at=timezone.now())
    page = client_as("observer").get(verify_url(rolled)).content.decode()
    assert seeds(rolled, "german")[0][0] in page
    assert '<span id="count-matches">3</span>' in page


def test_the_verify_page_reads_a_fixed_number_of_queries(
    rolled, people, client_as, django_assert_max_num_queries
):
    client = client_as("referee")
    with django_assert_max_num_queries(20) as few:
        client.get(verify_url(rolled))
    for _ in range(10):
        roll(rolled, people)
    finish_open_phase(rolled)
    with django_assert_max_num_queries(len(few.captured_queries)):
        client.get(verify_url(rolled))


# --- the command and the file ------------------------------------------------------------


def exported(campaign, people, persona="referee"):
    return json.loads(
        transfer.dumps(transfer.build_export(access.viewer_for(people[persona], campaign.pk)))
    )


def test_the_command_checks_an_export_file(rolled, people, tmp_path, capsys):
    finish_open_phase(rolled)
    data = exported(rolled, people)
    path = tmp_path / "campaign.json"
    path.write_text(json.dumps(data))
    call_command("verify_dice", str(path))
    out = capsys.readouterr().out
    assert "3 matches" in out and "Every roll checked matches" in out
    data["dice_rolls"][0]["faces"] = [7 - f for f in data["dice_rolls"][0]["faces"]]
    path.write_text(json.dumps(data))
    with pytest.raises(CommandError, match="1 roll"):
        call_command("verify_dice", str(path))
    assert "DOES NOT MATCH" in capsys.readouterr().out


def test_a_roll_tampered_in_the_database_fails_the_commands_check(rolled, people, tmp_path, capsys):
    """The faces changed in the database, then exported: the file's check finds that roll."""
    finish_open_phase(rolled)
    tampered = DiceRoll.objects.filter(campaign=rolled, visibility="public").first()
    faces = [7 - face for face in tampered.faces]
    DiceRoll.objects.filter(pk=tampered.pk).update(faces=faces, original=sum(faces))
    path = tmp_path / "campaign.json"
    path.write_text(json.dumps(exported(rolled, people)))
    with pytest.raises(CommandError, match="1 roll"):
        call_command("verify_dice", str(path))
    out = capsys.readouterr().out
    assert "DOES NOT MATCH" in out and "2 matches" in out


def test_the_command_on_a_file_before_the_phase_ends_finds_the_rolls_pending(
    rolled, people, tmp_path, capsys
):
    path = tmp_path / "campaign.json"
    path.write_text(json.dumps(exported(rolled, people)))
    call_command("verify_dice", str(path))
    assert "3 seed not revealed yet" in capsys.readouterr().out


def test_commitments_counters_and_client_values_round_trip(rolled, people):
    with dice.client_value("c0ffee"):
        roll(rolled, people)
    finish_open_phase(rolled)
    data = exported(rolled, people)
    copy = transfer.load(transfer.parse_export(json.dumps(data)), user=people["outsider"])
    again = exported(copy, people, "outsider")
    fields = ("commitment", "counter", "client_value", "faces")
    assert [{k: r[k] for k in fields} for r in again["dice_rolls"]] == [
        {k: r[k] for k in fields} for r in data["dice_rolls"]
    ]
    strip = lambda rows: [{k: v for k, v in row.items()} for row in rows]  # noqa: E731
    assert strip(again["dice_commitments"]) == strip(data["dice_commitments"])
    assert any(r["client_value"] == "c0ffee" for r in again["dice_rolls"])
    assert all(verdict.status == verify.MATCHES for _r, verdict in verify.check_file(again))


def test_an_import_refuses_a_seed_that_is_not_the_committed_one(rolled, people):
    finish_open_phase(rolled)
    data = exported(rolled, people)
    row = next(row for row in data["dice_commitments"] if row["seed"])
    row["seed"] = "ee" * 32
    with pytest.raises(transfer.ImportRefused, match="dice_commitments"):
        transfer.parse_export(json.dumps(data))


def test_finishing_a_refit_phase_reveals_its_seeds_and_commits_to_the_next(campaign, people):
    from tests.refit.walker.test_services import walk_all

    reph = walker.open_reph(campaign)
    first = roll(campaign, people)
    walk_all(campaign, reph, people)
    following = finish_phase(campaign, reph, by=people["referee"])
    first.commitment.refresh_from_db()
    assert first.commitment.revealed_at is not None
    assert first.faces == verify.faces_for(first.commitment.seed, 0, "", 2)
    assert (
        DiceCommitment.objects.filter(
            campaign=campaign, reph=following, revealed_at__isnull=True
        ).count()
        == 4
    )
