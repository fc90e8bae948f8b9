"""Playwright driving Debian's chromium, for the tests marked ``browser``.

The browser is Debian's package (/usr/bin/chromium), installed by `python3 config/dev.py test`
when it runs as root; Playwright never downloads one. Without it the browser tests fail and say
how to install it. Screenshots go to test-results/ (gitignored) and their paths are printed.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.conf import settings

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
RESULTS = Path(settings.BASE_DIR) / "test-results"
INSTALL_HINT = (
    f"the browser tests need Debian's chromium at {CHROMIUM}: install it with "
    "`apt-get install -y chromium` (as root; `python3 config/dev.py test` does it when run as "
    "root). Playwright's own browser downloads are not used."
)


@pytest.fixture(scope="session")
def chromium():
    if not os.path.exists(CHROMIUM):
        pytest.fail(INSTALL_HINT, pytrace=False)
    # Playwright's sync API runs an event loop in this thread; Django's ORM, used by the
    # tests between browser steps, refuses to run beside one unless told it is safe here.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def eager_tasks():
    """Bots play inside the live server (tasks in-process) even when a broker is configured:
    there is no worker in the test run."""
    from config.celery import app

    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = before


@pytest.fixture
def page(chromium, live_server):
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def screenshot(page, name: str) -> Path:
    """Save a full-page screenshot under test-results/ and print its path."""
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    print(f"screenshot: {path}")
    return path
