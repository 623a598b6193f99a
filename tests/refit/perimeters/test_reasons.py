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
