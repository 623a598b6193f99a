"""An import checks each history event's data against the shape its sentence was registered
with (campaigns.history.sentences), for every registered action."""

import copy
import json

import pytest

from campaigns.access import viewer_for
from campaigns.history import services as history
from campaigns.history.sentences import INT, INTS, SENTENCES, TEXT, TEXTS
from campaigns.transfer import services as transfer

pytestmark = pytest.mark.django_db

FITS = {TEXT: "german", INT: 1, TEXTS: ["G5"], INTS: [3, 4]}
WRONG = {TEXT: 5, INT: "5", TEXTS: [5], INTS: ["5"]}


@pytest.fixture
def exported(campaign, people):
    return transfer.build_export(viewer_for(people["referee"], campaign.pk))


def with_event(exported, action, data):
    """The file with one more public event; and that event's entry number."""
    file = copy.deepcopy(exported)
    file["history"].append({"action": action, "visibility": "public", "data": data})
    return file, len(file["history"])


def test_every_registered_shape_refuses_a_value_of_another_kind(exported):
    checked = 0
    for action in sorted(SENTENCES.actions()):
        for key, kind in SENTENCES.data_shape(action).items():
            file, number = with_event(exported, action, {key: WRONG[kind]})
            with pytest.raises(transfer.ImportRefused) as refused:
                transfer.parse_export(json.dumps(file).encode())
            assert str(refused.value).startswith(f"history, entry {number}, “data.{key}”: must")
            checked += 1
    assert checked >= len(SENTENCES.actions())


@pytest.mark.parametrize(
    ("action", "data", "words"),
    [
        # Actions whose data shapes were not checked on import before they were registered.
        ("rg.purchased", {"side": ["german"]}, "“data.side”: must be text."),
        ("perimeter.escape", {"outcome": ["eliminated"]}, "“data.outcome”: must be text."),
        ("perimeter.units", {"hexes": "G5 G6"}, "“data.hexes”: must be a list of texts."),
        ("unit.arrived", {"index": "2"}, "“data.index”: must be a whole number."),
    ],
)
def test_a_wrong_type_is_refused_naming_the_key(exported, action, data, words):
    file, number = with_event(exported, action, data)
    with pytest.raises(transfer.ImportRefused) as refused:
        transfer.parse_export(json.dumps(file).encode())
    assert str(refused.value) == f"history, entry {number}, {words}"


def test_events_of_every_action_with_data_of_the_right_kinds_import_and_read(exported, people):
    file = copy.deepcopy(exported)
    for action in sorted(SENTENCES.actions()):
        data = {key: FITS[kind] for key, kind in SENTENCES.data_shape(action).items()}
        file["history"].append({"action": action, "visibility": "public", "data": data})
    parsed = transfer.parse_export(json.dumps(file).encode())
    events = transfer.load(parsed, user=people["soviet"]).events.all()
    assert {event.action for event in events} >= SENTENCES.actions()
    for event in events:
        assert history.describe(event) != event.action
