"""refit.perimeters.reasons: a marker's refusals and a result's warnings in words."""

from django.utils import translation

from campaigns.games.rules import Reason
from refit.perimeters.reasons import reason_text
from tests.refit.rules.perimeter.example_6066 import MAP, h


def test_a_refusal_names_its_hex_and_places_its_rule():
    reason = Reason("overlaps", "11.6054", {"hex": h("H43")})
    with translation.override("en"):
        assert reason_text(MAP, reason) == (
            "The hexrow overlaps another friendly hexrow in H43 (11.6054)."
        )


def test_a_warning_lists_its_hexes_by_name():
    reason = Reason("strategic_outside", "11.6051", {"hexes": [h("H41"), h("G42")]})
    with translation.override("en"):
        assert reason_text(MAP, reason) == (
            "Strategic Locations outside both Perimeter Areas keep their control: H41, G42 "
            "(11.6051). The perimeters are probably not as large as they may be."
        )


def test_a_refusal_reads_in_japanese():
    with translation.override("ja"):
        assert reason_text(MAP, Reason("not_closed", "11.6054")) == (
            "まだ閉じたループの一部ではありません (11.6054)。"
        )


def test_a_long_list_names_the_first_twelve_and_counts():
    cells = MAP.sorted(MAP.cells)
    names = [MAP.name(c) for c in cells]
    with translation.override("en"):
        twelve = reason_text(MAP, Reason("strategic_outside", "11.6051", {"hexes": cells[:12]}))
        assert ", ".join(names[:12]) + " (11.6051)" in twelve and "in all" not in twelve
        many = reason_text(MAP, Reason("strategic_outside", "11.6051", {"hexes": cells[:13]}))
        assert ", ".join(names[:12]) + " … (13 hexes in all) (11.6051)" in many
        assert names[12] not in many.split("…")[0]
    with translation.override("ja"):
        many = reason_text(MAP, Reason("strategic_outside", "11.6051", {"hexes": cells[:13]}))
        assert "全 13 ヘクス" in many
