"""Draw a Sheet as a landscape PDF with reportlab's platypus.

Each table repeats its header rows on every page and breaks only between rows; its columns are
sized to the frame (never wider), each at least as wide as the longest word of its heading, and
long cell text wraps. Every page carries "page X of Y" and a footer naming the campaign, the
side, the campaign's date, the game data version and when it was printed.

Japanese needs a CJK font: the first TrueType font found in FONT_CANDIDATES is embedded (as a
subset, reportlab's default for TrueType); without one, reportlab's built-in HeiseiKakuGo-W5
CID font is used (not embedded: the PDF viewer supplies it). Every string is escaped before it
becomes a Paragraph, so user text (campaign names, notes) cannot inject markup.
"""

from __future__ import annotations

import functools
import io
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

from django.utils import timezone, translation
from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.pagesizes import A4, LETTER, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfbase.ttfonts import TTFError, TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    Flowable,
    KeepTogether,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)
from reportlab.platypus.flowables import _listWrapOn
from reportlab.platypus.paragraph import _wsc

from rosters import sheets

PAPERS = {"a4": A4, "letter": LETTER}

# Where Debian's fonts-ipaexfont-gothic puts the font (it moved between releases), then the
# alternatives link Debian keeps for "a Japanese gothic font".
FONT_CANDIDATES = (
    "/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf",
    "/usr/share/fonts/truetype/ipaexfont-gothic/ipaexg.ttf",
    "/usr/share/fonts/truetype/fonts-japanese-gothic.ttf",
)
TRUETYPE_NAME = "SheetGothic"
CID_FALLBACK = "HeiseiKakuGo-W5"

MARGIN = 12 * mm
FOOTER_SPACE = 8 * mm
CELL_PADDING = 2
BODY_SIZE = 7
BLANK_ROW_HEIGHT = 20  # room to write by hand on a blank form

HEADER_FILL = colors.Color(0.88, 0.89, 0.91)
SHADED_FILL = colors.Color(0.78, 0.78, 0.78)
CURRENT_FILL = colors.Color(1.0, 0.96, 0.86)
RULE = colors.Color(0.35, 0.35, 0.35)


@functools.cache
def sheet_font(candidates: tuple[str, ...] = FONT_CANDIDATES) -> str:
    """The registered name of the font sheets are drawn in (registered once per process)."""
    for candidate in candidates:
        path = Path(candidate)
        if path.is_file():
            name = f"{TRUETYPE_NAME}-{path.stem}"
            try:
                pdfmetrics.registerFont(TTFont(name, str(path.resolve())))
            except TTFError:
                continue
            return name
    pdfmetrics.registerFont(UnicodeCIDFont(CID_FALLBACK))
    return CID_FALLBACK


# Text reportlab's parser might split or clean otherwise: markup characters, and whitespace other
# than the space (its whitespace set, which a Paragraph collapses, includes U+00A0 and U+3000).
_NOT_PLAIN = re.compile("[&<>" + re.escape(_wsc.replace(" ", "")) + "]")


def plain_paragraph(text: str, style: ParagraphStyle, frag=None) -> Paragraph:
    """``Paragraph(escape(text), style)``, without running reportlab's markup parser when it
    can be skipped: text of no markup character and no whitespace but spaces is parsed into
    one fragment of the style holding the text, its spaces collapsed (what
    ``cleanBlockQuotedText`` does first), so ``frag`` — that fragment as parsed once for the
    style (``style_frag``) — is cloned with the text instead."""
    cleaned = " ".join(word for word in text.split(" ") if word)
    if frag is None or not cleaned or _NOT_PLAIN.search(text):
        return Paragraph(escape(text), style)
    return Paragraph(cleaned, style, frags=[frag.clone(text=cleaned)])


def style_frag(style: ParagraphStyle):
    """The fragment reportlab's parser makes of plain text in ``style``."""
    return Paragraph("x", style).frags[0]


def fit_widths(weights: Sequence[float], minimums: Sequence[float], total: float) -> list[float]:
    """Share ``total`` among columns by weight, none below its minimum, summing to ``total``.

    When even the minimums do not fit, they are scaled down together (cells then wrap inside
    words): the table never grows wider than the frame.
    """
    if sum(minimums) >= total:
        return [total * minimum / sum(minimums) for minimum in minimums]
    fixed: dict[int, float] = {}
    while True:
        free = [i for i in range(len(weights)) if i not in fixed]
        room = total - sum(fixed.values())
        weight = sum(weights[i] for i in free) or 1.0
        widths = {i: room * weights[i] / weight for i in free}
        short = [i for i in free if widths[i] < minimums[i]]
        if not short:
            return [fixed.get(i, widths.get(i, 0.0)) for i in range(len(weights))]
        for i in short:
            fixed[i] = minimums[i]


class _PageCountingCanvas(Canvas):
    """Holds every page until the end so that each can say "page X of Y"."""

    def __init__(self, *args, footer: Callable[[Canvas, int, int], None], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._footer = footer
        self._pages: list[dict] = []

    def showPage(self) -> None:  # noqa: N802 (reportlab's name)
        self._pages.append(dict(self.__dict__))
        self._startPage()

    def save(self) -> None:
        total = len(self._pages)
        for number, page in enumerate(self._pages, start=1):
            self.__dict__.update(page)
            self._footer(self, number, total)
            super().showPage()
        super().save()


# Headers laid out, per thread (a header is drawn by one canvas at a time): the most recent.
KEPT_HEADS = 64
_HEADS = threading.local()


def _kept_heads() -> OrderedDict[tuple, Table]:
    heads = getattr(_HEADS, "heads", None)
    if heads is None:
        heads = _HEADS.heads = OrderedDict()
    return heads


@dataclass(frozen=True)
class Styles:
    title: ParagraphStyle
    subtitle: ParagraphStyle
    heading: ParagraphStyle
    cell: ParagraphStyle
    number: ParagraphStyle
    head: ParagraphStyle
    note: ParagraphStyle


class SheetRenderer:
    """Renders sheets on one paper size; ``render`` returns the PDF's bytes."""

    def __init__(self, paper: str = "a4", font: str | None = None) -> None:
        self.pagesize = landscape(PAPERS[paper])
        self.font = font or sheet_font()
        self._widths: dict[tuple[str, float], float] = {}
        self._frags: dict[int, tuple[ParagraphStyle, object]] = {}

    @property
    def frame_width(self) -> float:
        return self.pagesize[0] - 2 * MARGIN

    def styles(self, sheet: sheets.Sheet) -> Styles:
        wrap = "CJK" if sheet.language == "ja" else None
        base = ParagraphStyle("base", fontName=self.font, fontSize=BODY_SIZE, leading=8.6)
        if wrap:
            base.wordWrap = wrap
        return Styles(
            title=ParagraphStyle("title", base, fontSize=14, leading=17, spaceAfter=2),
            subtitle=ParagraphStyle("subtitle", base, fontSize=8.5, leading=11, spaceAfter=6),
            heading=ParagraphStyle(
                "heading",
                base,
                fontSize=9.5,
                leading=12,
                spaceBefore=6,
                spaceAfter=3,
                keepWithNext=True,
            ),
            cell=base,
            number=ParagraphStyle("number", base, alignment=TA_RIGHT),
            head=ParagraphStyle("head", base, fontSize=6.8, leading=8),
            note=ParagraphStyle("note", base, fontSize=6.8, leading=8.4, spaceBefore=2),
        )

    # --- the story -------------------------------------------------------------------------

    def story(self, sheet: sheets.Sheet) -> list[Flowable]:
        styles = self.styles(sheet)
        story: list[Flowable] = [
            self.line(sheet.title, styles.title),
            self.line(
                " · ".join((sheet.campaign, sheet.campaign_game, sheet.side)), styles.subtitle
            ),
        ]
        if sheet.facts:
            story.append(self._facts(sheet.facts, styles))
        for table in sheet.tables:
            if table.title:
                story.append(self.line(table.title, styles.heading))
            if table.rows:
                story.append(self._table(table, styles, sheet.blank))
            else:
                story.append(self.line(table.empty_text or "—", styles.cell))
        if sheet.notes:
            story.append(Spacer(1, 4))
            story += [self.line(note, styles.note) for note in sheet.notes]
        return story

    def _facts(self, facts: Sequence[sheets.Fact], styles: Styles) -> Table:
        width = self.frame_width / 2
        table = Table(
            [
                [
                    self.paragraph(fact.label, styles.cell),
                    self.paragraph(fact.value, styles.cell),
                ]
                for fact in facts
            ],
            colWidths=[width * 0.35, width * 0.65],
            hAlign="LEFT",
        )
        table.setStyle(
            TableStyle(
                [
                    ("FONTNAME", (0, 0), (-1, -1), self.font),
                    ("GRID", (0, 0), (-1, -1), 0.4, RULE),
                    ("BACKGROUND", (0, 0), (0, -1), HEADER_FILL),
                    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ]
            )
        )
        return table

    def line(self, text: str, style: ParagraphStyle) -> TextLine:
        """A paragraph of plain text (escaped): drawn as one line when it fits, else wrapped."""
        return TextLine(text, style, self)

    def paragraph(self, text: str, style: ParagraphStyle) -> Paragraph:
        """An escaped Paragraph of plain text (``plain_paragraph``, the style's fragment kept
        for the render)."""
        kept = self._frags.get(id(style))
        if kept is None or kept[0] is not style:
            kept = self._frags[id(style)] = (style, style_frag(style))
        return plain_paragraph(text, style, kept[1])

    def text_width(self, text: str, size: float) -> float:
        """``stringWidth`` remembered for the render (dates, unit names and numbers repeat)."""
        key = (text, size)
        width = self._widths.get(key)
        if width is None:
            width = self._widths[key] = pdfmetrics.stringWidth(text, self.font, size)
        return width

    def column_widths(self, table: sheets.Table, styles: Styles) -> list[float]:
        """Each column at least as wide as the longest word of its heading and, for a column of
        numbers, the longest word of its cells up to a quarter page (a number never breaks
        inside its digits: a roster's CPP of 10020 must not print as "1002" over "0")."""
        minimums = [
            max(
                self.text_width(word, styles.head.fontSize)
                for word in (column.heading.split() or [""])
            )
            + 2 * CELL_PADDING
            + 1
            for column in table.columns
        ]
        size = styles.cell.fontSize
        for position, column in enumerate(table.columns):
            if column.numeric:
                widest = max(
                    (
                        self.text_width(word, size)
                        for row in table.rows
                        for word in row.cells[position].split()
                    ),
                    default=0.0,
                )
                widest = min(widest + 2 * CELL_PADDING + 1, self.frame_width / 4)
                minimums[position] = max(minimums[position], widest)
        # Row labels (dates, RGs, units) stay on one line when they can: up to a quarter page.
        labels = [self.text_width(row.label, styles.cell.fontSize) for row in table.rows]
        if labels:
            label = min(max(labels) + 2 * CELL_PADDING + 1, self.frame_width / 4)
            minimums[0] = max(minimums[0], label)
        return fit_widths([column.width for column in table.columns], minimums, self.frame_width)

    def _cell(self, text: str, width: float, style: ParagraphStyle) -> str | Paragraph:
        """Text that fits on one line is drawn as it is (never parsed as markup); longer text
        becomes an escaped Paragraph that wraps inside the cell."""
        room = width - 2 * CELL_PADDING
        if "\n" not in text and self.text_width(text, style.fontSize) <= room:
            return text
        return self.paragraph(text, style)

    def _head(self, table: sheets.Table, styles: Styles, widths: list[float]) -> Table:
        """The table's header rows as a reportlab Table (groups span their columns), wrapped
        once and drawn at the top of every page the table runs over; tables of the same
        columns and widths (the OB sheet's boxes) share one, and so do the renders after it
        in the same thread (``_kept_heads``: a header is laid out once, drawn in each PDF)."""
        head_style = styles.head
        key = (
            table.columns,
            tuple(widths),
            head_style.fontName,
            head_style.fontSize,
            head_style.leading,
            head_style.wordWrap,
        )
        kept = _kept_heads()
        head = kept.get(key)
        if head is not None:
            kept.move_to_end(key)
            return head
        head_rows = 2 if table.has_groups else 1
        commands: list[tuple] = [
            ("FONTNAME", (0, 0), (-1, -1), self.font),
            ("GRID", (0, 0), (-1, -1), 0.4, RULE),
            ("BACKGROUND", (0, 0), (-1, -1), HEADER_FILL),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("LEFTPADDING", (0, 0), (-1, -1), CELL_PADDING),
            ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PADDING),
            ("TOPPADDING", (0, 0), (-1, -1), 1.5),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
        ]
        data: list[list] = []
        heads = [self.paragraph(column.heading, styles.head) for column in table.columns]
        if head_rows == 2:
            top: list = ["" for _column in table.columns]
            for position, column in enumerate(table.columns):
                if not column.group:
                    top[position] = heads[position]
                    heads[position] = ""
                    commands.append(("SPAN", (position, 0), (position, 1)))
            for group, first, last in table.group_spans():
                top[first] = self.paragraph(group, styles.head)
                commands.append(("SPAN", (first, 0), (last, 0)))
            data.append(top)
        data.append(heads)
        head = _HeadTable(data, colWidths=widths, hAlign="LEFT")
        head.setStyle(TableStyle(commands))
        head.wrap(sum(widths), 1e6)
        kept[key] = head
        if len(kept) > KEPT_HEADS:
            kept.popitem(last=False)
        return head

    def _table(self, table: sheets.Table, styles: Styles, blank: bool) -> SheetTable:
        widths = self.column_widths(table, styles)
        body = styles.cell
        rows: list[_BodyRow] = []
        for row in table.rows:
            cells: list[str | Paragraph] = []
            height = body.leading + 3
            for text, column, width in zip(row.cells, table.columns, widths, strict=True):
                cell = self._cell(text, width, styles.number if column.numeric else body)
                if isinstance(cell, Paragraph):
                    _width, tall = cell.wrap(width - 2 * CELL_PADDING, 1e6)
                    height = max(height, tall + 3)
                cells.append(cell)
            fills = [(position, SHADED_FILL) for position in row.shaded]
            if row.current:
                fills.append((0, CURRENT_FILL))
            rows.append(_BodyRow(BLANK_ROW_HEIGHT if blank else height, cells, fills))
        return SheetTable(
            self._head(table, styles, widths),
            widths,
            tuple(column.numeric for column in table.columns),
            rows,
            self,
            body,
        )

    # --- pages -----------------------------------------------------------------------------

    def _footer(self, sheet: sheets.Sheet, printed: str) -> Callable[[Canvas, int, int], None]:
        with translation.override(sheet.language):
            facts = " · ".join(
                (
                    sheet.campaign,
                    sheet.side,
                    sheet.date,
                    _("game data v%(version)s") % {"version": sheet.data_version},
                    _("printed %(when)s") % {"when": printed},
                )
            )
            page_text = _("page %(page)s of %(pages)s")

        def draw(canvas: Canvas, page: int, pages: int) -> None:
            canvas.saveState()
            canvas.setFont(self.font, 7)
            canvas.setFillColor(colors.Color(0.25, 0.25, 0.25))
            canvas.drawString(MARGIN, MARGIN / 2, facts)
            canvas.drawRightString(
                self.pagesize[0] - MARGIN, MARGIN / 2, page_text % {"page": page, "pages": pages}
            )
            canvas.restoreState()

        return draw

    def render(self, sheet: sheets.Sheet) -> bytes:
        return self.build(
            lambda: self.story(sheet),
            sheet,
            title=sheet.title,
            campaign=sheet.campaign,
            subject=sheet.campaign_game,
            language=sheet.language,
        )

    def build(
        self, story, footer_facts, *, title: str, campaign: str, subject: str, language: str
    ) -> bytes:
        """The document of ``story()`` (built in ``language``), each page with the footer of
        ``footer_facts`` (a sheet, or what of it the footer reads)."""
        buffer = io.BytesIO()
        document = SimpleDocTemplate(
            buffer,
            pagesize=self.pagesize,
            leftMargin=MARGIN,
            rightMargin=MARGIN,
            topMargin=MARGIN,
            bottomMargin=MARGIN + FOOTER_SPACE / 2,
            title=f"{title} · {campaign}",
            author="Campaign Desk",
            subject=subject,
            lang=language,
            initialFontName=self.font,
            initialFontSize=BODY_SIZE,
            keepTogetherClass=_KeepTogether,
        )
        # In the reader's zone (accounts.middleware.UserTimeZoneMiddleware), named after it.
        stamp = timezone.localtime().strftime("%Y-%m-%d %H:%M")
        printed = f"{stamp} {timezone.get_current_timezone_name()}"
        with translation.override(language):
            flowables = story()
        document.build(
            flowables,
            canvasmaker=functools.partial(
                _PageCountingCanvas,
                footer=self._footer(footer_facts, printed),
            ),
        )
        return buffer.getvalue()


class TextLine(Flowable):
    """A plain-text paragraph (a title, a heading, "Empty.", a note) that is usually one line:
    drawn as reportlab's Paragraph draws one line (its leading tall, the baseline a font size
    below the top) without parsing it as markup; text wider than the frame becomes the escaped
    Paragraph it stands for, which wraps. Space before/after and keep-with-next come from the
    style, as for a Paragraph."""

    def __init__(self, text: str, style: ParagraphStyle, renderer: SheetRenderer) -> None:
        super().__init__()
        self.text = " ".join(text.split())  # the whitespace a Paragraph collapses
        self.style, self.renderer = style, renderer
        self._paragraph: Paragraph | None = None

    def _wrapped(self) -> Paragraph:
        if self._paragraph is None:
            self._paragraph = self.renderer.paragraph(self.text, self.style)
        return self._paragraph

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803
        if self.renderer.text_width(self.text, self.style.fontSize) <= availWidth:
            self._paragraph = None
            self.width, self.height = availWidth, self.style.leading
            return self.width, self.height
        self.width, self.height = self._wrapped().wrap(availWidth, availHeight)
        return self.width, self.height

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:  # noqa: N803
        if self.renderer.text_width(self.text, self.style.fontSize) <= availWidth:
            return []
        return self._wrapped().split(availWidth, availHeight)

    def draw(self) -> None:
        if self._paragraph is not None:
            self._paragraph.drawOn(self.canv, 0, 0)
            return
        # (drawString's text, without setting the canvas's font and colour first: drawOn
        # restores the canvas's state after each flowable)
        style = self.style
        text = self.canv.beginText(0, self.height - style.fontSize)
        text.setFont(style.fontName, style.fontSize, style.leading)
        text.setFillColor(style.textColor)
        text.textOut(self.text)
        self.canv.drawText(text)


class _Unframed:
    """A canvas as a packer's wrap sees it, minus the document template: reportlab's
    ``_listWrapOn`` then wraps the flowables without a deep copy of the current frame (kept
    for flowables that add content to the frame, which a sheet's never do)."""

    def __init__(self, canvas: Canvas) -> None:
        self._canvas = canvas

    def __getattr__(self, name: str):
        if name == "_doctemplate":
            raise AttributeError(name)
        return getattr(self._canvas, name)


class _KeepTogether(KeepTogether):
    """reportlab's KeepTogether (what a heading's keepWithNext makes of the heading and the
    table after it), laid out exactly as it is; only its wrap skips the frame's deep copy when
    everything it holds is a sheet's own flowable (a TextLine or a SheetTable)."""

    def wrap(self, aW: float, aH: float) -> tuple[float, float]:  # noqa: N803
        if not all(isinstance(f, TextLine | SheetTable) for f in self._content):
            return super().wrap(aW, aH)
        dims: list[tuple[float, float]] = []
        _width, height = _listWrapOn(self._content, aW, _Unframed(self.canv), dims=dims)
        self._H = height
        self._H0 = dims and dims[0][1] or 0
        self._wrapInfo = aW, aH
        return _width, 0xFFFFFF  # (as KeepTogether: force a split)


class _HeadTable(Table):
    """A sheet's header rows: reportlab's Table, laid out as it lays it out and kept for the
    renders after it (``_kept_heads``); drawn as reportlab's ``Table.draw`` draws it — the
    background, the cells, the rules — except the cells' Paragraphs: reportlab wraps each one
    again and draws it with a text object of its own every time the table is drawn; here each
    cell's lines, broken at the first draw exactly where reportlab places them, are drawn as
    one text object (a cell that is not a one-line-per-row plain Paragraph is drawn by
    reportlab as before)."""

    _placed: tuple[list[tuple], list[tuple]] | None = None

    def _cells(self):
        """Each drawn cell as ``Table.draw`` visits it: value, style, position and size."""
        if not self._spanCmds:
            for row, styles, y, height in zip(
                self._cellvalues,
                self._cellStyles,
                self._rowpositions[1:],
                self._rowHeights,
                strict=False,
            ):
                for value, style, x, width in zip(
                    row, styles, self._colpositions[:-1], self._colWidths, strict=False
                ):
                    yield value, style, (x, y), (width, height)
            return
        for row in range(self._nrows):
            for column in range(self._ncols):
                rect = self._spanRects[column, row]
                if rect is not None:
                    x, y, width, height = rect
                    yield (
                        self._cellvalues[row][column],
                        self._cellStyles[row][column],
                        (x, y),
                        (width, height),
                    )

    def _place(self) -> tuple[list[tuple], list[tuple]]:
        """The plain lines to draw, as (font, size, leading, colour, x, baseline, text), and the
        cells left to reportlab."""
        lines: list[tuple] = []
        others: list[tuple] = []
        for value, style, (x, y), (width, height) in self._cells():
            paragraph = value[0] if isinstance(value, tuple | list) and len(value) == 1 else None
            if not isinstance(paragraph, Paragraph):
                if value != "":  # (reportlab draws an empty string as an empty text object)
                    others.append((value, style, (x, y), (width, height)))
                continue
            # Table._drawCell's geometry for one flowable (the wrap it makes there)
            _w, tall = self._listCellGeom((paragraph,), width, style, aH=height)
            if not self._plain(paragraph, style):
                others.append((value, style, (x, y), (width, height)))
                continue
            # middle aligned, on the left (Table._drawCell)
            bottom = y + (height + style.bottomPadding - style.topPadding + tall) / 2.0 - tall
            left = x + style.leftPadding
            # Paragraph.drawPara: the first baseline a font size below the top, then leading
            blocks, leading = paragraph.blPara, paragraph.style.leading
            baseline = bottom + paragraph.height - blocks.fontSize
            for _space, words in blocks.lines:
                lines.append(
                    (
                        blocks.fontName,
                        blocks.fontSize,
                        leading,
                        blocks.textColor,
                        left,
                        baseline,
                        " ".join(words),
                    )
                )
                baseline -= leading
        return lines, others

    @staticmethod
    def _plain(paragraph: Paragraph, style) -> bool:
        """A Paragraph that drawPara draws as plain lines in one font: one fragment's lines
        (kind 0) on the left, nothing around or under them, no line squeezed (a negative
        space shared between its words), in a middle-aligned cell on the left."""
        blocks, look = paragraph.blPara, paragraph.style
        return (
            blocks.kind == 0
            and not (getattr(blocks, "us_lines", None) or getattr(blocks, "link", None))
            and look.alignment == 0
            and not (look.leftIndent or look.firstLineIndent or look.backColor)
            and not (look.borderWidth and look.borderColor)
            and not paragraph.bulletText
            and not getattr(paragraph, "autoLeading", getattr(look, "autoLeading", ""))
            and style.alignment == "LEFT"
            and style.valign == "MIDDLE"
            and not paragraph.getSpaceBefore()
            and not paragraph.getSpaceAfter()
            and all(space > -1e-8 or len(words) <= 1 for space, words in blocks.lines)
        )

    def draw(self) -> None:
        canvas = self.canv
        canvas.saveState()
        self._curweight = self._curcolor = self._curcellstyle = None
        self._makeShadow()
        self._makeRoundedCornersClip()
        self._drawBkgrnd()
        if self._placed is None:
            self._placed = self._place()
        lines, others = self._placed
        if lines:
            text = canvas.beginText()
            look = None
            for font, size, leading, colour, x, y, line in lines:
                if (font, size, leading, colour) != look:
                    look = font, size, leading, colour
                    text.setFont(font, size, leading)
                    text.setFillColor(colour)
                text.setTextOrigin(x, y)
                text.textLine(line)
            canvas.drawText(text)
        for value, style, position, size in others:
            self._drawCell(value, style, position, size)
        self._drawLines()
        canvas.restoreState()
        if self._roundingRectDef:
            self._restoreRoundingObscuredLines()


@dataclass
class _BodyRow:
    height: float
    cells: list  # per column: a string drawn as it is, or a Paragraph already wrapped
    fills: list[tuple[int, colors.Color]]  # (column, background), drawn in this order


class SheetTable(Flowable):
    """A sheet's table: its header (a small reportlab Table, repeated on every page the table
    runs over) and its rows, laid out once by the renderer and drawn here row by row — one
    text object for the rows' plain strings, their wrapped Paragraphs, the grid as one path.
    It looks as reportlab's Table did with the same style (padding 2 × 1.5 pt, middle
    vertical alignment, numbers to the right, 0.4 pt rules) and, like it, breaks only
    between rows."""

    def __init__(
        self,
        head: Table,
        widths: list[float],
        numeric: tuple[bool, ...],
        rows: list[_BodyRow],
        renderer: SheetRenderer,
        style: ParagraphStyle,
    ) -> None:
        super().__init__()
        self.head, self.widths, self.numeric, self.rows = head, widths, numeric, rows
        self.renderer, self.style = renderer, style
        self.hAlign = "LEFT"
        self.head_height = head._height
        self.row_heights = [row.height for row in rows]
        self.width = sum(widths)
        self.height = self.head_height + sum(self.row_heights)

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803
        return self.width, self.height

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:  # noqa: N803
        room = availHeight - self.head_height
        used, fits = 0.0, 0
        for height in self.row_heights:
            if used + height > room + 1e-8:
                break
            used += height
            fits += 1
        if fits == 0 or fits == len(self.rows):
            return [] if fits == 0 else [self]
        return [
            SheetTable(self.head, self.widths, self.numeric, rows, self.renderer, self.style)
            for rows in (self.rows[:fits], self.rows[fits:])
        ]

    def draw(self) -> None:
        canvas = self.canv
        style = self.style
        top = self.height - self.head_height
        lefts = [0.0]
        for width in self.widths:
            lefts.append(lefts[-1] + width)
        canvas.saveState()
        bottoms = []
        y = top
        for row in self.rows:
            y -= row.height
            bottoms.append(y)
            for position, fill in row.fills:
                canvas.setFillColor(fill)
                canvas.rect(lefts[position], y, self.widths[position], row.height, stroke=0, fill=1)
        canvas.restoreState()
        # After the rows' fills: the rule under the header stays whole, as reportlab drew it.
        # The header is drawn once per document as a form (a PDF XObject), then placed.
        form = f"sheet-head-{id(self.head)}"
        if not canvas.hasForm(form):
            # (its box a point wider all round: the outer rules are centred on its edges)
            canvas.beginForm(form, -1, -1, self.width + 1, self.head_height + 1)
            self.head.drawOn(canvas, 0, 0)
            canvas.endForm()
        canvas.saveState()
        canvas.translate(0, top)
        canvas.doForm(form)
        canvas.restoreState()
        canvas.saveState()
        canvas.setFillColor(colors.black)
        text = canvas.beginText()
        text.setFont(self.renderer.font, style.fontSize, style.leading)
        paragraphs = []
        for row, bottom in zip(self.rows, bottoms, strict=True):
            # as reportlab's Table places one line in the middle of its cell
            baseline = bottom + (row.height + style.leading) / 2 - style.fontSize
            for position, cell in enumerate(row.cells):
                if isinstance(cell, Paragraph):
                    middle = bottom + (row.height - cell.height) / 2
                    paragraphs.append((cell, lefts[position] + CELL_PADDING, middle))
                elif cell:
                    if self.numeric[position]:
                        x = (
                            lefts[position + 1]
                            - CELL_PADDING
                            - self.renderer.text_width(cell, style.fontSize)
                        )
                    else:
                        x = lefts[position] + CELL_PADDING
                    text.setTextOrigin(x, baseline)
                    text.textLine(cell)  # (textOut would measure it again to move the cursor)
        canvas.drawText(text)
        for paragraph, x, y in paragraphs:
            paragraph.drawOn(canvas, x, y)
        canvas.setStrokeColor(RULE)
        canvas.setLineWidth(0.4)
        canvas.setLineCap(1)
        canvas.setLineJoin(1)
        end = bottoms[-1] if bottoms else top
        canvas.lines([(0, y, self.width, y) for y in bottoms] + [(x, end, x, top) for x in lefts])
        canvas.restoreState()


def render_pdf(sheet: sheets.Sheet, paper: str = "a4") -> bytes:
    return SheetRenderer(paper).render(sheet)
