"""Reading a Historical DRM chart typed or pasted from a printed table (pure, no database)."""

import pytest

from campaigns.histdrm.chart import (
    LIMIT,
    ChartError,
    day_aliases,
    normalize,
    parse_chart,
    read_value,
)

# RB CG I's calendar: 17–29 Oct 1942, labelled as the app labels them.
DAYS = [
    day_aliases(f"1942-10-{day}", [f"{day} Oct 1942", f"1942年10月{day}日"])
    for day in range(17, 30)
]
SIDES = {
    "german": {normalize(name) for name in ("german", "German", "ドイツ軍")},
    "soviet": {normalize(name) for name in ("soviet", "Soviet", "ソ連軍")},
}
BOTH = ["german", "soviet"]


def parse(text, editable=BOTH):
    return parse_chart(text, DAYS, SIDES, editable)


# --- one value -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "cell, value",
    [
        ("-2", -2),
        ("+1", 1),
        ("0", 0),
        ("±0", 0),
        ("+0", 0),
        ("\u22122", -2),  # the minus the rules print
        ("\u20133", -3),  # an en dash typed for a minus
        ("＋１", 1),  # full-width, as typed on a Japanese keyboard
        ("−０２", -2),
        (" 3 ", 3),
        ("?", None),
        ("？", None),
        ("", None),
        (str(LIMIT), LIMIT),
        (f"-{LIMIT}", -LIMIT),
    ],
)
def test_a_cell_reads_as_the_chart_prints_it(cell, value):
    assert read_value(cell) == (value, "")


@pytest.mark.parametrize(
    "cell, problem",
    [
        ("x", "not_a_value"),
        ("-", "not_a_value"),  # a dash: 0 or unknown? the user says which
        ("—", "not_a_value"),
        ("1.5", "not_a_value"),
        ("+-1", "not_a_value"),
        ("±1", "not_a_value"),
        ("2 3", "not_a_value"),
        (str(LIMIT + 1), "out_of_range"),
        (f"-{LIMIT + 1}", "out_of_range"),
        ("100", "out_of_range"),
    ],
)
def test_a_cell_that_is_no_drm_is_refused_with_its_reason(cell, problem):
    assert read_value(cell) == (None, problem)


# --- the days ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "written",
    [
        "10/18",
        "10/18/1942",
        "18 Oct",
        "18 Oct 1942",
        "18 oct. 1942",
        "Oct 18",
        "October 18, 1942",
        "18 October",
        "1942-10-18",
        "1942/10/18",
        "10月18日",
        "１０月１８日",
        "1942年10月18日",
    ],
)
def test_a_day_is_found_however_a_table_writes_it(written):
    assert parse(f"{written} -2 0").values == {(1, "german"): -2, (1, "soviet"): 0}


def test_leading_zeros_of_a_date_do_not_matter():
    days = [day_aliases("1942-11-02", ["2 Nov 1942"])]
    assert parse_chart("11/02 1 1\n", days, SIDES, BOTH).values == {
        (0, "german"): 1,
        (0, "soviet"): 1,
    }


def test_a_day_that_is_not_a_date_is_found_by_its_label():
    days = [day_aliases("am-1", ["5 Jul AM"]), day_aliases("pm-1", ["5 Jul PM"])]
    assert parse_chart("5 Jul PM 1 2", days, SIDES, BOTH).values == {
        (1, "german"): 1,
        (1, "soviet"): 2,
    }


# --- whole charts --------------------------------------------------------------------------


def test_a_chart_typed_one_line_per_day():
    parsed = parse("10/17 ? ?\n10/18 -2 +1\n\n# a comment\n10/19 0 -1\n")
    assert parsed.errors == ()
    assert parsed.values == {
        (0, "german"): None,
        (0, "soviet"): None,
        (1, "german"): -2,
        (1, "soviet"): 1,
        (2, "german"): 0,
        (2, "soviet"): -1,
    }
    assert parsed.lines == {0: 1, 1: 2, 2: 5}


def test_a_chart_pasted_from_a_spreadsheet_with_empty_cells_and_trailing_columns():
    text = "Date\tGerman\tSoviet\r\n17 Oct 1942\t\t\r\n18 Oct 1942\t-2\t+1\t\t\r\n"
    parsed = parse(text)
    assert parsed.errors == ()
    assert parsed.values == {
        (0, "german"): None,
        (0, "soviet"): None,
        (1, "german"): -2,
        (1, "soviet"): 1,
    }


def test_a_header_naming_the_sides_sets_the_order_of_the_columns():
    parsed = parse("ソ連軍 ドイツ軍\n10/18 +1 -2\n")
    assert parsed.values == {(1, "soviet"): 1, (1, "german"): -2}


def test_a_header_without_a_day_column_title_works_too():
    assert parse("\tSoviet\tGerman\n10/18\t1\t2").values == {(1, "soviet"): 1, (1, "german"): 2}


def test_a_user_who_sets_one_side_types_one_value_per_day():
    assert parse("10/18 -2\n", editable=["german"]).values == {(1, "german"): -2}


def test_an_empty_paste_reads_nothing():
    assert parse("  \n\n").values == {}
    assert parse("").errors == ()


# --- every error, named by line and cell ---------------------------------------------------


def test_a_day_not_in_the_calendar_is_named():
    assert parse("10/17 0 0\n11/31 1 1\n").errors == (
        ChartError(2, "no_day", "", {"day": "11/31"}),
    )


def test_a_line_without_any_day_is_named():
    assert parse("-2 +1\n").errors == (ChartError(1, "no_day", "", {"day": "-2"}),)


def test_a_day_given_twice_is_named_with_the_first_line():
    assert parse("10/18 0 0\n18 Oct -1 0\n").errors == (
        ChartError(2, "repeated_day", "", {"day": "18 Oct", "first": 1}),
    )


@pytest.mark.parametrize(
    "line, found",
    [("10/18 -2", 1), ("10/18 -2 0 1", 3), ("10/18", 0), ("10/18\t-2", 1)],
)
def test_a_line_with_too_few_or_too_many_values_is_named(line, found):
    assert parse(line).errors == (
        ChartError(1, "cell_count", "", {"day": "10/18", "expected": 2, "found": found}),
    )


def test_a_bad_value_is_named_by_line_and_side():
    errors = parse("10/17 0 0\n10/18 x 12\n").errors
    assert errors == (
        ChartError(2, "not_a_value", "german", {"value": "x", "day": "10/18", "limit": LIMIT}),
        ChartError(2, "out_of_range", "soviet", {"value": "12", "day": "10/18", "limit": LIMIT}),
    )


def test_a_header_naming_a_side_the_user_may_not_set_is_refused():
    parsed = parse("German Soviet\n10/18 -2 1\n", editable=["german"])
    assert parsed.errors == (ChartError(1, "side_not_editable", "soviet"),)
    assert (1, "soviet") not in parsed.values


def test_every_error_is_reported_not_only_the_first():
    parsed = parse("10/40 0 0\n10/18 ? ?\n10/18 0 0\n10/19 0\n10/20 + 0\n")
    assert [(e.line, e.code) for e in parsed.errors] == [
        (1, "no_day"),
        (3, "repeated_day"),
        (4, "cell_count"),
        (5, "not_a_value"),
    ]
