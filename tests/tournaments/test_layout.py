"""One folder per concern: leagues (``tournaments/leagues/``) and tournaments
(``tournaments/brackets/``) are packages of the same shape, and no module tells what it is for
by a prefix on its name."""

from __future__ import annotations

from pathlib import Path

import tournaments

APP = Path(tournaments.__file__).resolve().parent
PACKAGES = ("leagues", "brackets")
# What every package of the app has (listeners, serializers, admin, projections: where they apply).
CORE = {"models", "services", "selectors", "api", "views", "tasks"}


def modules(folder: Path) -> set[str]:
    return {path.stem for path in folder.glob("*.py") if path.stem != "__init__"}


def test_no_module_of_the_app_is_named_with_a_tournament_prefix():
    prefixed = [
        str(path.relative_to(APP))
        for path in APP.rglob("*.py")
        if path.stem.startswith(("tournament_", "page_")) and "migrations" not in path.parts
    ]
    assert prefixed == []


def test_leagues_and_brackets_have_the_same_core_modules():
    for package in PACKAGES:
        assert CORE <= modules(APP / package), package
    leagues, brackets = (modules(APP / package) & CORE for package in PACKAGES)
    assert leagues == brackets


def test_the_app_folder_holds_only_what_django_looks_for_there():
    # Django finds models, admin, urls, apps, migrations, templatetags and management commands
    # by their place in the app; everything else lives in one of the packages.
    assert modules(APP) == {"admin", "apps", "models", "urls"}
    assert {path.name for path in APP.iterdir() if path.is_dir()} - {"__pycache__"} == {
        "brackets",
        "leagues",
        "management",
        "migrations",
        "static",
        "templatetags",
    }
