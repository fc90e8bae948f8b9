"""Print an edition's deck in card notation, one card per line, in a fixed order.

    python -m rules.deck --variant classic
    python -m rules.deck --variant veto --option customizable=2

``--option NAME=JSON`` (as for the simulator) prints the deck a game with that option plays
with, where an option changes the deck (the number of Wild Customizable cards in VETO).
"""

from __future__ import annotations

import argparse
import json
import sys

from rules.errors import RuleError
from rules.variants import get_variant, variant_names


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m rules.deck", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--variant", default="classic", choices=variant_names())
    parser.add_argument(
        "--option", action="append", default=[], metavar="NAME=JSON", help="an edition option"
    )
    args = parser.parse_args(argv)
    variant = get_variant(args.variant)
    options = {}
    for item in args.option:
        name, _, value = item.partition("=")
        try:
            options[name] = json.loads(value)
        except json.JSONDecodeError:
            options[name] = value
    try:
        deck = variant.deck_for(variant.parse_options(options))
    except RuleError as exc:
        parser.error(str(exc))
    sys.stdout.write("".join(f"{card}\n" for card in deck))
    return 0


if __name__ == "__main__":
    sys.exit(main())
