"""The reportlab renderer: fonts, pages, "page X of Y", and long campaigns that still fit."""

import io
import shutil
import subprocess

import pytest
from pypdf import PdfReader
from reportlab.platypus import Table as PdfTable

from campaigns.access import viewer_for
from rosters import pdf
from rosters.builders import build_sheet
from rosters.pdf import SheetRenderer, SheetTable, fit_widths, render_pdf, sheet_font
from rosters.sheets import Column, Row, Sheet, Table
from tests.rosters.conftest import BIG_LINES, BIG_RGS

pytestmark = pytest.mark.django_db


def plain_text(data: bytes) -> str:
    """The text of every page (poppler's pdftotext when present: ten times faster than pypdf
    on a 20-page sheet)."""
    if shutil.which("pdftotext"):
        return subprocess.run(
            ["pdftotext", "-", "-"], input=data, capture_output=True, check=True
        ).stdout.decode()
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def text_of(data: bytes) -> str:
    """The text as laid out on the page, runs of spaces made one (slower than plain_text)."""
    reader = PdfReader(io.BytesIO(data))
    return "\n".join(
        " ".join(line.split())
        for page in reader.pages
        for line in page.extract_text(extraction_mode="layout").splitlines()
    )


def pages_of(data: bytes) -> int:
    return len(PdfReader(io.BytesIO(data)).pages)


def pdffonts(data: bytes, tmp_path) -> list[list[str]]:
    if shutil.which("pdffonts") is None:
        pytest.skip("pdffonts (poppler-utils) is not installed")
    path = tmp_path / "sheet.pdf"
    path.write_bytes(data)
    output = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True)
    return [line.split() for line in output.stdout.splitlines()[2:]]


def german(people, campaign, slug, language="en"):
    return build_sheet(viewer_for(people["german"], campaign.pk), "german", slug, language)


# --- fonts ---------------------------------------------------------------------------------


def test_the_japanese_sheet_embeds_a_subset_of_a_cjk_truetype_font(seeded, people, tmp_path):
    if not any(pdf.Path(path).is_file() for path in pdf.FONT_CANDIDATES):
        pytest.skip("no Japanese TrueType font installed (scripts/system-deps.sh installs one)")
    fonts = pdffonts(render_pdf(german(people, seeded, "roster", "ja")), tmp_path)
    assert fonts, "no font in the PDF"
    for name, kind, *_rest, emb, sub, uni, _obj, _gen in fonts:
        assert kind == "TrueType"
        assert (emb, sub, uni) == ("yes", "yes", "yes"), name
        assert "+" in name  # a subset's name carries a tag: AAAAAA+IPAexGothic


def test_without_a_truetype_font_the_built_in_cid_font_is_used(seeded, people, tmp_path):
    font = sheet_font(("/nonexistent/font.ttf",))
    assert font == "HeiseiKakuGo-W5"
    data = SheetRenderer("a4", font=font).render(german(people, seeded, "roster", "ja"))
    fonts = pdffonts(data, tmp_path)
    assert [row[0] for row in fonts] == ["HeiseiKakuGo-W5"]
    assert "1942年10月17日" in text_of(data)  # a date stays on one line


# --- pages ---------------------------------------------------------------------------------


def test_every_page_says_page_x_of_y_and_names_the_campaign_side_date_and_data(big, people):
    data = render_pdf(german(people, big, "rg-record"))
    pages = pages_of(data)
    assert pages >= 3
    reader = PdfReader(io.BytesIO(data))
    for number, page in enumerate(reader.pages, start=1):
        text = " ".join(page.extract_text().split())
        assert f"page {number} of {pages}" in text
        assert "The Barrikady, long haul · German · 15 Nov 1942 · game data v" in text
        # The header rows repeat on every page.
        assert "Leaders received" in text


def test_pdftoppm_renders_every_page(big, people, tmp_path):
    if shutil.which("pdftoppm") is None:
        pytest.skip("pdftoppm (poppler-utils) is not installed")
    data = render_pdf(german(people, big, "orbat"), "letter")
    path = tmp_path / "orbat.pdf"
    path.write_bytes(data)
    subprocess.run(["pdftoppm", "-r", "20", "-png", str(path), str(tmp_path / "page")], check=True)
    images = sorted(tmp_path.glob("page-*.png"))
    assert len(images) == pages_of(data) > 1
    assert all(image.stat().st_size > 500 for image in images)


# --- long campaigns fit --------------------------------------------------------------------


def tables_of(renderer: SheetRenderer, sheet: Sheet) -> list[SheetTable]:
    return [flowable for flowable in renderer.story(sheet) if isinstance(flowable, SheetTable)]


def facts_of(renderer: SheetRenderer, sheet: Sheet) -> list[PdfTable]:
    return [flowable for flowable in renderer.story(sheet) if isinstance(flowable, PdfTable)]


def test_a_30_day_200_rg_campaign_keeps_every_table_inside_the_frame(big, people):
    for slug in ("roster", "rg-record", "orbat", "summary", "blank-roster"):
        sheet = german(people, big, slug)
        for paper in ("a4", "letter"):
            renderer = SheetRenderer(paper)
            tables = tables_of(renderer, sheet)
            assert tables
            for table in tables:
                assert sum(table.widths) <= renderer.frame_width + 0.01, (slug, paper)
                assert sum(table.head._colWidths) == pytest.approx(sum(table.widths))
            for table in facts_of(renderer, sheet):
                assert sum(table._colWidths) <= renderer.frame_width + 0.01, (slug, paper)


def test_a_30_day_200_rg_campaign_prints_every_row(big, people):
    roster_text = plain_text(render_pdf(german(people, big, "roster")))
    for day in ["17 Oct 1942", "31 Oct 1942", "1 Nov 1942", "15 Nov 1942"]:
        assert day in roster_text
    record = plain_text(render_pdf(german(people, big, "rg-record")))
    for n in range(BIG_RGS):
        assert f"mark-{n:03d}" in record
    divider = plain_text(render_pdf(german(people, big, "orbat")))
    for n in range(BIG_LINES):
        assert f"line-{n:03d}" in divider


def test_long_text_wraps_inside_its_cell_instead_of_widening_the_table(big, people):
    renderer = SheetRenderer("a4")
    sheet = german(people, big, "rg-record")
    table = tables_of(renderer, sheet)[-1]  # the RGs (the facts are not a SheetTable)
    assert table.wrap(renderer.frame_width, 10_000)[0] <= renderer.frame_width + 0.01
    # The long "other" note wraps onto more lines: the row grows taller, not wider.
    assert max(table.row_heights) > 1.5 * min(table.row_heights)


def test_a_sheet_of_many_columns_still_fits_with_wrapped_headings():
    columns = tuple(Column(f"Heading number {n}", width=1.0) for n in range(40))
    sheet = Sheet(
        kind="test",
        title="Wide",
        campaign="c",
        campaign_game="g",
        side="s",
        date="d",
        data_version="1",
        language="en",
        tables=(Table(columns=columns, rows=(Row(cells=tuple(str(n) for n in range(40))),)),),
    )
    renderer = SheetRenderer("a4")
    (table,) = tables_of(renderer, sheet)
    assert sum(table.widths) == pytest.approx(renderer.frame_width)
    assert pages_of(renderer.render(sheet)) == 1


def roster_like(numbers: list[str]) -> Sheet:
    """A roster's shape: a wide text column and narrow numeric ones of short headings."""
    columns = (Column("Day", width=2.0), Column("Purchased", width=12.0)) + tuple(
        Column(f"N{n}", width=0.3, numeric=True) for n in range(6)
    )
    return Sheet(
        kind="test",
        title="Roster",
        campaign="c",
        campaign_game="g",
        side="s",
        date="d",
        data_version="1",
        language="en",
        tables=(
            Table(
                columns=columns,
                rows=tuple(
                    Row(cells=(f"day-{n}", "I1 (5) ×42", *(number,) * 6))
                    for n, number in enumerate(numbers)
                ),
            ),
        ),
    )


def test_a_column_of_numbers_is_as_wide_as_its_widest_number():
    """A five-digit CPP never breaks inside its digits (the bench's huge roster printed "1002"
    over "0" and ran onto a second page); columns of short numbers stay narrow."""
    renderer = SheetRenderer("a4")
    short, wide = roster_like(["7"] * 30), roster_like(["7"] * 29 + ["18135"])
    (narrow,) = tables_of(renderer, short)
    (fitted,) = tables_of(renderer, wide)
    digits = renderer.text_width("18135", renderer.styles(wide).cell.fontSize)
    assert all(width < digits for width in narrow.widths[2:])
    assert all(width >= digits + 2 * pdf.CELL_PADDING for width in fitted.widths[2:])
    assert fitted.row_heights == narrow.row_heights  # every row one line, as before
    data = render_pdf(wide)
    assert pages_of(data) == 1
    assert plain_text(data).count("18135") == 6


def long_sheet(rows: int, language: str = "en") -> Sheet:
    columns = (Column("Label"), Column("Amount", numeric=True), Column("Note", width=3.0))
    return Sheet(
        kind="test",
        title="Long",
        campaign="c",
        campaign_game="g",
        side="s",
        date="d",
        data_version="1",
        language=language,
        tables=(
            Table(
                columns=columns,
                rows=tuple(
                    Row(cells=(f"row-{n:03d}", str(n), "a long note that wraps " * (n % 3 * 8)))
                    for n in range(rows)
                ),
            ),
        ),
    )


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_table_over_many_pages_repeats_its_header_and_prints_every_row(language):
    data = SheetRenderer("a4").render(long_sheet(150, language))
    pages = [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]
    assert len(pages) > 3
    assert all("Label" in page and "Amount" in page and "Note" in page for page in pages)
    text = "\n".join(pages)
    assert all(f"row-{n:03d}" in text for n in range(150))
    # Each row on one page only: a row is never cut in two.
    assert sum(page.count("row-") for page in pages) == 150


def test_a_table_breaks_between_rows_and_not_before_its_first_row():
    renderer = SheetRenderer("a4")
    (table,) = tables_of(renderer, long_sheet(6))
    width = renderer.frame_width
    first, second = table.row_heights[:2]
    assert second > first  # the second row's note wraps
    head = table.head_height
    assert table.split(width, head + first / 2) == []
    top, rest = table.split(width, head + first + second - 0.5)
    assert top.row_heights == [first] and len(rest.row_heights) == 5
    assert top.head is rest.head is table.head  # the header drawn again above the rest
    assert top.wrap(width, 0) == (table.width, head + first)


@pytest.mark.parametrize("repeat", [1, 40])
def test_a_title_is_one_line_when_it_fits_and_wraps_when_it_does_not(repeat):
    renderer = SheetRenderer("a4")
    title = "<b>Kessel</b> & co " * repeat
    sheet = Sheet(
        kind="test",
        title=title,
        campaign="c",
        campaign_game="g",
        side="s",
        date="d",
        data_version="1",
        language="en",
    )
    line = renderer.story(sheet)[0]
    width, height = line.wrap(renderer.frame_width, 1_000)
    assert width <= renderer.frame_width
    style = renderer.styles(sheet).title
    assert (height == style.leading) == (repeat == 1)  # several lines when it wraps
    text = " ".join(PdfReader(io.BytesIO(renderer.render(sheet))).pages[0].extract_text().split())
    assert "<b>Kessel</b> & co" in text  # user text drawn as it is, never as markup


# --- column widths (plain arithmetic) -------------------------------------------------------


def test_widths_follow_the_weights_when_every_minimum_fits():
    assert fit_widths([1, 3], [10, 10], 400) == [100, 300]


def test_a_column_below_its_minimum_gets_it_and_the_others_share_the_rest():
    assert fit_widths([1, 1, 2], [150, 10, 10], 400) == [150, pytest.approx(250 / 3), 500 / 3]


def test_minimums_too_wide_for_the_page_are_scaled_down_to_fit():
    widths = fit_widths([1, 1], [300, 500], 400)
    assert widths == [150, 250]
    assert sum(widths) == 400


# --- the shortcuts must draw what reportlab would ---------------------------------------------


def drawn(flowable, width: float) -> bytes:
    """The page content a flowable draws, wrapped at ``width``, on a canvas of its own."""
    from reportlab.pdfgen.canvas import Canvas

    canvas = Canvas(io.BytesIO(), invariant=1)
    flowable.wrapOn(canvas, width, 1_000)
    flowable.drawOn(canvas, 10, 10)
    return canvas.getpdfdata()


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize(
    "text",
    [
        "I2 (5), J1 (4), K3 (12), L1 (7)",
        "  two   spaces and    more  ",
        "第１７戦車師団の増援グループ、補充と偵察",
        "a & b <i>not markup</i> > c",  # parsed: markup characters
        "no\u00a0break\u00a0here and there",  # parsed: reportlab keeps U+00A0 inside words
        "全角\u3000空白\u3000の\u3000テキスト",  # parsed: U+3000 is reportlab's whitespace
        "a line\nand the next",  # parsed: a newline
        "x",
    ],
)
def test_a_plain_paragraph_lays_out_and_draws_as_the_parsed_one(text, language):
    from xml.sax.saxutils import escape

    from reportlab.platypus import Paragraph

    renderer = SheetRenderer("a4")
    styles = renderer.styles(long_sheet(1, language))
    for style in (styles.cell, styles.number, styles.head):
        for width in (30, 60, 400):
            quick = renderer.paragraph(text, style)
            parsed = Paragraph(escape(text), style)
            assert drawn(quick, width) == drawn(parsed, width), (style.name, width)
            assert quick.height == parsed.height


def test_the_parser_is_skipped_only_for_text_it_would_not_change(monkeypatch):
    from reportlab.platypus import paraparser

    parsed = []
    original = paraparser.ParaParser.parse
    monkeypatch.setattr(
        paraparser.ParaParser,
        "parse",
        lambda self, text, style: parsed.append(text) or original(self, text, style),
    )
    renderer = SheetRenderer("a4")
    style = renderer.styles(long_sheet(1)).cell
    renderer.paragraph("I2 (5), J1 (4)", style)  # the style's fragment: parsed once ("x")
    renderer.paragraph("K3 (12)", style)
    assert parsed == ["x"]
    renderer.paragraph("a & b", style)
    assert parsed == ["x", "a &amp; b"]


def test_a_header_laid_out_for_one_render_serves_the_next_in_its_language():
    renderer = SheetRenderer("a4")
    english = long_sheet(3, "en")
    first = tables_of(renderer, english)[0].head
    assert tables_of(SheetRenderer("a4"), english)[0].head is first  # kept for the thread
    japanese = Sheet(
        **{
            **english.__dict__,
            "language": "ja",
            "tables": (
                Table(
                    columns=(Column("ラベル"), Column("数", numeric=True), Column("備考")),
                    rows=english.tables[0].rows,
                ),
            ),
        }
    )
    other = tables_of(SheetRenderer("a4"), japanese)[0].head
    assert other is not first
    for data, words in ((render_pdf(japanese), "ラベル"), (render_pdf(english), "Label")):
        assert all(words in page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def test_a_heading_kept_with_its_table_moves_to_the_next_page_with_it():
    """The OB sheet's boxes: a title and its table go to the next page together when they do
    not fit below the previous box (reportlab's keepWithNext, laid out as before)."""
    boxes = tuple(
        Table(
            columns=(Column("Unit"), Column("Quantity", numeric=True)),
            rows=tuple(Row(cells=(f"box{box}-unit{n}", str(n))) for n in range(7)),
            title=f"Box {box}",
        )
        for box in range(40)
    )
    sheet = Sheet(**{**long_sheet(1).__dict__, "tables": boxes})
    pages = [p.extract_text() for p in PdfReader(io.BytesIO(render_pdf(sheet))).pages]
    assert len(pages) > 3
    for box in range(40):
        (page,) = [text for text in pages if f"Box {box}\n" in text or f"Box {box} " in text]
        assert all(f"box{box}-unit{n}" in page for n in range(7))


def placed_text(data: bytes) -> list[tuple[str, float, float]]:
    """Each piece of text a page shows, with where it starts on the page (pypdf's text matrix
    times the current transformation: a Paragraph draws in a translated space, the header's
    lines in the table's own)."""
    found = []

    def visit(text, cm, tm, _font, _size):
        if text.strip():
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            found.append((text.strip(), round(x, 2), round(y, 2)))

    PdfReader(io.BytesIO(data)).pages[0].extract_text(visitor_text=visit)
    return sorted(found)


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_header_is_drawn_where_reportlab_draws_its_table(language, monkeypatch):
    """The header's cells drawn as lines of one text object land exactly where reportlab's
    Table draws their Paragraphs: grouped headings spanning columns and rows, headings that
    wrap onto two and three lines, en and ja; drawn again from what the first draw kept."""
    renderer = SheetRenderer("a4")
    sheet = roster_like(["7"] * 3)
    columns = (
        Column("CG day", width=2.0),
        Column("Start", "CPP", 0.5, True),
        Column("RG purchased", "CPP", 0.6),
        Column("Spent a great many points", "CPP", 0.4, True),
        Column("Available", "FPP", 0.5, True),
        Column("初期編制の増援グループ", width=0.5),
        Column("Initiative chit", width=1.0),
    )
    table = Table(columns=columns, rows=(Row(cells=("1",) * len(columns)),))
    sheet = Sheet(**{**sheet.__dict__, "language": language, "tables": (table,)})
    styles = renderer.styles(sheet)
    widths = renderer.column_widths(table, styles)
    pdf._kept_heads().clear()
    ours = renderer._head(table, styles, widths)
    assert isinstance(ours, pdf._HeadTable)
    monkeypatch.setattr(pdf, "_HeadTable", PdfTable)
    pdf._kept_heads().clear()
    theirs = renderer._head(table, styles, widths)
    assert type(theirs) is PdfTable
    expected = placed_text(drawn(theirs, sum(widths)))
    assert len(expected) >= len(columns) + 2  # the groups, and lines of wrapped headings
    assert placed_text(drawn(ours, sum(widths))) == expected
    assert placed_text(drawn(ours, sum(widths))) == expected  # drawn again from what it kept
    pdf._kept_heads().clear()
