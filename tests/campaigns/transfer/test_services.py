"""The export format and the import service (campaigns.transfer.services), without HTTP."""

import copy
import json

import pytest
from django.db import connection

from campaigns.access import REFEREE, viewer_for
from campaigns.dice import services as dice
from campaigns.games.registry import get_module
from campaigns.games.rules import Drm
from campaigns.games.weather import conditions, types_of
from campaigns.history import services as history
from campaigns.models import (
    Campaign,
    CampaignDay,
    CampaignEvent,
    CvpEntry,
    DiceRoll,
    Invitation,
    LedgerEntry,
    Membership,
    OrbatEntry,
    RefitPhase,
    ReinforcementGroup,
    Scenario,
    SideDay,
    StepProgress,
)
from campaigns.orbat import services as orbat
from campaigns.records import services as records
from campaigns.records.forms import weather_label
from campaigns.roster import services as roster
from campaigns.transfer import checker as transfer_checker
from campaigns.transfer import load as transfer_load
from campaigns.transfer import read as transfer_read
from campaigns.transfer import services as transfer

pytestmark = pytest.mark.django_db

# Numbers and words only the German side (and the referee) may know.
GERMAN_SECRETS = (
    '"amount": 15',
    '"amount": 37',
    '"amount": -11',
    "Panzer reserve",
    '"G4"',
    "Kessel dice",
)
SOVIET_SECRETS = ('"amount": 23', "Volga crossing", '"M3"', "Ferry dice")


def play_some_days(campaign, people):
    """A campaign two days in: ledgers, a bought RG with units, CVP, a scenario, secret rolls."""
    german, soviet, referee = people["german"], people["soviet"], people["referee"]
    roster.add_ledger_entry(
        campaign,
        by=german,
        side="german",
        ledger="cpp",
        index=1,
        kind="replenishment",
        amount=37,
        note="Panzer reserve",
    )
    roster.add_ledger_entry(
        campaign,
        by=german,
        side="german",
        ledger="cpp",
        index=1,
        kind="rg_purchase",
        amount=-11,
        rg="G4",
    )
    roster.add_ledger_entry(
        campaign,
        by=soviet,
        side="soviet",
        ledger="cpp",
        index=1,
        kind="replenishment",
        amount=23,
        note="Volga crossing",
    )
    roster.add_ledger_entry(
        campaign,
        by=soviet,
        side="soviet",
        ledger="cpp",
        index=1,
        kind="recon",
        amount=-2,
        locations=6,
    )
    adjustment = roster.add_ledger_entry(
        campaign,
        by=referee,
        side="soviet",
        ledger="fpp",
        index=1,
        kind="adjustment",
        amount=-4,
        note="Misread chart",
    )
    history.undo(
        CampaignEvent.objects.get(action="ledger.added", data__amount=-4), by=people["referee"]
    )
    assert not LedgerEntry.objects.filter(pk=adjustment.pk).exists()
    scenario = records.save_scenario(
        campaign,
        by=referee,
        index=0,
        scenario_type="initial",
        attacker="german",
        moves_first="german",
        winner="soviet",
        turns_played=6,
        locations={"german": {"gained": 3}, "soviet": {"lost": 3}},
        notes="Street fighting in the Barrikady",
    )
    records.add_cvp(
        campaign,
        by=german,
        side="soviet",
        index=0,
        scenario=scenario,
        phase="scenario",
        what="4-4-7",
        cvp=2,
    )
    records.add_cvp(
        campaign, by=soviet, side="german", index=0, phase="reph_after_vc", what="StuG", cvp=5
    )
    rg = ReinforcementGroup.objects.create(
        campaign=campaign,
        side="german",
        rg_id="G4",
        number=1,
        index=1,
        source="purchased",
        cpp_cost=11,
        strength="5",
        details={"sw": ["MMG"]},
    )
    orbat.add_units(campaign, by=german, side="german", box="rg", group=rg, text="5 × 4-6-7")
    soviet_rg = ReinforcementGroup.objects.create(
        campaign=campaign, side="soviet", rg_id="M3", number=1, index=1, source="purchased"
    )
    orbat.add_units(campaign, by=soviet, side="soviet", box="rg", group=soviet_rg, text="3 × 4-4-7")
    line = OrbatEntry.objects.filter(campaign=campaign, side="soviet", box="retained").first()
    orbat.change_entry(line, by=soviet, version=line.version, box="casualties", move_quantity=1)
    german_day = SideDay.objects.get(campaign=campaign, side="german", index=1)
    roster.update_side_day(
        campaign,
        german_day,
        by=german,
        version=german_day.version,
        elr=4,
        san=5,
        initiative_chit="Attack",
    )
    day = CampaignDay.objects.get(campaign=campaign, index=1)
    records.update_day(campaign, day, by=referee, version=day.version, weather="Overcast")
    history.record(campaign, referee, "test.note", visibility=REFEREE, note="Referee only")
    roll_some_dice(campaign, people)
    campaign.period_index = 1
    campaign.save()
    return campaign


def roll_some_dice(campaign, people):
    """Secret CPP rolls for each side, a public weather roll (voided), a referee's roll."""
    german, soviet, referee = people["german"], people["soviet"], people["referee"]
    cpp = campaign.game.dice_table("rf.cpp-replenishment")
    with dice.use_roller(1942):
        dice.roll(
            campaign,
            by=german,
            kind="DR",
            step="11.616",
            index=1,
            side="german",
            visibility="german",
            table=cpp,
            modifiers=[Drm(-2, "Historical DRM (11.6161)"), Drm(1, "CVP")],
            note="Kessel dice",
        )
        dice.roll(
            campaign,
            by=soviet,
            kind="DR",
            step="11.616",
            index=1,
            side="soviet",
            visibility="soviet",
            table=cpp,
            note="Ferry dice",
        )
        weather = dice.roll(
            campaign,
            by=referee,
            kind="DR",
            step="11.618",
            index=1,
            visibility="public",
            table=campaign.game.dice_table("rf.weather"),
        )
        dice.roll(campaign, by=referee, kind="dr", step="11.6122", index=1, visibility=REFEREE)
    dice.void(weather, by=referee, reason="Rolled before the EC")


@pytest.fixture
def played(campaign, people):
    return play_some_days(campaign, people)


def export_as(campaign, user):
    return transfer.build_export(viewer_for(user, campaign.pk))


def text(data):
    return transfer.dumps(data)


# --- what an export holds -------------------------------------------------------------------


def test_the_referee_export_holds_every_row_of_the_campaign(played, people):
    data = export_as(played, people["referee"])
    assert (data["format"], data["format_version"], data["scope"]) == (
        "campaign-desk.export",
        2,
        "full",
    )
    assert data["campaign"]["module"] == "red_factories"
    assert data["campaign"]["campaign_game"] == "rb-cg-1"
    assert data["campaign"]["period_index"] == 1
    counts = {
        "days": CampaignDay,
        "side_days": SideDay,
        "ledger": LedgerEntry,
        "cvp": CvpEntry,
        "scenarios": Scenario,
        "rgs": ReinforcementGroup,
        "orbat": OrbatEntry,
    }
    for key, model in counts.items():
        assert len(data[key]) == model.objects.filter(campaign=played).count() > 0, key
    assert len(data["history"]) == CampaignEvent.objects.filter(campaign=played).count()
    assert len(data["dice_rolls"]) == DiceRoll.objects.filter(campaign=played).count() == 4
    assert {m["username"] for m in data["members"]} == {"german", "soviet", "referee", "observer"}
    for secret in GERMAN_SECRETS + SOVIET_SECRETS + ("Referee only",):
        assert secret in text(data), secret


def test_the_soviet_export_holds_nothing_secret_of_the_german_side(played, people):
    data = export_as(played, people["soviet"])
    assert data["scope"] == "side:soviet"
    for key in ("side_days", "ledger", "rgs", "orbat"):
        assert data[key], key
        assert {row["side"] for row in data[key]} == {"soviet"}, key
    assert {event["visibility"] for event in data["history"]} == {"public", "soviet"}
    assert {roll["visibility"] for roll in data["dice_rolls"]} == {"public", "soviet"}
    dumped = text(data)
    for secret in GERMAN_SECRETS + ("Referee only", "Attack"):
        assert secret not in dumped, secret
    assert "Volga crossing" in dumped
    # Public records are there for everyone.
    assert len(data["cvp"]) == 2 and len(data["scenarios"]) == 1
    assert data["days"][1]["weather"] == "Overcast"


def test_the_german_export_mirrors_it(played, people):
    dumped = text(export_as(played, people["german"]))
    for secret in SOVIET_SECRETS + ("Referee only",):
        assert secret not in dumped, secret
    assert "Panzer reserve" in dumped


def test_the_observer_export_holds_no_side_secrets(played, people):
    data = export_as(played, people["observer"])
    assert data["scope"] == "public"
    for key in ("side_days", "ledger", "rgs", "orbat"):
        assert data[key] == [], key
    assert {event["visibility"] for event in data["history"]} == {"public"}
    assert [roll["step"] for roll in data["dice_rolls"]] == ["11.618"]
    dumped = text(data)
    for secret in GERMAN_SECRETS + SOVIET_SECRETS + ("Referee only", "Attack"):
        assert secret not in dumped, secret


def test_row_ids_are_the_files_own_so_nothing_is_learnt_from_gaps(played, people):
    data = export_as(played, people["soviet"])
    assert [rg["id"] for rg in data["rgs"]] == list(range(1, len(data["rgs"]) + 1))
    in_rg_box = [row for row in data["orbat"] if row["box"] == "rg"]
    assert in_rg_box and all(row["group"] in {rg["id"] for rg in data["rgs"]} for row in in_rg_box)
    assert data["cvp"][0]["scenario"] == data["scenarios"][0]["id"] == 1
    assert [roll["id"] for roll in data["dice_rolls"]] == [1, 2]
    assert "campaign_id" not in text(data)


def test_undo_payloads_are_not_exported_but_undone_changes_are_marked(played, people):
    data = export_as(played, people["referee"])
    assert all("undo" not in event["data"] for event in data["history"])
    undone = [event for event in data["history"] if event["undone_at"]]
    assert [(e["action"], e["undone_by"]) for e in undone] == [("ledger.added", "referee")]


def test_the_undo_payloads_stay_in_the_database(played, people):
    """The history's rows are read without them (``WithoutKeys``): not even decoded."""
    from campaigns.transfer.export import _EVENT_ROWS

    with_undo = CampaignEvent.objects.filter(campaign=played, data__has_key="undo")
    assert with_undo.exists()
    rows = list(_EVENT_ROWS(played.pk, ["public", "referee", "german", "soviet"], 10**9))
    assert len(rows) == CampaignEvent.objects.filter(campaign=played).count()
    by_id = {row[0]: row[-1] for row in rows}
    for event in with_undo:
        assert by_id[event.pk] == {k: v for k, v in event.data.items() if k != "undo"}


def test_the_file_name_is_the_campaign_name_and_the_date(campaign):
    import datetime as dt

    assert (
        transfer.export_filename(campaign, dt.date(2025, 3, 9))
        == "into-the-factory-club-night-2025-03-09.json"
    )
    campaign.name = "赤い十月"
    assert transfer.export_filename(campaign, dt.date(2025, 3, 9)) == "赤い十月-2025-03-09.json"


# --- round trip ----------------------------------------------------------------------------


def comparable(data):
    """An export without what an import is meant to change: names, ids of users, the time."""
    data = copy.deepcopy(data)
    del data["exported_at"], data["campaign"]["name"], data["campaign"]["created_at"]
    del data["members"]
    data["history"] = [e for e in data["history"] if e["action"] != "campaign.imported"]
    return data


def round_trip(campaign, exporter, importer):
    first = export_as(campaign, exporter)
    parsed = transfer.parse_export(transfer.dumps(first).encode())
    copy_ = transfer.load(parsed, user=importer)
    return first, copy_, export_as(copy_, importer)


def test_referee_export_import_export_is_lossless(played, people):
    first, imported, second = round_trip(played, people["referee"], people["outsider"])
    assert imported.pk != played.pk
    assert comparable(second) == comparable(first)
    # And what differs is only what should.
    assert second["campaign"]["name"] == "Into the Factory, club night (imported)"
    assert second["members"] == [{"username": "outsider", "role": "referee", "side": ""}]
    (event,) = [e for e in second["history"] if e["action"] == "campaign.imported"]
    assert event["actor"] == "outsider"
    assert event["data"]["name"] == "Into the Factory, club night"
    assert event["data"]["scope"] == "full"


def test_a_recon_payments_locations_travel_with_it(played, people):
    # The CG Roster's Recon column (11.622) is the payment's Locations: kept by the file.
    first, imported, _second = round_trip(played, people["referee"], people["outsider"])
    (row,) = [row for row in first["ledger"] if row["kind"] == "recon"]
    assert (row["amount"], row["locations"]) == (-2, 6)
    entry = LedgerEntry.objects.get(campaign=imported, kind="recon")
    assert (entry.amount, entry.locations) == (-2, 6)


def test_a_file_without_locations_imports_them_blank(good, people):
    data = copy.deepcopy(good)
    for row in data["ledger"]:
        row.pop("locations", None)
    parsed = transfer.parse_export(transfer.dumps(data).encode())
    imported = transfer.load(parsed, user=people["outsider"])
    assert LedgerEntry.objects.get(campaign=imported, kind="recon").locations is None


def test_a_second_round_trip_is_lossless_too(played, people):
    _first, imported, second = round_trip(played, people["referee"], people["outsider"])
    _again, _copy, third = round_trip(imported, people["outsider"], people["observer"])
    assert comparable(third) == comparable(second)
    # The first import is history now, still told as the outsider's.
    imports = [e for e in third["history"] if e["action"] == "campaign.imported"]
    assert [e["actor"] for e in imports] == ["outsider", "observer"]
    assert imports[0] == [e for e in second["history"] if e["action"] == "campaign.imported"][0]


def test_a_side_export_round_trips_as_that_side(played, people):
    first, imported, second = round_trip(played, people["soviet"], people["outsider"])
    membership = Membership.objects.get(campaign=imported)
    assert (membership.role, membership.side) == ("player", "soviet")
    assert comparable(second) == comparable(first)
    # The German records the file did not hold exist blank, so every page finds its rows.
    german_days = SideDay.objects.filter(campaign=imported, side="german")
    assert german_days.count() == 13
    assert not german_days.exclude(elr=None).exists()
    assert not LedgerEntry.objects.filter(campaign=imported, side="german").exists()


def test_an_observer_export_imports_as_an_observer(played, people):
    first, imported, second = round_trip(played, people["observer"], people["german"])
    membership = Membership.objects.get(campaign=imported)
    assert (membership.role, membership.side) == ("observer", "")
    assert comparable(second) == comparable(first)


def test_ids_are_remapped_to_the_new_rows(played, people):
    _first, imported, _second = round_trip(played, people["referee"], people["outsider"])
    cvp = CvpEntry.objects.get(campaign=imported, what="4-4-7")
    assert cvp.scenario.campaign_id == imported.pk
    for entry in OrbatEntry.objects.filter(campaign=imported, box="rg"):
        assert entry.group.campaign_id == imported.pk
        assert entry.group.side == entry.side
    assert (
        OrbatEntry.objects.filter(campaign=played).count()
        == OrbatEntry.objects.filter(campaign=imported).count()
    )


def test_imported_history_keeps_its_times_has_no_actor_and_cannot_be_undone(played, people):
    _first, imported, _second = round_trip(played, people["referee"], people["outsider"])
    original = CampaignEvent.objects.filter(campaign=played).order_by("created_at", "id")
    copied = CampaignEvent.objects.filter(campaign=imported).order_by("created_at", "id")
    *events, last = copied
    assert last.action == "campaign.imported" and last.actor == people["outsider"]
    assert [e.action for e in events] == [e.action for e in original]
    assert [e.created_at for e in events] == [e.created_at for e in original]
    for event, source in zip(events, original, strict=True):
        assert event.actor is None
        assert event.data["original"]["created_at"] == source.created_at.isoformat()
        assert event.data["original"]["actor"] == source.actor.username
        assert "undo" not in event.data
    viewer = viewer_for(people["outsider"], imported.pk)
    assert not history.undoable_for(viewer).exists()


def test_the_import_does_not_initialize_the_campaign_again(played, people):
    _first, imported, _second = round_trip(played, people["referee"], people["outsider"])
    # initialize() would have added a second set of initial CPP entries and RGs.
    assert LedgerEntry.objects.filter(campaign=imported, kind="initial").count() == (
        LedgerEntry.objects.filter(campaign=played, kind="initial").count()
    )
    assert ReinforcementGroup.objects.filter(campaign=imported).count() == (
        ReinforcementGroup.objects.filter(campaign=played).count()
    )


def test_the_imported_campaign_keeps_its_data_version_and_day(played, people):
    _first, imported, _second = round_trip(played, people["referee"], people["outsider"])
    imported.refresh_from_db()
    assert (imported.data_version, imported.period_index) == (played.game.version, 1)
    assert imported.created_by == people["outsider"]


def test_nothing_is_written_when_the_load_fails_half_way(played, people, monkeypatch):
    parsed = transfer.parse_export(transfer.dumps(export_as(played, people["referee"])))
    before = Campaign.objects.count()

    def broken(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(transfer_load, "_restore_times", broken)
    with pytest.raises(RuntimeError):
        transfer.load(parsed, user=people["outsider"])
    assert Campaign.objects.count() == before


# --- checking a file -----------------------------------------------------------------------


@pytest.fixture
def good(played, people):
    return export_as(played, people["referee"])


def refusal(data) -> str:
    raw = data if isinstance(data, bytes) else json.dumps(data).encode()
    with pytest.raises(transfer.ImportRefused) as error:
        transfer.parse_export(raw)
    return str(error.value)


def test_a_file_that_is_not_json_is_refused():
    assert "not JSON" in refusal(b"\x89PNG\r\n")
    assert "not JSON" in refusal(b'{"format": NaN}')


def test_json_that_is_not_an_export_is_refused(good):
    assert "not a campaign export" in refusal({"hello": "world"})
    assert "not a campaign export" in refusal([1, 2])
    assert "not a campaign export" in refusal({**good, "format": "other.export"})


def test_a_newer_format_version_is_refused_with_a_way_out(good):
    assert "Update the app" in refusal({**good, "format_version": 3})
    assert "not supported" in refusal({**good, "format_version": "1"})
    assert "not supported" in refusal({**good, "format_version": 0})


def test_an_unknown_game_or_campaign_game_is_refused(good):
    message = refusal({**good, "campaign": {**good["campaign"], "module": "squad_leader"}})
    assert "“squad_leader”" in message
    message = refusal({**good, "campaign": {**good["campaign"], "campaign_game": "rb-cg-99"}})
    assert "“rb-cg-99”" in message


def test_newer_game_data_is_refused_older_is_fine(good):
    newer = str(int(get_module(good["campaign"]["module"]).version) + 1)
    message = refusal({**good, "campaign": {**good["campaign"], "data_version": newer}})
    assert f"game data version {newer}" in message and "Update the app" in message
    assert "whole number" in refusal(
        {**good, "campaign": {**good["campaign"], "data_version": "x"}}
    )
    older = {**good, "campaign": {**good["campaign"], "data_version": "0"}}
    assert transfer.parse_export(json.dumps(older)).campaign["data_version"] == "0"


def test_a_bad_scope_is_refused(good):
    assert "scope" in refusal({**good, "scope": "side:romanian"})
    assert "scope" in refusal({**good, "scope": "everything"})


def test_a_side_file_may_not_carry_the_other_sides_secrets(good):
    message = refusal({**good, "scope": "side:soviet"})
    assert "is secret in a file of scope “side:soviet”" in message
    public = {
        **good,
        "scope": "public",
        "side_days": [],
        "ledger": [],
        "rgs": [],
        "orbat": [],
        "fortifications": [],
    }
    assert refusal(public).startswith("dice_commitments, entry 2, “visibility”: is secret")
    public["dice_commitments"] = [
        row for row in good["dice_commitments"] if row["visibility"] == "public"
    ]
    assert refusal(public).startswith("dice_rolls, entry 1, “visibility”: is secret")
    public["dice_rolls"] = [roll for roll in good["dice_rolls"] if roll["visibility"] == "public"]
    assert "history" in refusal(public) and "visibility" in refusal(public)


@pytest.mark.parametrize(
    ("section", "change", "words"),
    [
        ("ledger", {"amount": "37"}, "“amount”: must be a whole number."),
        ("ledger", {"amount": 0}, "“amount”: a gain must be more than 0"),
        ("ledger", {"kind": "fortification_rg"}, "does not belong in the CPP ledger"),
        ("ledger", {"index": 13}, "“index”: is not a day of the calendar."),
        ("ledger", {"side": "romanian"}, "“side”: is not a side of this game."),
        ("ledger", {"note": "x" * 201}, "at most 200 characters"),
        ("ledger", {"locations": 3}, "“locations”: only a recon payment carries"),
        ("ledger", {"locations": "3"}, "“locations”: must be a whole number."),
        ("ledger", {"created_at": "yesterday"}, "“created_at”: must be a date and time"),
        ("days", {"index": 0}, "another entry has the same index"),
        ("cvp", {"scenario": 99}, "“scenario”: names no scenario of the file."),
        ("cvp", {"phase": "lunch"}, "“phase”"),
        ("orbat", {"quantity": 0}, "“quantity”: must be 1 or more."),
        ("orbat", {"group": 999}, "“group”"),
        ("orbat", {"statuses": "broken"}, "“statuses”: must be a list."),
        ("rgs", {"entered": "yes"}, "“entered”: must be true or false."),
        ("scenarios", {"winner": "romanian"}, "“winner”: is not a side of this game."),
        ("side_days", {"elr": -1}, "“elr”"),
        ("history", {"action": ""}, "“action”"),
        ("history", {"target": 1}, "“target”: only an event about a dice roll names one."),
        ("dice_rolls", {"kind": "d10"}, "“kind”: must be “dr” or “DR”."),
        ("dice_rolls", {"faces": [7, 1]}, "“faces”: must list 2 die faces from 1 to 6."),
        ("dice_rolls", {"faces": [3]}, "“faces”: must list 2 die faces"),
        ("dice_rolls", {"original": 2}, "“original”: must be the sum of the dice."),
        ("dice_rolls", {"final": 99}, "“final”: must be the original roll plus the modifiers."),
        ("dice_rolls", {"modifiers": [{"value": "-2", "reason": "x"}]}, "“modifiers”"),
        ("dice_rolls", {"step": ""}, "“step”"),
        ("dice_rolls", {"side": "romanian"}, "“side”: is not a side of this game."),
        ("dice_rolls", {"index": 13}, "“index”: is not a day of the calendar."),
        ("dice_rolls", {"id": None}, "“id”: must be a number or text."),
        ("dice_rolls", {"void_reason": "Wrong"}, "“void_reason”: is needed for a void roll"),
        ("dice_rolls", {"rolled_by": 7}, "“rolled_by”: must be a user name or null."),
        ("dice_rolls", {"rolled_at": "soon"}, "“rolled_at”: must be a date and time"),
    ],
)
def test_bad_rows_are_refused_naming_the_section_entry_and_field(good, section, change, words):
    data = copy.deepcopy(good)
    rows = data[section]
    target = next((row for row in rows if section != "orbat" or row["box"] == "rg"), rows[0])
    position = rows.index(target) + 1
    if section == "days":
        target = rows[1]
        position = 2
    target.update(change)
    message = refusal(data)
    assert message.startswith(f"{section}, entry {position}"), message
    assert words in message, message


# --- dice rolls ----------------------------------------------------------------------------


def test_a_roll_is_exported_with_its_dice_modifiers_result_and_void(played, people):
    rolls = export_as(played, people["referee"])["dice_rolls"]
    german = next(roll for roll in rolls if roll["visibility"] == "german")
    roll = DiceRoll.objects.get(campaign=played, visibility="german")
    assert german == {
        "id": 1,
        "index": 1,
        "side": "german",
        "step": "11.616",
        "table_id": "rf.cpp-replenishment",
        "kind": "DR",
        "faces": roll.faces,
        "modifiers": [
            {"value": -2, "reason": "Historical DRM (11.6161)"},
            {"value": 1, "reason": "CVP"},
        ],
        "original": sum(roll.faces),
        "final": sum(roll.faces) - 1,
        "result": roll.result,
        "note": "Kessel dice",
        "note_words": {},
        "sequence_step": "",
        "form_token": "",
        "visibility": "german",
        "commitment": None,  # rolled with a test's roller: not committed
        "counter": None,
        "client_value": "",
        "rolled_by": "german",
        "rolled_at": roll.rolled_at.isoformat(),
        "voided_at": None,
        "voided_by": None,
        "void_reason": "",
    }
    assert isinstance(german["result"], dict) and "cpp" in german["result"]
    (weather,) = [roll for roll in rolls if roll["step"] == "11.618"]
    assert weather["voided_by"] == "referee"
    assert weather["void_reason"] == "Rolled before the EC"
    assert weather["voided_at"] is not None


def test_history_names_the_roll_it_is_about(played, people):
    data = export_as(played, people["soviet"])
    about_rolls = [e for e in data["history"] if e["action"].startswith("dice.")]
    refs = {roll["id"]: roll for roll in data["dice_rolls"]}
    assert [(e["action"], refs[e["target"]]["step"]) for e in about_rolls] == [
        ("dice.rolled", "11.616"),
        ("dice.rolled", "11.618"),
        ("dice.voided", "11.618"),
    ]
    assert all(e["target"] is None for e in data["history"] if e not in about_rolls)


def test_imported_rolls_keep_their_times_voids_and_who_rolled(played, people):
    first, imported, second = round_trip(played, people["referee"], people["outsider"])
    original = list(DiceRoll.objects.filter(campaign=played).order_by("rolled_at", "id"))
    copied = list(DiceRoll.objects.filter(campaign=imported).order_by("rolled_at", "id"))
    assert [r.rolled_at for r in copied] == [r.rolled_at for r in original]
    assert [(r.faces, r.final, r.result) for r in copied] == [
        (r.faces, r.final, r.result) for r in original
    ]
    # Users of the file are not users here: nobody on this server rolled or voided them.
    assert all(r.rolled_by is None and r.voided_by is None for r in copied)
    (void,) = [r for r in copied if r.voided_at]
    assert void.void_reason == "Rolled before the EC"
    # The names come back from the rolls' imported history events.
    assert [r["rolled_by"] for r in second["dice_rolls"]] == [
        "german",
        "soviet",
        "referee",
        "referee",
    ]
    assert second["dice_rolls"] == first["dice_rolls"]
    events = CampaignEvent.objects.filter(campaign=imported, action__startswith="dice.")
    assert {e.target_id for e in events} <= {r.pk for r in copied}
    assert all(e.target_type == "campaigns.diceroll" for e in events)


def test_a_drm_naming_its_table_modifier_round_trips(played, people):
    """The walker and the escape rolls log each DRM with the table's modifier id."""
    with dice.use_roller(7):
        dice.roll(
            played,
            by=people["german"],
            kind="DR",
            step="11.616",
            index=1,
            side="german",
            visibility="german",
            table=played.game.dice_table("rf.cpp-replenishment"),
            modifiers=[Drm(-2, "Historical DRM (11.6161)", id="historical")],
        )
    first, _imported, second = round_trip(played, people["referee"], people["outsider"])
    logged = [roll["modifiers"] for roll in second["dice_rolls"] if roll["modifiers"]]
    assert {"value": -2, "reason": "Historical DRM (11.6161)", "id": "historical"} in logged[-1]
    assert second["dice_rolls"] == first["dice_rolls"]


@pytest.mark.parametrize(
    "modifier",
    [
        {"value": -2, "reason": "x", "id": 3},
        {"value": -2, "reason": "x", "note": "y"},
        {"value": True, "reason": "x"},
        {"reason": "x"},
    ],
)
def test_a_crafted_modifier_is_refused(good, modifier):
    data = copy.deepcopy(good)
    roll = next(r for r in data["dice_rolls"] if r["modifiers"])
    roll["modifiers"] = [modifier]
    roll["final"] = roll["original"] + (modifier.get("value") or 0)
    assert "“modifiers”" in refusal(data)


def test_a_side_file_may_not_carry_the_other_sides_rolls(played, people):
    data = export_as(played, people["soviet"])
    german = next(
        roll
        for roll in export_as(played, people["referee"])["dice_rolls"]
        if roll["visibility"] == "german"
    )
    data["dice_rolls"].append({**german, "id": 99})
    message = refusal(data)
    assert message == (
        f"dice_rolls, entry {len(data['dice_rolls'])}, “visibility”: "
        "is secret in a file of scope “side:soviet”."
    )


def test_an_event_naming_a_roll_the_file_does_not_have_is_refused(good):
    data = copy.deepcopy(good)
    event = next(e for e in data["history"] if e["action"] == "dice.rolled")
    event["target"] = 99
    assert "“target”: names no dice roll of the file." in refusal(data)


def test_a_version_1_file_made_before_the_dice_log_still_imports(good, people):
    data = copy.deepcopy(good)
    data["dice_rolls"] = []
    for event in data["history"]:
        del event["target"]
    imported = transfer.load(transfer.parse_export(json.dumps(data)), user=people["outsider"])
    assert not DiceRoll.objects.filter(campaign=imported).exists()
    assert CampaignEvent.objects.filter(campaign=imported, action="dice.rolled").count() == 4


def test_a_roll_without_its_events_imports_without_names(good, people):
    data = copy.deepcopy(good)
    data["history"] = [e for e in data["history"] if not e["action"].startswith("dice.")]
    imported = transfer.load(transfer.parse_export(json.dumps(data)), user=people["outsider"])
    again = export_as(imported, people["outsider"])
    assert [r["rolled_by"] for r in again["dice_rolls"]] == [None] * 4
    assert [r["void_reason"] for r in again["dice_rolls"]] == [
        r["void_reason"] for r in data["dice_rolls"]
    ]


def test_missing_optional_columns_take_their_defaults(good, people):
    data = copy.deepcopy(good)
    for row in data["days"]:
        del row["notes"], row["moon"]
    parsed = transfer.parse_export(json.dumps(data))
    imported = transfer.load(parsed, user=people["outsider"])
    assert CampaignDay.objects.get(campaign=imported, index=1).weather == "Overcast"


def test_a_missing_required_column_is_named(good):
    data = copy.deepcopy(good)
    del data["ledger"][0]["amount"]
    assert refusal(data) == "ledger, entry 1, “amount”: is missing."


def test_a_file_cannot_smuggle_an_undo_payload(good, people):
    # A crafted undo step could otherwise delete rows of any campaign through the history page.
    data = copy.deepcopy(good)
    data["history"][0]["data"]["undo"] = [
        {"model": "campaigns.campaign", "pk": 1, "before": None, "after": {}}
    ]
    imported = transfer.load(transfer.parse_export(json.dumps(data)), user=people["outsider"])
    assert not CampaignEvent.objects.filter(campaign=imported, data__has_key="undo").exists()


def test_the_size_limit_is_checked_before_reading():
    class Huge:
        size = transfer.MAX_IMPORT_BYTES + 1

        def read(self, *args):  # pragma: no cover - must not be called
            raise AssertionError("read a file over the limit")

    with pytest.raises(transfer.ImportRefused, match="larger than 5 MB"):
        transfer.read_upload(Huge())


def big_campaign(people, rows=300):
    """RB CG III (30 days) with hundreds of rows in every section, for query counts."""
    from campaigns.games.registry import get_module
    from campaigns.members import services

    campaign = services.create_campaign(
        user=people["referee"],
        name="The long one",
        module=get_module("red_factories"),
        cg_key="rb-cg-3",
        role="referee",
        side="",
    )
    for persona in ("german", "soviet", "observer"):
        role, side = ("observer", "") if persona == "observer" else ("player", persona)
        Membership.objects.create(campaign=campaign, user=people[persona], role=role, side=side)
    days = len(campaign.cg.periods)
    sides = ("german", "soviet")
    LedgerEntry.objects.bulk_create(
        LedgerEntry(
            campaign=campaign,
            side=sides[n % 2],
            ledger="cpp",
            index=n % days,
            kind="replenishment",
            amount=n + 1,
        )
        for n in range(rows)
    )
    scenarios = Scenario.objects.bulk_create(
        Scenario(campaign=campaign, index=n, scenario_type="assault") for n in range(days)
    )
    CvpEntry.objects.bulk_create(
        CvpEntry(
            campaign=campaign,
            side=sides[n % 2],
            index=n % days,
            scenario=scenarios[n % days],
            phase="scenario",
            what="4-6-7",
            cvp=2,
        )
        for n in range(rows)
    )
    rgs = ReinforcementGroup.objects.bulk_create(
        ReinforcementGroup(
            campaign=campaign,
            side=sides[n % 2],
            rg_id=f"R{n}",
            number=1,
            index=n % days,
            source="purchased",
        )
        for n in range(rows // 3)
    )
    OrbatEntry.objects.bulk_create(
        OrbatEntry(
            campaign=campaign,
            side=rgs[n % len(rgs)].side,
            box="rg",
            group=rgs[n % len(rgs)],
            unit_type="4-6-7",
            kind="infantry",
            quantity=3,
        )
        for n in range(rows)
    )
    CampaignEvent.objects.bulk_create(
        CampaignEvent(
            campaign=campaign,
            actor=people["german"],
            action="ledger.added",
            visibility=sides[n % 2],
            data={"side": sides[n % 2], "amount": n, "index": 0, "ledger": "cpp"},
        )
        for n in range(rows)
    )
    DiceRoll.objects.bulk_create(
        DiceRoll(
            campaign=campaign,
            index=n % days,
            side=sides[n % 2],
            step="11.616",
            kind="DR",
            faces=[n % 6 + 1, 3],
            modifiers=[{"value": -1, "reason": "Historical DRM"}],
            original=n % 6 + 4,
            final=n % 6 + 3,
            result={"cpp": n % 20},
            visibility=(sides[n % 2], "public")[n % 3 == 0],
            rolled_by=people[sides[n % 2]],
        )
        for n in range(rows // 2)
    )
    return campaign


# --- crafted files -------------------------------------------------------------------------


def event_of(data, action):
    """The first history event of ``action`` in the file, and its entry number."""
    number, event = next((n, e) for n, e in enumerate(data["history"], 1) if e["action"] == action)
    return number, event


def set_event_data(action, **changes):
    def change(data):
        number, event = event_of(data, action)
        event["data"].update(changes)
        return number

    return change


def set_row(section, index=0, **changes):
    def change(data):
        data[section][index].update(changes)
        return index + 1

    return change


def set_campaign(**changes):
    def change(data):
        data["campaign"].update(changes)

    return change


def nest(depth):
    value = "deep"
    for _level in range(depth):
        value = {"sw": [value]}
    return value


@pytest.mark.parametrize(
    ("change", "section", "words"),
    [
        # Values Python rejects only when it builds them.
        (set_row("history", created_at="2024-02-30T10:00:00"), "history", "“created_at”: must be"),
        (set_row("ledger", created_at="0001-01-01T00:00:00+05:00"), "ledger", "“created_at”"),
        (set_row("dice_rolls", rolled_at="2024-13-01T10:00:00Z"), "dice_rolls", "“rolled_at”"),
        (set_campaign(data_version="²"), None, "“data_version” must be a whole number"),
        (set_campaign(data_version="0" * 21), None, "“data_version” must be a whole number"),
        # Unhashable references.
        (set_row("cvp", scenario=[1]), "cvp", "“scenario”: must be an id of the file"),
        (set_row("cvp", scenario={"id": 1}), "cvp", "“scenario”: must be an id of the file"),
        (set_row("cvp", scenario=True), "cvp", "“scenario”: must be an id of the file"),
        (set_row("scenarios", id=[1]), "scenarios", "“id”: must be a number or text."),
        (set_row("history", id=[1]), "history", "“id”: must be a number or text."),
        (set_row("history", index=1, id=1), "history", "“id”: is used twice."),
        (set_row("dice_rolls", id={"a": 1}), "dice_rolls", "“id”: must be a number or text."),
        # Event data that the history page reads.
        (set_event_data("ledger.added", amount="x"), "history", "“data.amount”: must be a whole"),
        (set_event_data("ledger.added", amount=None), "history", "“data.amount”"),
        (set_event_data("ledger.added", side=["german"]), "history", "“data.side”: must be text."),
        (set_event_data("ledger.added", index="1"), "history", "“data.index”: must be a whole"),
        (set_event_data("cvp.added", cvp="2"), "history", "“data.cvp”: must be a whole number."),
        (set_event_data("orbat.added", units=[5]), "history", "“data.units”: must be a list of"),
        (set_event_data("orbat.added", units="5 × 4-6-7"), "history", "“data.units”"),
        (set_event_data("orbat.changed", unit={}), "history", "“data.unit”: must be text."),
        (set_event_data("dice.rolled", faces="66"), "history", "“data.faces”: must be a list of"),
        (set_event_data("dice.rolled", final=[6]), "history", "“data.final”: must be a whole"),
        (set_event_data("dice.voided", reason=1), "history", "“data.reason”: must be text."),
        (set_event_data("member.joined", role=["referee"]), "history", "“data.role”"),
        (set_event_data("campaign.created", name=None), "history", "“data.name”"),
        (set_event_data("change.undone", action_undone=3), "history", "“data.action_undone”"),
        # Scenario victory counts.
        (set_row("scenarios", locations={"german": 3}), "scenarios", "“locations.german”: must"),
        (set_row("scenarios", locations={"german": [3]}), "scenarios", "“locations.german”"),
        (
            set_row("scenarios", locations={"romanian": {"gained": 1}}),
            "scenarios",
            "“locations.romanian”: is not a side of this game.",
        ),
        (
            set_row("scenarios", locations={"german": {"won": 1}}),
            "scenarios",
            "must be an object with “gained”, “lost” and “controlled”",
        ),
        (
            set_row("scenarios", locations={"german": {"gained": "3"}}),
            "scenarios",
            "“locations.german.gained”: must be a count from 0 to 999, or null.",
        ),
        (set_row("scenarios", locations={"soviet": {"lost": -1}}), "scenarios", "from 0 to 999"),
        (set_row("scenarios", locations=[]), "scenarios", "“locations”: must be an object."),
        # Numbers the database columns cannot hold.
        (set_row("ledger", amount=2**40), "ledger", "“amount”: must be between"),
        (set_row("side_days", elr=70000), "side_days", "“elr”: must be between 0 and 32767."),
        (set_row("rgs", cpp_cost=2**16), "rgs", "“cpp_cost”: must be between"),
        # Text that cannot be stored, and data nested deeper than an export is.
        (set_row("ledger", note="a\x00b"), "ledger", "“note”: holds a character that cannot"),
        (set_row("rgs", details=nest(40)), "rgs", "“details.sw.1.sw.1"),
        (set_row("rgs", details=nest(40)), "rgs", "nested deeper than an export ever is"),
    ],
)
def test_crafted_values_are_refused_naming_where(good, change, section, words):
    data = copy.deepcopy(good)
    number = change(data)
    message = refusal(data)
    if section:
        assert message.startswith(f"{section}, entry {number}"), message
    assert words in message, message


def test_a_broken_character_is_refused_where_it_is(good):
    data = copy.deepcopy(good)
    number, event = event_of(data, "cvp.added")
    event["data"]["what"] = "BROKEN"
    raw = json.dumps(data).replace('"what": "BROKEN"', '"what": "\\ud800"')
    assert raw.count("\\ud800") == 1
    message = refusal(raw.encode())
    assert message == (
        f"history, entry {number}, “data.what”: holds a character that cannot be stored "
        "(a NUL or a broken character)."
    )


def test_an_infinite_number_is_not_json(good):
    raw = json.dumps(good).replace('"amount": 37', '"amount": 1e400', 1)
    assert "not JSON" in refusal(raw.encode())


def test_a_roll_whose_final_does_not_fit_its_column_is_refused(good):
    data = copy.deepcopy(good)
    roll = data["dice_rolls"][0]
    roll["modifiers"] = [{"value": 40000, "reason": "crafted"}]
    roll["final"] = roll["original"] + 40000
    assert refusal(data) == "dice_rolls, entry 1, “final”: must be between -32768 and 32767."


def test_anything_unforeseen_while_checking_refuses_the_file_as_damaged(good, monkeypatch):
    def broken(value):
        raise TypeError("a case nobody thought of")

    monkeypatch.setattr(transfer_checker, "parse_datetime", broken)
    assert refusal(good) == (
        "ledger, entry 1: The file is damaged or not an export of this app. Choose a file made "
        "by a campaign's Export link."
    )


def test_anything_unforeseen_before_the_rows_refuses_it_without_a_place(good, monkeypatch):
    def broken(key):
        raise AttributeError("registry changed")

    monkeypatch.setattr(transfer_read, "get_module", broken)
    assert refusal(good).startswith("The file is damaged or not an export of this app.")


def test_a_value_the_database_refuses_on_load_refuses_the_file_and_writes_nothing(
    good, people, monkeypatch
):
    from django.db import DataError

    parsed = transfer.parse_export(json.dumps(good))
    before = (Campaign.objects.count(), CampaignEvent.objects.count())

    def refused_by_database(*args, **kwargs):
        raise DataError("value too long")

    monkeypatch.setattr(transfer_load, "_restore_times", refused_by_database)
    with pytest.raises(transfer.ImportRefused, match="damaged or not an export"):
        transfer.load(parsed, user=people["outsider"])
    assert (Campaign.objects.count(), CampaignEvent.objects.count()) == before


def test_unknown_actions_and_keys_are_kept_as_they_are(good, people):
    data = copy.deepcopy(good)
    data["history"].append(
        {
            "action": "house_rule.applied",
            "visibility": "public",
            "data": {"amount": "lots", "units": 7, "notes": {"en": "x"}},
        }
    )
    number, event = event_of(data, "ledger.added")
    event["data"]["comment"] = ["kept"]
    imported = transfer.load(transfer.parse_export(json.dumps(data)), user=people["outsider"])
    again = export_as(imported, people["outsider"])
    (house_rule,) = [e for e in again["history"] if e["action"] == "house_rule.applied"]
    assert house_rule["data"] == {"amount": "lots", "units": 7, "notes": {"en": "x"}}
    assert again["history"][number - 1]["data"]["comment"] == ["kept"]


# --- no database ids -----------------------------------------------------------------------

ID_TABLES = (
    Campaign,
    Membership,
    Invitation,
    CampaignEvent,
    CampaignDay,
    SideDay,
    LedgerEntry,
    Scenario,
    CvpEntry,
    ReinforcementGroup,
    OrbatEntry,
    DiceRoll,
    RefitPhase,
    StepProgress,
)
FIRST_LARGE_ID = 7_000_000


def start_ids_large(tables=ID_TABLES):
    """Make every table's next id large and different per table (7 000 000, 7 100 000, …), so
    that a database id in a file cannot pass for a small number."""
    from django.contrib.auth import get_user_model

    with connection.cursor() as cursor:
        for n, model in enumerate((get_user_model(), *tables)):
            table, last = model._meta.db_table, FIRST_LARGE_ID + n * 100_000 - 1
            if connection.vendor == "sqlite":
                cursor.execute("DELETE FROM sqlite_sequence WHERE name = %s", [table])
                cursor.execute(
                    "INSERT INTO sqlite_sequence (name, seq) VALUES (%s, %s)", [table, last]
                )
            elif connection.vendor == "postgresql":
                cursor.execute("SELECT setval(pg_get_serial_sequence(%s, 'id'), %s)", [table, last])
            else:  # pragma: no cover
                pytest.skip(f"cannot move the ids of {connection.vendor}")


def database_ids(tables=ID_TABLES):
    from django.contrib.auth import get_user_model

    ids = set()
    for model in (get_user_model(), *tables):
        ids |= set(model.objects.values_list("pk", flat=True))
    assert min(ids) >= FIRST_LARGE_ID  # or the test proves nothing
    return ids


def numbers_in(value):
    """Every whole number anywhere in a JSON value."""
    if isinstance(value, dict):
        return [n for item in value.values() for n in numbers_in(item)]
    if isinstance(value, list):
        return [n for item in value for n in numbers_in(item)]
    return [value] if isinstance(value, int) and not isinstance(value, bool) else []


@pytest.fixture
def large_ids(db):
    start_ids_large()


def test_large_ids_really_are_large(large_ids, campaign):
    assert campaign.pk >= FIRST_LARGE_ID and campaign.created_by.pk >= FIRST_LARGE_ID
    assert Invitation.objects.filter(campaign=campaign).first().pk >= FIRST_LARGE_ID


@pytest.mark.parametrize("persona", ["soviet", "german", "referee", "observer"])
def test_no_export_holds_a_database_id(large_ids, campaign, people, persona):
    played = play_some_days(campaign, people)
    data = export_as(played, people[persona])
    leaked = set(numbers_in(data)) & database_ids()
    assert not leaked, leaked
    # The events that held ids still say what they said, with the ids left out.
    joined = [e for e in data["history"] if e["action"] == "member.joined"]
    assert len(joined) == 4 and all("invitation" not in e["data"] for e in joined)


def test_an_undo_names_the_undone_event_by_its_id_in_the_file(played, people):
    data = export_as(played, people["soviet"])
    assert [e["id"] for e in data["history"]] == list(range(1, len(data["history"]) + 1))
    (undone,) = [e for e in data["history"] if e["action"] == "change.undone"]
    named = data["history"][undone["data"]["undone"] - 1]
    assert (named["action"], named["data"]["amount"], named["undone_by"]) == (
        "ledger.added",
        -4,
        "referee",
    )
    assert undone["data"]["action_undone"] == "ledger.added"


def test_an_imported_undo_names_the_imported_event(played, people):
    _first, imported, second = round_trip(played, people["referee"], people["outsider"])
    undo = CampaignEvent.objects.get(campaign=imported, action="change.undone")
    named = CampaignEvent.objects.get(pk=undo.data["undone"])
    assert named.campaign_id == imported.pk
    assert (named.action, named.data["amount"]) == ("ledger.added", -4)
    assert named.undone_at is not None
    # …and the next export names it by its file id again.
    (again,) = [e for e in second["history"] if e["action"] == "change.undone"]
    assert second["history"][again["data"]["undone"] - 1]["data"]["amount"] == -4


def test_an_old_file_with_database_ids_in_history_imports_without_them(good, people):
    # Files made before history rows had ids: no "id", and database ids of their installation.
    data = copy.deepcopy(good)
    for event in data["history"]:
        del event["id"]
    number, undone = event_of(data, "change.undone")
    undone["data"]["undone"] = 123456
    _n, joined = event_of(data, "member.joined")
    joined["data"].update(invitation=98765, target_id=98765, pk=98765)
    imported = transfer.load(transfer.parse_export(json.dumps(data)), user=people["outsider"])
    undo = CampaignEvent.objects.get(campaign=imported, action="change.undone")
    assert "undone" not in undo.data and undo.data["action_undone"] == "ledger.added"
    again = export_as(imported, people["outsider"])
    assert 123456 not in numbers_in(again) and 98765 not in numbers_in(again)


def test_an_undo_naming_no_event_of_the_file_is_dropped(good, people):
    data = copy.deepcopy(good)
    _n, undone = event_of(data, "change.undone")
    undone["data"]["undone"] = [1]
    imported = transfer.load(transfer.parse_export(json.dumps(data)), user=people["outsider"])
    undo = CampaignEvent.objects.get(campaign=imported, action="change.undone")
    assert "undone" not in undo.data


def test_an_export_of_older_game_data_with_weather_words_stays_readable(played, people):
    """Files written before RF weather was stored as a key (data version 2) hold the words
    then booked; they are imported as written and read as the weather they name (issue 15)."""
    written = {1: "Overcast", 2: "Clear & Gusty", 3: "Fog by the Volga"}
    for index, words in written.items():
        CampaignDay.objects.filter(campaign=played, index=index).update(weather=words)
    data = export_as(played, people["referee"])
    data["campaign"]["data_version"] = "2"
    parsed = transfer.parse_export(transfer.dumps(data).encode())
    imported = transfer.load(parsed, user=people["outsider"])
    days = {d.index: d.weather for d in CampaignDay.objects.filter(campaign=imported)}
    assert {i: days[i] for i in written} == written
    types = types_of(imported.game.files)
    assert conditions(types, days[1]) == {"overcast"}
    assert weather_label(imported, days[2]) == "Clear & Gusty"
    assert conditions(types, days[3]) is None  # no weather: the next roll asks for it
