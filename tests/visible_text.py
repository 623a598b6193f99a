"""The text a reader sees on a page, line by line, and the lines that are not in Japanese.

``visible_lines`` reads HTML with the standard library's parser: text outside <script>, <style>
and <template>, one line per block (cells, list items, paragraphs, options, headings), plus the
words a screen reader reads (``aria-label``, ``title``, ``placeholder``, an ``alt``). ``leaks``
picks the lines of a Japanese page that still carry English words, raw keys, table ids or notes
for developers. Proper names, rule numbers, unit designations and the ASL abbreviations are not
English words, and a few words the players use in English at the table are allowed.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

SKIPPED = {"script", "style", "template", "noscript"}
BLOCKS = {
    "p", "div", "li", "td", "th", "tr", "option", "h1", "h2", "h3", "h4", "h5", "h6", "caption",
    "label", "button", "a", "dt", "dd", "summary", "legend", "br", "footer", "header", "section",
    "nav", "title", "figcaption", "span", "small", "strong", "em", "time", "abbr",
}  # fmt: skip
READ_ALOUD = ("aria-label", "title", "placeholder", "alt")


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.current: list[str] = []
        self.skipping = 0

    def _break(self) -> None:
        line = " ".join("".join(self.current).split())
        if line:
            self.lines.append(line)
        self.current = []

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag in SKIPPED:
            self.skipping += 1
        if tag in BLOCKS:
            self._break()
        for name, value in attrs:
            if name in READ_ALOUD and value and value.strip():
                self.lines.append(" ".join(value.split()))
            if tag == "input" and name == "value" and ("type", "submit") in attrs and value:
                self.lines.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in SKIPPED:
            self.skipping = max(0, self.skipping - 1)
        if tag in BLOCKS:
            self._break()

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.current.append(data)


def visible_lines(page: str) -> list[str]:
    parser = _Text()
    parser.feed(page)
    parser.close()
    parser._break()
    return parser.lines


# Raw keys and ids: snake_case words, dotted table ids ("rf.san-adjustment"), a JSON path, a
# file name, and the notes developers wrote for themselves.
RAW = [
    re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b"),  # hidden_mine_belt, elr_change
    re.compile(r"\b(?:rf|sap|dr|cp)\.[a-z0-9]+(?:[-.][a-z0-9]+)+\b"),  # rf.san-adjustment
    re.compile(r"\w\[\]"),  # turns[].historical_weather
    re.compile(r"\b\w+\.json\b"),
    re.compile(r"\bspec (?:Q\d|§)"),
    re.compile(r"\b(?:TODO|FIXME)\b"),
    re.compile(r"\b[Ss]eed\b"),
    re.compile("レフェリー|レフリー"),  # the referee has one Japanese name: 審判
]
# Two English words in a row, on a Japanese page ("no change", "Fortified Building Location").
ENGLISH_WORDS = re.compile(r"\b[A-Za-z][a-z]+(?:[ /-]+[A-Za-z][a-z]+)+\b")
# Proper names and table talk that stay in English in Japanese: ASL's terms and abbreviations,
# the games' names, map names and units as printed on the counters.
ALLOWED = re.compile(
    r"Red Factories|Red Barricades|Red October|Slaughter at Ponyri|Defiant Russia|Cherkassy"
    r"|Campaign Desk|Ponyri|Barrikady|Krasny Oktyabr|demo-campaign|Encirclement at Korsun"
    # Scenario names as the rules print them (the Japanese rules keep them in English).
    r"|Opel Blitz"  # a truck as its counter names it
    r"|Scenario \d+|Forging the Ring|Hammering the Ring|Breaking the Ring|The Campaign"
    r"|\b\d+(?:st|nd|rd|th) [A-Z][a-z]+(?: [A-Z][a-z]+)*"  # a unit: 18th Tank Corps
    r"|“[^”]*\|[^”]*”|「[^」]*\|[^」]*」"  # quick-entry syntax the reader types: “… | tank_corps”
    r"|[a-z0-9.-]+@[a-z0-9.-]+|https?://\S+|/[a-z0-9/_-]+/"
    r"|\b[A-Z][A-Za-z_-]+/[A-Za-z0-9_/+-]+"  # a time zone: Asia/Tokyo, America/Argentina/Salta
)


def leaks(lines: list[str], *, usernames: tuple[str, ...] = ()) -> list[str]:
    """The lines of a Japanese page with English words or raw keys in them."""
    found = []
    for line in lines:
        text = ALLOWED.sub(" ", line)
        for name in usernames:
            text = text.replace(name, " ")
        if any(pattern.search(text) for pattern in RAW) or ENGLISH_WORDS.search(text):
            found.append(line)
    return found
