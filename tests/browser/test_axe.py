"""axe-core finds no critical or serious accessibility violation on the main pages.

axe.min.js comes from PyPI (the axe-playwright-python package ships it; no CDN). The pages are
those of tests/browser/main_pages.py as the referee (who sees every side's pages and forms),
then the German player's and the observer's pages the referee was not shown, at phone width.
"""

from importlib import resources

import pytest

from tests.browser.main_pages import build, session_cookie, visits
from tests.browser.test_phone_width import PHONE, measure

BLOCKING = {"critical", "serious"}

RUN = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.map(v => ({
    id: v.id, impact: v.impact,
    nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ' ' + n.failureSummary.slice(0, 160)),
  }));
}"""


def axe_source() -> str:
    try:
        package = resources.files("axe_playwright_python")
    except ModuleNotFoundError:
        pytest.fail("axe-playwright-python (the test extra) ships axe.min.js: pip install it")
    return (package / "axe.min.js").read_text(encoding="utf-8")


# The referee is shown every page with every form; the others' pages the referee's walk did not
# open are a second test, so that the two run on two workers side by side.
@pytest.mark.parametrize("walk", [("referee",), ("german", "observer")], ids=["referee", "others"])
def test_no_critical_or_serious_violation_on_the_main_pages(live_server, browser, walk):
    world, demo = build()
    base = live_server.url
    source = axe_source()
    found, checked = [], 0
    seen = set() if walk == ("referee",) else {v.url for v in visits(world, demo, "referee")}
    for who in walk:
        context = browser.new_context(viewport=PHONE, locale="en-US")
        context.set_default_timeout(15_000)
        context.add_cookies([session_cookie(who, base)])
        page = context.new_page()
        for visit in visits(world, demo, who):
            if visit.url in seen:  # the referee's page, with every form on it
                continue
            seen.add(visit.url)
            if measure(page, base + visit.url) is None:
                continue
            page.add_script_tag(content=source)
            checked += 1
            for violation in page.evaluate(RUN):
                if violation["impact"] in BLOCKING:
                    found.append(f"{who} {visit.url} {violation}")
        context.close()
    assert checked > (50 if walk == ("referee",) else 0), checked  # the others: a few pages
    assert not found, "\n".join(found)
