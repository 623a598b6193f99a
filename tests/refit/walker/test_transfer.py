"""The Refit Phase in the export file (refit.walker.transfer): an imported campaign stands where
the original stands, every file round-trips, a side's file keeps the other side's secret marks."""

import copy
import json
from dataclasses import replace

import pytest
from django.db import DataError

from campaigns.access import viewer_for
from campaigns.models import (
    Campaign,
    CampaignEvent,
    DiceRoll,
    FortificationPurchase,
    RefitPhase,
    StepProgress,
)
from campaigns.transfer import services as transfer
from campaigns.transfer.checker import Checker
from campaigns.transfer.sections import REGISTRY
from refit.models import MapTerrain, PerimeterState, PerimeterUnits
from refit.walker import automatic
from refit.walker import services as walker
from refit.walker import transfer as walker_transfer
from tests.campaigns.shortgames.conftest import make_game
from tests.campaigns.transfer.test_services import (
    ID_TABLES,
    comparable,
    database_ids,
    numbers_in,
    refusal,
    start_ids_large,
)
from tests.refit import campaign_states
from tests.refit.campaign_states import standing

pytestmark = pytest.mark.django_db

STATES = ("after_the_initial_scenario", "mid_refit_phase", "after_an_idle_day")
ID_TABLES_WITH_REFIT = (
    *ID_TABLES,
    FortificationPurchase,
    PerimeterState,
    PerimeterUnits,
    MapTerrain,
)
PERSONAS = ("referee", "german", "soviet", "observer")


def export_as(campaign, user):
    return transfer.build_export(viewer_for(user, campaign.pk))


def round_trip(campaign, exporter, importer):
    first = export_as(campaign, exporter)
    imported = transfer.load(transfer.parse_export(transfer.dumps(first)), user=importer)
    return first, imported, export_as(imported, importer)


@pytest.fixture(params=STATES)
def walked(request, campaign, people):
    return getattr(campaign_states, request.param)(campaign, people)


@pytest.mark.parametrize("persona", PERSONAS)
def test_every_export_imports_and_the_copy_stands_where_the_original_stands(
    walked, people, persona
):
    before = standing(walked, people[persona])
    first, imported, second = round_trip(walked, people[persona], people["outsider"])
    assert comparable(second) == comparable(first)
    assert standing(imported, people["outsider"]) == before


def test_mid_refit_phase_the_copy_has_the_same_open_reph_and_marks(campaign, people):
    campaign_states.mid_refit_phase(campaign, people)
    _first, imported, _second = round_trip(campaign, people["referee"], people["outsider"])
    reph = walker.open_reph(imported)
    assert (reph.kind, reph.index, imported.period_index) == ("new_day", 1, 1)
    marks = {(m.side, m.rule) for m in reph.progress.all()}
    assert ("german", "11.618") in marks and ("german", "11.623") not in marks
    original = walker.open_reph(campaign)
    assert {(m.side, m.rule, m.status, m.at) for m in original.progress.all()} == {
        (m.side, m.rule, m.status, m.at) for m in reph.progress.all()
    }
    assert all(m.by is None for m in reph.progress.all())


def test_a_roll_booked_in_the_original_is_booked_in_the_copy(campaign, people):
    # The walker finds a RePh's rolls by time and its bookings by the events' refit step: both
    # must come back, or the copy would offer to book the CPP again.
    campaign_states.mid_refit_phase(campaign, people)
    _first, imported, _second = round_trip(campaign, people["referee"], people["outsider"])
    for copy_ in (campaign, imported):
        reph = walker.open_reph(copy_)
        plan = automatic.plan(copy_, reph, "german", automatic.CPP_TABLE)
        assert plan.refused and plan.unbooked is None
    roll = DiceRoll.objects.get(campaign=imported, table_id=automatic.CPP_TABLE, side="german")
    booking = CampaignEvent.objects.get(campaign=imported, data__refit_step__roll=roll.pk)
    assert booking.data["refit_step"]["reph"] == walker.open_reph(imported).pk


def test_after_an_idle_day_the_copy_counts_it_for_the_elr(campaign, people):
    campaign_states.after_an_idle_day(campaign, people)
    _first, imported, _second = round_trip(campaign, people["referee"], people["outsider"])
    shown = []
    for copy_ in (campaign, imported):
        reph = walker.open_reph(copy_)
        assert (reph.kind, reph.index) == ("new_day", 2)
        shown.append(automatic.plan(copy_, reph, "german", "rf.elr-change").shown())
    assert shown[0] == shown[1]
    assert any("Idle Days" in reason for _value, reason in shown[0])


def test_rolls_with_the_campaigns_drms_carry_their_ids_and_import(campaign, people):
    campaign_states.mid_refit_phase(campaign, people)
    data = export_as(campaign, people["german"])
    (elr,) = [r for r in data["dice_rolls"] if r["table_id"] == "rf.elr-change"]
    assert {
        "value": 1,
        "reason": "Attack chit on the previous CG day",
        "id": "attack-chit",
        "words": {"en": "Attack chit on the previous CG day", "ja": "前のCG日に攻撃チット"},
    } in elr["modifiers"]
    imported = transfer.load(transfer.parse_export(json.dumps(data)), user=people["outsider"])
    roll = DiceRoll.objects.get(campaign=imported, table_id="rf.elr-change")
    assert roll.modifiers == elr["modifiers"]


# --- secrecy -----------------------------------------------------------------------------------


def test_a_secret_steps_marks_go_only_to_its_side(campaign, people):
    campaign_states.mid_refit_phase(campaign, people)
    full = export_as(campaign, people["referee"])["step_marks"]
    soviet = export_as(campaign, people["soviet"])["step_marks"]
    public = export_as(campaign, people["observer"])["step_marks"]
    secret = {("new_day", "11.616"), ("new_day", "11.617")}
    kinds = {p["id"]: p["kind"] for p in export_as(campaign, people["observer"])["refit_phases"]}

    def marked(marks, side):
        return {(kinds[m["reph"]], m["rule"]) for m in marks if m["side"] == side}

    assert secret <= marked(full, "german") and secret <= marked(full, "soviet")
    assert secret <= marked(soviet, "soviet") and not secret & marked(soviet, "german")
    assert not secret & (marked(public, "german") | marked(public, "soviet"))
    # Public steps are everyone's.
    assert ("new_day", "11.618") in marked(public, "german")
    assert len(full) == StepProgress.objects.filter(reph__campaign=campaign).count()


def test_every_reph_is_public(campaign, people):
    campaign_states.mid_refit_phase(campaign, people)
    phases = [export_as(campaign, people[p])["refit_phases"] for p in PERSONAS]
    assert all(p == phases[0] for p in phases)
    assert [(p["kind"], p["index"], p["finished_at"] is None) for p in phases[0]] == [
        ("before_initial", 0, False),
        ("scenario", 0, False),
        ("after_scenario", 0, False),
        ("new_day", 1, True),
    ]


@pytest.fixture
def large_ids(db):
    """Every table's ids start high and apart, so that an id left in a file is seen as one."""
    start_ids_large(ID_TABLES_WITH_REFIT)


def test_the_refit_data_holds_no_database_id(large_ids, people):
    campaign = make_game(people, "red_factories", "rb-cg-1", "german")
    campaign_states.mid_refit_phase(campaign, people)
    for persona in ("referee", "german", "soviet"):
        data = export_as(campaign, people[persona])
        leaked = set(numbers_in(data)) & database_ids(ID_TABLES_WITH_REFIT)
        assert not leaked, (persona, leaked)


# --- crafted files ------------------------------------------------------------------------------


@pytest.fixture
def walked_file(campaign, people):
    campaign_states.mid_refit_phase(campaign, people)
    return export_as(campaign, people["soviet"])


def crafted(data, change):
    data = copy.deepcopy(data)
    change(data)
    return data


def _first_secret_mark(data):
    return next(m for m in data["step_marks"] if m["rule"] == "11.616")


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (
            lambda d: _first_secret_mark(d).update(side="german"),
            "step_marks, entry",
        ),
        (
            lambda d: d["refit_phases"][0].update(finished_at=None),
            "another Refit Phase is open too",
        ),
        (
            lambda d: d["refit_phases"][0].update(kind="daytime"),
            "is not a Refit Phase of this game",
        ),
        (lambda d: d["refit_phases"][0].update(index=99), "is not a day of the calendar"),
        (lambda d: d["refit_phases"][0].update(sequence=0), "must be 1 or more"),
        (
            lambda d: d["refit_phases"][0].update(outcome={"cg_won": "no"}),
            "must be true, false or null",
        ),
        (
            lambda d: d["refit_phases"][0].update(outcome={"cg_won": True, "cg_winner": "axis"}),
            "must be a side of this game, with cg_won true",
        ),
        (
            lambda d: d["refit_phases"][0].update(outcome={"cg_won": False, "cg_winner": "german"}),
            "must be a side of this game, with cg_won true",
        ),
        (lambda d: d["refit_phases"][1].update(id=1), "is used twice"),
        (lambda d: d["step_marks"][0].update(reph=99), "names no Refit Phase of the file"),
        (lambda d: d["step_marks"][0].pop("reph"), "“reph”: is missing"),
        (lambda d: d["step_marks"][0].update(rule="11.623"), "is not a step of this Refit Phase"),
        (lambda d: d["step_marks"][0].update(status="maybe"), "“status”"),
        (lambda d: d["step_marks"].append(dict(d["step_marks"][0])), "another entry has the same"),
        (lambda d: d["step_marks"][0].update(at="yesterday"), "must be a date and time"),
        (lambda d: d.update(refit_phases={}), "must be a list"),
    ],
)
def test_crafted_refit_data_is_refused_naming_where(walked_file, change, words):
    assert words in refusal(crafted(walked_file, change))


def test_a_secret_mark_of_the_other_side_is_refused_in_a_side_file(walked_file):
    message = refusal(crafted(walked_file, lambda d: _first_secret_mark(d).update(side="german")))
    assert message.endswith("“side”: is secret in a file of scope “side:soviet”.")


def test_a_short_game_file_may_not_carry_refit_phases(people, walked_file):
    dr_game = make_game(people, "defiant_russia", "full-game", "axis")
    data = export_as(dr_game, people["referee"])
    assert "refit_phases" not in data and "step_marks" not in data
    data["refit_phases"] = walked_file["refit_phases"]
    assert refusal(data) == "The file's “refit_phases” belongs to another game."


def test_a_file_without_refit_phases_opens_the_first_one(walked_file, people):
    # What a version-1 file did: the copy starts at the campaign game's first RePh.
    data = crafted(walked_file, lambda d: [d.pop(k) for k in ("refit_phases", "step_marks")])
    data = crafted(data, lambda d: [d.pop(k) for k in ("perimeters", "perimeter_units")])
    imported = transfer.load(transfer.parse_export(json.dumps(data)), user=people["outsider"])
    reph = walker.open_reph(imported)
    assert (reph.kind, reph.index) == ("before_initial", 0)


# --- the write ----------------------------------------------------------------------------------


def test_a_failure_in_a_registered_section_writes_nothing(walked_file, people, monkeypatch):
    def refused_by_database(context, rows):
        raise DataError("value too long")

    parsed = transfer.parse_export(json.dumps(walked_file))
    monkeypatch.setitem(
        REGISTRY._sections,
        "step_marks",
        replace(REGISTRY._sections["step_marks"], load=refused_by_database),
    )
    campaigns, rephs = Campaign.objects.count(), RefitPhase.objects.count()
    with pytest.raises(transfer.ImportRefused, match="damaged or not an export"):
        transfer.load(parsed, user=people["outsider"])
    assert (Campaign.objects.count(), RefitPhase.objects.count()) == (campaigns, rephs)


def test_the_write_checks_nothing_it_was_all_checked_before(walked_file, people, monkeypatch):
    # The transaction only inserts: no game data is read, no row checked, once parsed.
    parsed = transfer.parse_export(json.dumps(walked_file))

    def no_checking(*args, **kwargs):
        raise AssertionError("checked while writing")

    for name in ("values", "entries", "reference", "timestamp", "error"):
        monkeypatch.setattr(Checker, name, no_checking)
    monkeypatch.setattr(walker_transfer, "_steps", no_checking)
    for section in list(REGISTRY):
        monkeypatch.setitem(REGISTRY._sections, section.name, replace(section, check=no_checking))
    imported = transfer.load(parsed, user=people["outsider"])
    assert walker.open_reph(imported).kind == "new_day"
