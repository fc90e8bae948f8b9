"""Record the golden games the tests replay (run again only when a rule change is meant to
change them): ``python tests/rules/golden/record.py``."""

import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[3]))

from rules.bots import RandomBot  # noqa: E402
from rules.engine import legal_commands, new_game, step  # noqa: E402

GAMES = {
    "classic-3-standard": {
        "variant": "classic",
        "players": 3,
        "scoring": "standard",
        "target": 500,
    },
    "classic-4-alternative": {
        "variant": "classic",
        "players": 4,
        "scoring": "alternative",
        "target": 300,
    },
}


def play(name: str, settings: dict) -> dict:
    state, events = new_game(seed=name, **settings)
    bots = [RandomBot(f"{name}:{seat}") for seat in range(settings["players"])]
    commands = []
    while not state.finished:
        kind, seat = state.pending
        command = bots[seat].choose(legal_commands(state, seat))
        commands.append({"by": command.seat, "command": command.to_dict()})
        state, new = step(state, command)
        events += new
    return {
        "settings": {**settings, "seed": name},
        "commands": commands,
        "events": [e.to_dict() for e in events],
        "final": {
            "version": state.version,
            "hand_number": state.hand_number,
            "scores": list(state.scores),
            "hands_won": list(state.hands_won),
            "winner": state.winner,
            "placings": list(state.placings),
            "ranks": list(state.ranks),
        },
    }


if __name__ == "__main__":
    here = pathlib.Path(__file__).parent
    for name, settings in GAMES.items():
        (here / f"{name}.json").write_text(
            json.dumps(play(name, settings), separators=(",", ":")) + "\n"
        )
        print("recorded", name)
