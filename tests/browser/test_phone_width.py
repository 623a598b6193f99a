"""Every main page fits a phone: at 390 px wide nothing scrolls the page sideways, for each of
the five personas, in English and in Japanese (tests/browser/main_pages.py finds the pages),
and Japanese is never set one character per line.

Wide tables scroll inside their own box (``.table-scroll``); what sticks out of it is a bug.
"""

import pytest

from tests.browser.main_pages import build, session_cookie, visits
from tests.conftest import PERSONAS

PHONE = {"width": 390, "height": 844}
LANGUAGES = {"en": "en-US", "ja": "ja-JP"}

# The elements that stick out past the right edge, outside any box that scrolls or clips them:
# named in a failure so the page can be fixed without opening it.
OFFENDERS = """(limit) => {
  const clipped = (el) => {
    for (let p = el.parentElement; p; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if (o === 'auto' || o === 'scroll' || o === 'hidden' || o === 'clip') return true;
    }
    return false;
  };
  const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
    (el.classList.length ? '.' + [...el.classList].join('.') : '');
  const out = [];
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.width && r.right > limit + 1 && !clipped(el)) {
      out.push(name(el) + ' ' + Math.round(r.right) + 'px ' +
               (el.textContent || '').trim().slice(0, 30));
    }
  }
  return out.slice(-5);
}"""


# Japanese set one character per line: a leaf's text of three characters or more, with
# Japanese in it, in a box narrower than two characters and taller than two lines (issue 19:
# "My role", the dice log's headings, "オプション" in narrow cells).
ONE_CHARACTER_LINES = """() => {
  const out = [];
  for (const el of document.body.querySelectorAll('*')) {
    if (el.children.length) continue;
    const text = (el.textContent || '').trim();
    if (text.length < 3 || !/[\u3040-\u30ff\u4e00-\u9fff]/.test(text)) continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const style = getComputedStyle(el);
    const size = parseFloat(style.fontSize);
    const line = parseFloat(style.lineHeight) || size * 1.2;
    if (r.width < 1.8 * size && r.height > 2.5 * line) {
      out.push(el.tagName.toLowerCase() + ' ' + Math.round(r.width) + 'x' +
               Math.round(r.height) + 'px ' + text.slice(0, 20));
    }
  }
  return out.slice(0, 5);
}"""


WIDER = (820, 1280)  # a tablet and a desktop: the referee's pages, measured from the same load
# The page's scroll width at the window's width.
WIDTH = "() => document.documentElement.scrollWidth"


def load(page, url: str) -> bool:
    """Whether the URL is an HTML page that answers 200 (then it is loaded in ``page``)."""
    response = page.goto(url, wait_until="domcontentloaded")
    if response is None or response.status != 200:
        return False
    return response.headers.get("content-type", "").startswith("text/html")


def measure(page, url: str) -> int | None:
    """The page's scroll width, or None when the URL is not an HTML page that answers 200."""
    return page.evaluate(WIDTH) if load(page, url) else None


def too_wide(browser, base: str, world, demo, *, languages, personas, wider=()):
    """The pages wider than the window, named with what sticks out, and how many were measured
    per width. Each persona and language has one browser context; each page is loaded once, at
    390 px, and measured again at each of ``wider``'s widths for the referee by resizing the
    window (no reload: the layout follows the width)."""
    found, measured = [], dict.fromkeys((PHONE["width"], *wider), 0)
    for language in languages:
        for who in personas:
            widths = (PHONE["width"], *(wider if who == "referee" else ()))
            context = browser.new_context(viewport=PHONE, locale=LANGUAGES[language])
            context.set_default_timeout(30_000)  # a loaded machine: the perimeter page
            context.add_cookies([session_cookie(who, base)])
            page = context.new_page()
            for visit in visits(world, demo, who):
                if not load(page, base + visit.url):
                    continue
                if language == "ja":
                    narrow = page.evaluate(ONE_CHARACTER_LINES)
                    if narrow:
                        found.append(f"ja {who} one character per line {visit.url} {narrow}")
                for width in widths:
                    if width != PHONE["width"]:
                        page.set_viewport_size({"width": width, "height": PHONE["height"]})
                    scroll_width = page.evaluate(WIDTH)
                    measured[width] += 1
                    if scroll_width > width:
                        offenders = page.evaluate(OFFENDERS, width)
                        found.append(
                            f"{language} {who} {width} {visit.url} {scroll_width}px {offenders}"
                        )
                if len(widths) > 1:
                    page.set_viewport_size(PHONE)
            context.close()
    return found, measured


# One test per language, so that the two halves of the walk run on two workers side by side.
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_main_page_fits_a_phone_tablet_and_desktop_in_both_languages(
    live_server, browser, language
):
    """Every persona's pages at 390 px; the referee's (who is shown every page with every form;
    wide tables once widened the page at every width: hidden labels outside their scroll box)
    also at 820 and 1280 px."""
    world, demo = build()
    found, measured = too_wide(
        browser,
        live_server.url,
        world,
        demo,
        languages=[language],
        personas=PERSONAS,
        wider=WIDER,
    )
    assert measured[PHONE["width"]] > 150, measured  # the walk found the pages
    assert all(measured[width] > 40 for width in WIDER), measured
    assert not found, "\n".join(found)
