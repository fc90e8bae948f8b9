"""Print an edition's deck in card notation, one card per line, in a fixed order.

    python -m rules.deck --variant classic
"""

from __future__ import annotations

import argparse
import sys

from rules.variants import get_variant, variant_names


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rules.deck", description=__doc__.split("\n")[0])
    parser.add_argument("--variant", default="classic", choices=variant_names())
    args = parser.parse_args(argv)
    sys.stdout.write("".join(f"{card}\n" for card in get_variant(args.variant).deck))
    return 0


if __name__ == "__main__":
    sys.exit(main())
