"""The registry of export sections and row references (campaigns.transfer.sections)."""

import pytest

from campaigns.models import CampaignEvent, DiceRoll, LedgerEntry, ReinforcementGroup
from campaigns.transfer.sections import (
    DROP,
    EACH,
    DuplicateSection,
    FileIds,
    Registry,
    drop_ids,
    file_to_ids,
    ids_to_file,
    rewrite,
)


def nothing(*args):
    return None


def test_a_section_key_is_registered_once_and_never_one_the_core_writes():
    registry = Registry(reserved=("ledger",))
    registry.register_section("walk", models=(), export=nothing, check=nothing, load=nothing)
    with pytest.raises(DuplicateSection):
        registry.register_section("walk", models=(), export=nothing, check=nothing, load=nothing)
    with pytest.raises(DuplicateSection):
        registry.register_section("ledger", models=(), export=nothing, check=nothing, load=nothing)
    assert registry.names() == ("walk",)


def test_a_reference_names_a_real_column():
    registry = Registry()
    with pytest.raises(Exception, match="no field named"):
        registry.register_reference(ReinforcementGroup, "detials", ("x",), LedgerEntry)
    registry.register_reference(ReinforcementGroup, "details", ("x",), LedgerEntry)
    registry.register_reference(ReinforcementGroup, "details", ("x",), LedgerEntry)  # once
    assert len(registry.references(ReinforcementGroup, "details")) == 1
    assert registry.references(CampaignEvent, "data") == []


def test_rewrite_follows_the_path_and_leaves_other_shapes_alone():
    def double(value):
        return value * 2

    assert rewrite({"a": {"b": 3, "c": 1}}, ("a", "b"), double) == {"a": {"b": 6, "c": 1}}
    assert rewrite({"a": [{"b": 1}, {"b": 2}, "x"]}, ("a", EACH, "b"), double) == {
        "a": [{"b": 2}, {"b": 4}, "x"]
    }
    assert rewrite({"a": "not an object"}, ("a", "b"), double) == {"a": "not an object"}
    assert rewrite({"b": 1}, ("a", "b"), double) == {"b": 1}
    assert rewrite({"a": [1, 2, 3]}, ("a", EACH), lambda v: DROP if v == 2 else v) == {"a": [1, 3]}
    # A dropped key goes; the others keep their order.
    assert list(rewrite({"x": 0, "a": 1, "z": 2}, ("a",), lambda v: DROP)) == ["x", "z"]


def test_ids_become_file_ids_and_back():
    registry = Registry()
    registry.register_reference(CampaignEvent, "data", ("step", "roll"), DiceRoll)
    registry.register_reference(CampaignEvent, "data", ("rows", EACH), LedgerEntry)
    references = registry.references(CampaignEvent, "data")
    ids = FileIds()
    ids.number(DiceRoll, [701, 702])
    ids.number(LedgerEntry, [900])
    data = {"step": {"roll": 702, "rule": "11.616"}, "rows": [900, 901], "note": 702}
    written = ids_to_file(data, references, ids)
    assert written == {"step": {"roll": 2, "rule": "11.616"}, "rows": [1], "note": 702}

    class Row:
        def __init__(self, pk):
            self.pk = pk

    made = {(DiceRoll, 2): Row(55), (LedgerEntry, 1): Row(66)}
    read = file_to_ids(written, references, lambda model, ref: made.get((model, ref)))
    assert read == {"step": {"roll": 55, "rule": "11.616"}, "rows": [66], "note": 702}
    # A file id naming no row of the file, or of another shape, is left out.
    crafted = {"step": {"roll": [2]}, "rows": [7, "x"]}
    assert file_to_ids(crafted, references, lambda model, ref: None) == {
        "step": {},
        "rows": [],
    }
    assert drop_ids(data, references) == {"step": {"rule": "11.616"}, "rows": [], "note": 702}


@pytest.mark.parametrize("seed", range(20))
def test_file_ids_kept_as_an_array_are_the_dicts_numbering(seed):
    import random

    rng = random.Random(seed)
    pks = rng.sample(range(1, 500), rng.randrange(0, 60))
    if seed % 2:
        pks.sort()  # rising: kept as an array alone
        if pks and seed % 4 == 1:
            pks.append(pks[0] - 1 if pks[0] > 1 else 1000)  # then one out of order
    numbered = FileIds().number(DiceRoll, pks)
    expected = {pk: ref for ref, pk in enumerate(pks, start=1)}
    assert dict(numbered) == expected and len(numbered) == len(expected)
    assert list(numbered) == list(expected)
    assert max(numbered, default=0) == max(expected, default=0)
    for probe in [*range(0, 510, 7), None, "3", 2.0, True]:
        assert numbered.get(probe) == expected.get(probe)


@pytest.mark.django_db
@pytest.mark.parametrize("seed", range(6))
def test_file_ids_numbered_by_the_database_are_the_file_order(campaign, seed):
    """``FileIds.number_rows``: ROW_NUMBER() over the queryset's own ordering, read back by
    database id, gives each row the file id its place in that ordering gives it, whatever the
    order of the ids (the OB's ordering, with a related column and nulls first, included)."""
    import random

    from django.db.models import F

    from campaigns.models import OrbatEntry

    rng = random.Random(seed)
    LedgerEntry.objects.bulk_create(
        LedgerEntry(
            campaign=campaign,
            side=rng.choice(("german", "soviet")),
            ledger=rng.choice(("cpp", "fpp")),
            index=rng.randrange(5),
            kind="replenishment",
            amount=1,
        )
        for _ in range(rng.randrange(0, 40))
    )
    rows = LedgerEntry.objects.filter(campaign=campaign).order_by("side", "ledger", "index", "id")
    numbered = FileIds().number_rows(LedgerEntry, rows)
    expected = {pk: ref for ref, pk in enumerate(rows.values_list("id", flat=True), start=1)}
    assert dict(numbered) == expected and len(numbered) == len(expected)
    assert max(numbered, default=0) == max(expected, default=0)
    for probe in [*expected, 0, max(expected, default=0) + 1, None, "3"]:
        assert numbered.get(probe) == expected.get(probe)
    orbat = OrbatEntry.objects.filter(campaign=campaign).order_by(
        "side", "box", F("group__side").asc(nulls_first=True), "group__index", "group_id", "id"
    )
    expected = {pk: ref for ref, pk in enumerate(orbat.values_list("id", flat=True), start=1)}
    assert len(expected) > 0
    assert dict(FileIds().number_rows(OrbatEntry, orbat)) == expected


def test_file_ids_by_database_id_need_rising_ids():
    from campaigns.transfer.sections import Numbered

    assert dict(Numbered.by_id([(3, 2), (7, 1)])) == {3: 2, 7: 1}
    with pytest.raises(ValueError, match="rise"):
        Numbered.by_id([(7, 1), (3, 2)])
