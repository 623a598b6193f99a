"""Every main page fits a phone: at 390 px wide nothing scrolls the page sideways, for each of
the five personas, in English and in Japanese (tests/browser/main_pages.py finds the pages).

Wide tables scroll inside their own box (``.table-scroll``); what sticks out of it is a bug.
"""

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


def measure(page, url: str) -> int | None:
    """The page's scroll width, or None when the URL is not an HTML page that answers 200."""
    response = page.goto(url, wait_until="domcontentloaded")
    if response is None or response.status != 200:
        return None
    if not response.headers.get("content-type", "").startswith("text/html"):
        return None
    return page.evaluate("document.documentElement.scrollWidth")


def too_wide(browser, base: str, world, demo, *, width: int, languages, personas):
    """The pages wider than the window, named with what sticks out; and how many were measured."""
    viewport = {"width": width, "height": PHONE["height"]}
    found, measured = [], 0
    for language in languages:
        for who in personas:
            context = browser.new_context(viewport=viewport, locale=LANGUAGES[language])
            context.set_default_timeout(10_000)
            context.add_cookies([session_cookie(who, base)])
            page = context.new_page()
            for visit in visits(world, demo, who):
                scroll_width = measure(page, base + visit.url)
                if scroll_width is None:
                    continue
                measured += 1
                if scroll_width > width:
                    offenders = page.evaluate(OFFENDERS, width)
                    found.append(f"{language} {who} {visit.url} {scroll_width}px {offenders}")
            context.close()
    return found, measured


def test_every_main_page_fits_a_phone_in_both_languages(live_server, browser):
    world, demo = build()
    found, measured = too_wide(
        browser,
        live_server.url,
        world,
        demo,
        width=PHONE["width"],
        languages=LANGUAGES,
        personas=PERSONAS,
    )
    assert measured > 300, measured  # the walk found the pages
    assert not found, "\n".join(found)


def test_the_referees_pages_fit_a_tablet_and_a_desktop(live_server, browser):
    """The referee is shown every page with every form; wide tables once widened the page at
    every width (hidden labels outside their scroll box)."""
    world, demo = build()
    for width in (820, 1280):
        found, measured = too_wide(
            browser,
            live_server.url,
            world,
            demo,
            width=width,
            languages=LANGUAGES,
            personas=("referee",),
        )
        assert measured > 80, measured
        assert not found, "\n".join(found)
