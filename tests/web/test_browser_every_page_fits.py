"""Every page an organiser can reach by following links from the home page of the demo club fits
a phone's screen (390 px) and answers without an error: the leagues, seasons, nights, players,
tables (a finished one, with its dispute form), replays, lobbies, score sheets, tournaments and
the forms that create them. Pages are found by following links, so a new page is checked as
soon as something links to it."""

from urllib.parse import urljoin, urlparse

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from tests.web.browser import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
# Not pages to look at: signing out, the admin (Django's own), the JSON API, CSV downloads and a
# seat's private link (following it would take the seat).
SKIP = ("/accounts/logout", "/admin/", "/api/", ".csv", "/seat/")
MOST = 90  # pages visited: the demo links many replay steps of one game; a few of each do


def _worth_visiting(path: str, query: str, seen_kinds: dict[str, int]) -> bool:
    if any(part in path for part in SKIP):
        return False
    # One page of a kind is enough when only its query differs (a sort order, a replay step,
    # an event offered for dispute): keep three of each.
    kind = path + ("?" + query.split("=")[0] if query else "")
    seen_kinds[kind] = seen_kinds.get(kind, 0) + 1
    return seen_kinds[kind] <= 3


def test_every_page_an_organiser_can_reach_fits_a_phone(chromium, live_server, eager_tasks):
    call_command("seed_demo", verbosity=0)
    organiser = get_user_model().objects.get(username="demo-organiser")
    organiser.set_password("walk the whole site")
    organiser.save()

    context = chromium.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(live_server.url + "/accounts/login/")
    page.fill("input[name=username]", "demo-organiser")
    page.fill("input[name=password]", "walk the whole site")
    with page.expect_navigation():
        page.get_by_role("button", name="Sign in").click()

    todo, seen, kinds, problems = [live_server.url + "/"], set(), {}, []
    while todo and len(seen) < MOST:
        url = todo.pop(0)
        parts = urlparse(url)
        key = parts.path + ("?" + parts.query if parts.query else "")
        if key in seen or not _worth_visiting(parts.path, parts.query, kinds):
            continue
        seen.add(key)
        response = page.goto(url, wait_until="domcontentloaded")
        width = page.evaluate("document.documentElement.scrollWidth")
        if response is None or response.status >= 400:
            problems.append(f"{key} answered {response and response.status}")
        if width > PHONE["width"]:
            shot = screenshot(page, f"too-wide-{len(problems)}")
            problems.append(f"{key} is {width} px wide ({shot})")
        for href in page.eval_on_selector_all("a[href]", "els => els.map(e => e.href)"):
            link = urljoin(url, href.split("#")[0])
            if urlparse(link).netloc == parts.netloc:
                todo.append(link)
    context.close()

    # The walk reached every kind of page the demo has, or it proves little.
    visited = " ".join(seen)
    for kind in ("/leagues/", "/seasons/", "/nights/", "/players/", "/replay/", "/lobby/"):
        assert kind in visited, f"no {kind} page was reached: {sorted(seen)}"
    assert "/score-sheets/" in visited and "/tournaments/new/" in visited
    assert not problems, "\n".join(problems)
