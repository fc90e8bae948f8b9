"""Engine speed, side by side with RLCard's UNO game in one run.

    .venv/bin/python bench/engine.py [--hands 2000] [--rounds 5] [--players 2,4,10] [--json]
    .venv/bin/python bench/engine.py --profile spin/4 [--hands 2000]
    .venv/bin/python bench/engine.py --apart [--hands 2000] [--rounds 5]

Measures, for our engine, the time per hand of every edition against classic at 2, 4 and 10
players with the simulator's bots (``python -m rules.simulate --fast``: random bots choosing
among ``legal_commands``, no checks), and classic against RLCard 1.2.0's bare ``UnoGame`` with
2 players under RLCard's policy; and the replay speed of a whole game to 500. RLCard is
installed in its own environment (bench/.venv-rlcard, created on first use; it is not a
dependency of the project).

Every figure is CPU time of the process that does the work (``time.process_time``), so other
work on the machine weighs less. Every kind of hand is played once before timing (imports,
caches). Each round measures everything once with the same seeds, so every round plays the same
hands. At each table size the editions take turns, a chunk of hands each (``--chunk``, 20),
each chunk a game of its own seed: the hands measured are many short games, and a moment when
the machine is busier weighs on every edition alike. (Chunks are short so that, best of rounds,
most of them have a round the machine's slow spells missed.) The order turns from chunk to
chunk and from round to round; a ratio is taken within a round (an edition against classic at
the same table size) and reported as the median of the rounds, with the lowest and highest.
Against RLCard the two sides take turns the same way, in pieces of 500 hands, each piece seeded
alike and each played in a fresh process on both sides (warmed up alike, 200 untimed hands).
Every round plays the same work, so a ratio is also given best of rounds: the sums of each
chunk's (or piece's) fastest time over the rounds, as ``timeit`` reads its repeats (on a shared
machine a slower time is other work getting in the way, not the code). Hands differ a lot in
length, so a ratio also depends on which hands were played: each edition's ratio comes with the
middle 95% of the ratios the chunks give when drawn again with replacement (a bootstrap), which
more hands (``--hands``) narrow.

``--apart [CHUNKS]`` plays each edition's chunks in fresh processes instead, CHUNKS (10) at a
time, each process warmed up as the shared one is (30 hands of its edition first), the
editions still taking turns piece by piece: an edition's time then owes nothing to the other
editions' tables and events sharing its process (as the comparison with RLCard is measured).
The default, every edition in one process, is the measure the targets are read from.

Policies: ``full`` is the simulator's bots (sometimes draw instead of playing, bluff and
challenge Wild Draw 4s, forget UNO and catch); ``rlcard`` plays like RLCard's random agent
(a random playable card whenever there is one, Wild Draw 4 only when nothing else plays, the
drawn card when it plays, UNO always called, never challenge), so both play the same game.

``--profile EDITION/PLAYERS`` profiles that edition's hands with the simulator's bots instead
(cProfile, from the standard library: its figures are inflated by its own cost per call, so
read them for where the time goes, not for how much there is).

``--parts EDITION/PLAYERS`` splits the time per hand of that edition and of classic, the same
hands, into the simulator's parts: deciding (``step``), listing the legal commands (the
seats' turns and their looks out of turn), the bots' choosing, the digest of the events, and
the rest of the loop; each part best of ``--rounds``, with the edition's ratio to classic.
Each part is timed by a wrapper around it (``time.perf_counter``), whose own cost counts in
the part: compare the editions part by part, not with the other figures.

``--instructions EDITION/PLAYERS`` counts instead of timing: the instructions a hand of that
edition and of classic take under valgrind's cachegrind (150 hands of seed 7 after 30 to warm
up, less the same run without them), and with ``--cache-sim`` the first-level data misses and
the misses of a second-level cache of this machine's size. The counts are the same from run to
run, so two versions of the code compare exactly.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# Run as a script, bench/ comes first on the path, where bench/http.py would stand in for the
# standard library's http package: take the folder off, put the project on.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

from rules.bots import RandomBot  # noqa: E402
from rules.commands import Command, PlayCard  # noqa: E402
from rules.engine import legal_commands, new_game, replay, step  # noqa: E402
from rules.simulate import run  # noqa: E402
from rules.variants import variant_names  # noqa: E402

RLCARD_VENV = ROOT / "bench" / ".venv-rlcard"
RLCARD_PIECE = 500  # hands in each piece of the comparison with RLCard, the sides taking turns
RLCARD_SCRIPT = r"""
import random, sys, time
from rlcard.games.uno.game import UnoGame
hands, seed = int(sys.argv[1]), int(sys.argv[2])
game = UnoGame(num_players=2)
rng = random.Random(7)
for _ in range(200):  # untimed: imports and first-use costs, as our side's warm-up
    game.init_game()
    while not game.is_over():
        game.step(rng.choice(game.get_legal_actions()))
rng = random.Random(seed)
steps = 0
start = time.process_time()
for _ in range(hands):
    game.init_game()
    while not game.is_over():
        game.step(rng.choice(game.get_legal_actions()))
        steps += 1
seconds = time.process_time() - start
print(seconds, steps)
"""


class RLCardLikeBot(RandomBot):
    """Plays as RLCard's random agent does: never draws or keeps a card it could play."""

    def choose(self, commands: list[Command]) -> Command:
        # A legal list starts with the plays. A play that leaves one card is listed without
        # and then with the UNO call, so the second entry says whether the calls are there.
        first = commands[0]
        if first.__class__ is PlayCard:
            second = commands[1]
            if second.__class__ is not PlayCard:
                return first  # one way to play (often the card just drawn)
            calls = second.uno  # type: ignore[attr-defined]
            plays = [
                c
                for c in commands
                if c.__class__ is PlayCard and c.uno is calls and c.card != "W4"  # type: ignore[attr-defined]
            ]
            if not plays:  # Wild Draw 4 only when nothing else plays
                plays = [c for c in commands if c.__class__ is PlayCard and c.uno is calls]  # type: ignore[attr-defined]
            return self.rng.choice(plays)
        options = [c for c in commands if c.type in PASSIVE]
        return options[0] if len(options) == 1 else self.rng.choice(options or commands)


PASSIVE = frozenset({"accept", "deal", "draw", "pass", "choose_colour"})


def ensure_rlcard() -> Path:
    python = RLCARD_VENV / "bin" / "python"
    if not python.exists():
        print("creating bench/.venv-rlcard with rlcard==1.2.0 ...", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", str(RLCARD_VENV)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "rlcard==1.2.0"], check=True)
    return python


def rlcard_seconds(python: Path, hands: int, seed: int) -> tuple[float, int]:
    """RLCard's CPU seconds and steps for ``hands`` hands under its random agent (seeded)."""
    out = subprocess.run(
        [str(python), "-c", RLCARD_SCRIPT, str(hands), str(seed)],
        check=True,
        capture_output=True,
        text=True,
    )
    seconds, steps = out.stdout.split()
    return float(seconds), int(steps)


def ours_rlcard_seconds(hands: int, seed: int) -> tuple[float, int]:
    """Our CPU seconds and commands for ``hands`` hands of classic, 2 players, bots playing as
    RLCard's random agent."""
    state, _ = new_game(variant="classic", players=2, seed=f"bench:{seed}", target=10**9)
    bots = [RLCardLikeBot(f"bench:{seed}:{seat}") for seat in range(2)]
    played = commands = 0
    last = state.last_hand
    start = time.process_time()
    while played < hands:
        kind, seat = state.pending
        state, _ = step(state, bots[seat].choose(legal_commands(state, seat)))
        commands += 1
        if state.last_hand is not last:
            last = state.last_hand
            played += 1
    return time.process_time() - start, commands


def ours_piece(hands: int, seed: int) -> tuple[float, int]:
    """``ours_rlcard_seconds`` in a process of its own, warmed up as RLCard's side is (200
    untimed hands first): both sides of the comparison are measured the same way, neither
    carrying what the other measurements left in its process."""
    out = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--ours-piece", f"{hands}:{seed}"],
        check=True,
        capture_output=True,
        text=True,
    )
    seconds, commands = out.stdout.split()
    return float(seconds), int(commands)


def against_rlcard(
    python: Path, hands: int, piece: int, first: str
) -> tuple[dict[str, dict[str, float]], dict[str, list[float]]]:
    """Classic (RLCard's policy) and RLCard's ``UnoGame``, 2 players, ``hands`` hands each, in
    pieces of ``piece`` hands taken in turn (each piece its own seed on both sides, each in a
    fresh process), so both are measured side by side. ``first``: which side opens each pair.
    Returns the figures and, for each side, the seconds of each piece."""
    totals = {"ours": [0.0, 0], "rlcard": [0.0, 0]}
    seconds_of: dict[str, list[float]] = {"ours": [], "rlcard": []}
    pieces = max(1, -(-hands // piece))
    for i in range(pieces):
        size = min(piece, hands - i * piece)
        for side in ("rlcard", "ours") if first == "rlcard" else ("ours", "rlcard"):
            if side == "rlcard":
                seconds, steps = rlcard_seconds(python, size, i)
            else:
                seconds, steps = ours_piece(size, i)
            totals[side][0] += seconds
            totals[side][1] += steps
            seconds_of[side].append(seconds)
    played = hands
    ours, theirs = totals["ours"], totals["rlcard"]
    figures = {
        "classic/rlcard/2": {
            "hands_per_second": played / ours[0],
            "commands_per_hand": ours[1] / played,
            "seconds_per_hand_us": ours[0] / played * 1e6,
        },
        "rlcard/2": {
            "hands_per_second": played / theirs[0],
            "steps_per_hand": theirs[1] / played,
            "steps_per_second": theirs[1] / theirs[0],
        },
    }
    return figures, seconds_of


def ours_hands_per_second(variant: str, players: int, hands: int) -> dict[str, float]:
    """An edition's figures for ``hands`` hands with the simulator's bots."""
    return chunk_figures(played_chunks([variant], players, hands, hands)[variant])


def played_chunks(
    variants: list[str],
    players: int,
    hands: int,
    chunk: int,
    seconds_of: dict[str, list[float]] | None = None,
    apart: int | None = None,
) -> dict[str, list[float]]:
    """Play ``hands`` hands of each of ``variants`` with the simulator's bots, in chunks of
    ``chunk`` hands taken in turn (every edition's first chunk, then every edition's second,
    the order turning each time), so the editions are measured side by side: a moment when
    the machine is busier weighs on each alike. Chunk ``i`` is a game of its own seed
    (``bench:i``), the same in every round, so a measurement is many short games rather than
    one long one. For each edition: its CPU seconds, hands, commands and events, summed (and,
    in ``seconds_of`` when given, the seconds of each chunk). ``apart``: instead, each
    edition's chunks are played that many at a time in a fresh process (``chunks_apart``),
    the editions taking turns the same way, so no edition shares a process with another."""
    totals = {variant: [0.0, 0, 0, 0] for variant in variants}
    chunks = -(-hands // chunk)
    step = apart or 1
    for first in range(0, chunks, step):
        shift = first // step % len(variants)
        for variant in variants[shift:] + variants[:shift]:
            if apart:
                got = chunks_apart(variant, players, first, min(step, chunks - first), chunk, hands)
            else:
                size = min(chunk, hands - first * chunk)
                got = [_timed_chunk(variant, players, first, size)]
            total = totals[variant]
            for seconds, played, commands, events in got:
                if seconds_of is not None:
                    seconds_of.setdefault(variant, []).append(seconds)
                total[0] += seconds
                total[1] += played
                total[2] += commands
                total[3] += events
    return totals


def _timed_chunk(variant: str, players: int, i: int, size: int) -> tuple[float, int, int, int]:
    """Chunk ``i`` (a game of seed ``bench:i``, ``size`` hands): its CPU seconds, hands,
    commands and events."""
    cpu = time.process_time()
    report = run(variant, players, f"bench:{i}", hands=size, checks=False)
    seconds = time.process_time() - cpu
    return seconds, report.hands, report.commands, report.events


def chunks_apart(
    variant: str, players: int, first: int, count: int, chunk: int, hands: int
) -> list[tuple[float, int, int, int]]:
    """Chunks ``first`` to ``first + count - 1`` of ``variant`` played in a fresh process,
    warmed up as the shared process is (30 hands of that edition and table size first):
    ``_timed_chunk``'s figures for each."""
    out = subprocess.run(
        [
            sys.executable,
            str(Path(__file__).resolve()),
            "--chunks-apart",
            f"{variant}:{players}:{first}:{count}:{chunk}:{hands}",
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    return [tuple(row) for row in json.loads(out.stdout)]


def chunk_figures(total: list[float]) -> dict[str, float]:
    seconds, hands, commands, events = total
    return {
        "hands_per_second": hands / seconds,
        "commands_per_hand": commands / hands,
        "events_per_hand": events / hands,
        "seconds_per_hand_us": seconds / hands * 1e6,
        "us_per_event": seconds / events * 1e6,
    }


def hands_interval(
    edition: list[float], classic: list[float], draws: int = 4000
) -> tuple[float, float]:
    """How much a ratio owes to which hands were played: the middle 95% of
    ``sum(edition) / sum(classic)`` over the chunks drawn again with replacement (a
    bootstrap, chunk ``i`` of both sides drawn together, as they were played side by side).
    Hands differ a lot in length, so two runs of different hands differ by about this much
    even on a quiet machine; more hands narrow it."""
    gen = random.Random(0)  # a fixed draw: the same figures give the same interval
    n = len(edition)
    ratios = []
    for _ in range(draws):
        picks = [gen.randrange(n) for _ in range(n)]
        ratios.append(sum(edition[i] for i in picks) / sum(classic[i] for i in picks))
    ratios.sort()
    return ratios[int(draws * 0.025)], ratios[int(draws * 0.975) - 1]


def replay_speed(players: int = 4, repeats: int = 50) -> dict[str, float]:
    """Replay a whole game to 500 (recorded once) many times; report the median."""
    state, events = new_game(players=players, seed="replay-bench", target=500)
    bots = [RandomBot(f"replay:{seat}") for seat in range(players)]
    while not state.finished:
        kind, seat = state.pending
        state, new = step(state, bots[seat].choose(legal_commands(state, seat)))
        events += new
    times = []
    for _ in range(repeats):
        start = time.process_time()
        final = replay(events)
        times.append(time.process_time() - start)
    assert final == state
    median = statistics.median(times)
    return {
        "events": len(events),
        "hands": state.hand_number,
        "replay_ms": median * 1e3,
        "events_per_second": len(events) / median,
    }


def profile(variant: str, players: int, hands: int) -> int:
    """Where the time of ``hands`` hands goes, by function (the 40 costliest of their own)."""
    import cProfile
    import pstats

    run(variant, players, "bench", hands=30, checks=False)  # warm up, as the timed runs
    profiler = cProfile.Profile()
    profiler.runcall(run, variant, players, "bench", hands=hands, checks=False)
    pstats.Stats(profiler).sort_stats("tottime").print_stats(40)
    return 0


def parts(variant: str, players: int, hands: int, rounds: int) -> int:
    """Print the time per hand of ``variant`` and classic split into the simulator's parts."""
    import rules.simulate as simulate

    clock = time.perf_counter
    names = ("deciding", "legal commands", "bots choosing", "digest")
    best: dict[str, dict[str, float]] = {}
    counts: dict[str, tuple[float, float]] = {}
    originals = (simulate.step, simulate.legal_commands, RandomBot.choose)

    def timed(spent: dict[str, float], part: str, fn: Any) -> Any:
        def wrapper(*args: Any) -> Any:
            started = clock()
            try:
                return fn(*args)
            finally:
                spent[part] += clock() - started

        return wrapper

    for r in range(rounds * 2):
        edition = (variant, "classic")[(r + r // 2) % 2]  # the sides take turns, first and second
        spent = dict.fromkeys(names, 0.0)
        sim = simulate.Simulation(edition, players, "bench-parts", checks=False)
        sim._record = timed(spent, "digest", sim._record)  # type: ignore[method-assign]
        simulate.step = timed(spent, "deciding", originals[0])
        simulate.legal_commands = timed(spent, "legal commands", originals[1])
        RandomBot.choose = timed(spent, "bots choosing", originals[2])  # type: ignore[method-assign]
        try:
            started, game = clock(), 0
            while sim.report.hands < hands:
                left = hands - sim.report.hands
                sim.play(target=10**9, scoring="standard", game_seed=f"g{game}", max_hands=left)
                game += 1
            spent["rest of the loop"] = clock() - started - sum(spent.values())
        finally:
            simulate.step, simulate.legal_commands, RandomBot.choose = originals  # type: ignore[method-assign]
        played = sim.report.hands
        counts[edition] = (sim.report.commands / played, sim.report.events / played)
        mine = best.setdefault(edition, {})
        for part, seconds in spent.items():
            per_hand = seconds / played * 1e6
            mine[part] = min(mine.get(part, per_hand), per_hand)
    print(f"{variant} against classic, {players} players, {hands} hands, best of {rounds}:")
    print(f"{'us a hand':>20} {variant:>12} {'classic':>10} {'ratio':>7}")
    for part in (*names, "rest of the loop"):
        ours, theirs = best[variant][part], best["classic"][part]
        print(f"{part:>20} {ours:12.0f} {theirs:10.0f} {ours / theirs:7.2f}")
    ours, theirs = sum(best[variant].values()), sum(best["classic"].values())
    print(f"{'all':>20} {ours:12.0f} {theirs:10.0f} {ours / theirs:7.2f}")
    for edition, (commands, events) in counts.items():
        print(f"{edition}: {commands:.1f} commands and {events:.1f} events a hand")
    return 0


def _cache_sizes() -> tuple[tuple[int, int], tuple[int, int]]:
    """This machine's first-level data cache and second-level cache: each its size in bytes
    and its ways (what Linux reports for the first CPU; 32 KiB 8-way and 1 MiB 16-way when it
    does not say). Cachegrind needs a power of two of sets: a cache whose reported ways do not
    give one (48 KiB 12-way does) is simulated with the nearest ways that do."""
    caches = {1: (32 * 1024, 8), 2: (1024 * 1024, 16)}
    for index in Path("/sys/devices/system/cpu/cpu0/cache").glob("index*"):
        try:
            level = int((index / "level").read_text())
            kind = (index / "type").read_text().strip()
            size = (index / "size").read_text().strip()
            ways = int((index / "ways_of_associativity").read_text())
        except (OSError, ValueError):
            continue
        if size.endswith("K") and (level, kind) in ((1, "Data"), (2, "Unified")) and ways > 0:
            caches[level] = (int(size[:-1]) * 1024, ways)
    for level, (size, ways) in caches.items():
        sets = size // (ways * 64)
        if sets & (sets - 1):  # not a power of two: round the sets down, the ways up
            sets = 1 << (sets.bit_length() - 1)
            caches[level] = (size, size // (sets * 64))
    return caches[1], caches[2]


def _counted(variant: str, players: int, warm: int, hands: int, cache: bool) -> dict[str, float]:
    """One run of this script under cachegrind, playing ``warm`` hands then ``hands`` hands:
    the instructions (and, with ``cache``, the simulated cache misses) of the whole process,
    and the commands and events a hand of the ``hands``."""
    options = ["--cache-sim=no"]
    if cache:
        (d1, d1_ways), (l2, l2_ways) = _cache_sizes()
        # The second-level cache stands as cachegrind's last level: what spills out of it.
        options = ["--cache-sim=yes", f"--D1={d1},{d1_ways},64", f"--LL={l2},{l2_ways},64"]
    command = [
        "valgrind",
        "--tool=cachegrind",
        *options,
        "--cachegrind-out-file=/dev/null",
        sys.executable,
        str(Path(__file__).resolve()),
        "--play-hands",
        f"{variant}:{players}:{warm}:{hands}",
    ]
    # The same string hashes in every run, so dictionaries and sets are laid out alike.
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
    figures: dict[str, float] = json.loads(done.stdout)
    names = {"I": "instructions", "D1": "D1 misses", "LL": "L2 misses"}
    for line in done.stderr.splitlines():
        _, _, rest = line.partition("== ")
        label, _, value = rest.partition(":")
        words = label.split()
        if words and words[0] in names and words[-1] in ("refs", "misses") and value.strip():
            figures[names[words[0]]] = int(value.split()[0].replace(",", ""))
    return figures


def instructions(variant: str, players: int, hands: int, cache: bool) -> int:
    """Print the instructions a hand of ``variant`` and of classic take, the same hands, under
    cachegrind: the same figures on every run, so two versions of the code compare exactly
    where timings move with the machine's load. Each edition is counted twice, with and
    without the measured hands (both after 30 hands to warm up), and the difference is taken:
    what starting the interpreter and warming up cost drops out."""
    from concurrent.futures import ThreadPoolExecutor

    if subprocess.run(["valgrind", "--version"], capture_output=True).returncode != 0:
        print("--instructions needs valgrind (Debian: apt install valgrind)", file=sys.stderr)
        return 2
    editions = (variant, "classic")
    jobs = [(edition, measured) for edition in editions for measured in (hands, 0)]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        runs = list(pool.map(lambda job: _counted(job[0], players, 30, job[1], cache), jobs))
    counted = dict(zip(jobs, runs, strict=True))
    kinds = ["instructions", *(["D1 misses", "L2 misses"] if cache else [])]
    print(
        f"{variant} against classic, {players} players, {hands} hands (a hand, under cachegrind):"
    )
    print(f"{'':>14} {variant:>14} {'classic':>14} {'ratio':>7}")
    per_hand = {
        kind: [
            (counted[edition, hands][kind] - counted[edition, 0][kind]) / hands
            for edition in editions
        ]
        for kind in kinds
    }
    for kind, (ours, theirs) in per_hand.items():
        print(f"{kind:>14} {ours:14,.0f} {theirs:14,.0f} {ours / theirs:7.3f}")
    for edition in editions:
        got = counted[edition, hands]
        print(f"{edition}: {got['commands']:.1f} commands and {got['events']:.1f} events a hand")
    return 0


def _play_hands(variant: str, players: int, warm: int, hands: int) -> None:
    """What ``--instructions`` counts: ``warm`` hands, then ``hands`` hands of seed 7."""
    if warm:
        run(variant, players, "warm", hands=warm, checks=False)
    report = run(variant, players, "7", hands=hands, checks=False) if hands else None
    played = report.hands if report else 1
    print(
        json.dumps(
            {
                "commands": report.commands / played if report else 0.0,
                "events": report.events / played if report else 0.0,
            }
        )
    )


def _warm_up(variants: list[str], tables: list[int]) -> None:
    """Play a few hands of every measured kind first: imports and the engine's caches of
    commands and events are filled before any round is timed."""
    for players in tables:
        for variant in variants:
            ours_hands_per_second(variant, players, 30)
    ours_rlcard_seconds(30, -1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--hands",
        type=int,
        default=None,
        help="hands per measurement (2000; 150 with --instructions)",
    )
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--chunk", type=int, default=20, help="hands per chunk, the editions taking turns"
    )
    parser.add_argument("--variants", default=",".join(variant_names()))
    parser.add_argument("--players", default="2,4,10", help="table sizes, comma separated")
    parser.add_argument("--no-rlcard", action="store_true")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--apart",
        type=int,
        nargs="?",
        const=10,
        default=None,
        metavar="CHUNKS",
        help="play each edition's chunks in fresh processes, CHUNKS (10) at a time, instead "
        "of every edition in this one",
    )
    parser.add_argument("--ours-piece", metavar="HANDS:SEED", help=argparse.SUPPRESS)
    parser.add_argument(
        "--chunks-apart", metavar="EDITION:PLAYERS:FIRST:COUNT:CHUNK:HANDS", help=argparse.SUPPRESS
    )
    parser.add_argument(
        "--profile",
        metavar="EDITION/PLAYERS",
        help="instead: profile that edition's hands with the simulator's bots (cProfile)",
    )
    parser.add_argument(
        "--parts",
        metavar="EDITION/PLAYERS",
        help="instead: that edition's time per hand and classic's, part by part",
    )
    parser.add_argument(
        "--instructions",
        metavar="EDITION/PLAYERS",
        help="instead: that edition's instructions a hand and classic's, under cachegrind",
    )
    parser.add_argument(
        "--cache-sim",
        action="store_true",
        help="with --instructions: also the first- and second-level cache misses cachegrind "
        "simulates with this machine's sizes",
    )
    parser.add_argument(
        "--play-hands", metavar="EDITION:PLAYERS:WARM:HANDS", help=argparse.SUPPRESS
    )
    args = parser.parse_args()
    if args.hands is None:
        args.hands = 150 if args.instructions else 2000
    if args.apart is not None and args.apart < 1:
        parser.error("--apart takes how many chunks a process plays: 1 or more")
    if args.play_hands:  # what --instructions counts, in a process of its own
        variant, players, warm, hands = args.play_hands.split(":")
        _play_hands(variant, int(players), int(warm), int(hands))
        return 0
    if args.chunks_apart:  # some chunks of one edition, in this process of its own
        edition, *numbers = args.chunks_apart.split(":")
        seats, start, count, size, total = map(int, numbers)
        ours_hands_per_second(edition, seats, 30)  # untimed, as ``_warm_up``
        sizes = [(i, min(size, total - i * size)) for i in range(start, start + count)]
        print(json.dumps([_timed_chunk(edition, seats, i, n) for i, n in sizes]))
        return 0
    if args.instructions:
        variant, _, players = args.instructions.partition("/")
        return instructions(variant, int(players or 4), args.hands, args.cache_sim)
    if args.ours_piece:  # one piece of our side against RLCard, in this process of its own
        hands, _, seed = args.ours_piece.partition(":")
        ours_rlcard_seconds(200, -1)  # untimed, as RLCard's side warms up
        seconds, commands = ours_rlcard_seconds(int(hands), int(seed))
        print(seconds, commands)
        return 0
    if args.profile:
        variant, _, players = args.profile.partition("/")
        return profile(variant, int(players or 4), args.hands)
    if args.parts:
        variant, _, players = args.parts.partition("/")
        return parts(variant, int(players or 4), args.hands, args.rounds)
    variants = [v for v in args.variants.split(",") if v]
    if "classic" not in variants:
        variants.insert(0, "classic")
    tables = [int(p) for p in args.players.split(",") if p]
    editions = [v for v in variants if v != "classic"]
    python = None if args.no_rlcard else ensure_rlcard()

    samples: dict[str, list[dict[str, float]]] = {}
    # Ratios are taken within a round (the edition against classic at the same table size,
    # measured next to each other), then the median of the rounds is reported.
    round_ratios: dict[str, list[float]] = {}
    # The same work is done in every round (the same seeds), so the fastest time each chunk or
    # piece took over the rounds is the time it takes when nothing else gets in the way (as
    # ``timeit`` reads its repeats); a ratio of their sums is the best-of-rounds ratio.
    fastest: dict[str, list[float]] = {}

    def keep_fastest(key: str, seconds: list[float]) -> None:
        best = fastest.setdefault(key, list(seconds))
        best[:] = [min(a, b) for a, b in zip(best, seconds, strict=True)]

    def sample(key: str, value: dict[str, float]) -> dict[str, float]:
        samples.setdefault(key, []).append(value)
        return value

    _warm_up(variants, tables)
    for r in range(args.rounds):
        # Alternate who goes first in each pair, and the order of the editions, round by
        # round: a machine busier at one moment weighs on every side alike.
        if python is not None:
            first = "ours" if r % 2 else "rlcard"
            got, pieces = against_rlcard(python, args.hands, RLCARD_PIECE, first)
            for key, value in got.items():
                sample(key, value)
            for side, seconds in pieces.items():
                keep_fastest(f"rlcard-pieces/{side}", seconds)
            round_ratios.setdefault("classic vs rlcard, 2 players", []).append(
                got["classic/rlcard/2"]["hands_per_second"] / got["rlcard/2"]["hands_per_second"]
            )
        shift = r % len(variants)
        order = variants[shift:] + variants[:shift]
        if r % 2:
            order.reverse()
        for players in tables:
            times = {}
            chunk_seconds: dict[str, list[float]] = {}
            played = played_chunks(
                order, players, args.hands, args.chunk, chunk_seconds, apart=args.apart
            )
            for variant, seconds in chunk_seconds.items():
                keep_fastest(f"{variant}/{players}", seconds)
            for variant in order:
                got_one = sample(f"{variant}/full/{players}", chunk_figures(played[variant]))
                times[variant] = got_one["seconds_per_hand_us"]
            for variant in editions:
                round_ratios.setdefault(f"{variant}/{players}", []).append(
                    times[variant] / times["classic"]
                )
        if not args.json:
            print(f"round {r + 1} of {args.rounds} done", file=sys.stderr)

    result: dict[str, dict[str, float]] = {}
    for key, values in samples.items():
        result[key] = {k: round(statistics.median(v[k] for v in values), 2) for k in values[0]}
    result["replay/4"] = {k: round(v, 3) for k, v in replay_speed().items()}
    ratios = {
        key: {
            "median": round(statistics.median(values), 3),
            "min": round(min(values), 3),
            "max": round(max(values), 3),
        }
        for key, values in round_ratios.items()
    }
    for key in ratios:
        if key == "classic vs rlcard, 2 players":
            best = sum(fastest["rlcard-pieces/rlcard"]) / sum(fastest["rlcard-pieces/ours"])
        else:
            variant, _, players_ = key.partition("/")
            best = sum(fastest[key]) / sum(fastest[f"classic/{players_}"])
            low, high = hands_interval(fastest[key], fastest[f"classic/{players_}"])
            ratios[key]["hands_interval"] = [round(low, 3), round(high, 3)]
        ratios[key]["best_of_rounds"] = round(best, 3)
    out = {
        "python": sys.version.split()[0],
        "cpu_count": os.cpu_count(),
        "load_average": os.getloadavg(),
        "hands": args.hands,
        "chunk": args.chunk,
        "rounds": args.rounds,
        "apart": args.apart,
        "results": result,
        "ratios": ratios,
    }
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    for key, values in result.items():
        print(f"{key:>22}: " + ", ".join(f"{k}={v}" for k, v in values.items()))
    print()
    print(
        "time per hand against classic, the simulator's bots: the ratio of the chunks' fastest "
        f"times over {args.rounds} rounds [the median of the rounds' ratios (lowest-highest)]"
        + (
            f"; each edition in fresh processes of {args.apart} chunks"
            if args.apart
            else "; the editions in one process"
        )
    )
    print(f"{'edition':>12} " + " ".join(f"{f'{n} players':>24}" for n in tables))
    for variant in editions:
        cells = []
        for players in tables:
            ratio = ratios[f"{variant}/{players}"]
            cells.append(
                f"{ratio['best_of_rounds']:.2f} [{ratio['median']:.2f} "
                f"({ratio['min']:.2f}-{ratio['max']:.2f})]"
            )
        print(f"{variant:>12} " + " ".join(f"{c:>24}" for c in cells))
    print()
    print(
        "the best-of-rounds ratios' 95% interval from the hands played (a bootstrap over the "
        f"{-(-args.hands // args.chunk)} chunks): how far other hands could move them"
    )
    for variant in editions:
        cells = [
            "{:.2f}-{:.2f}".format(*ratios[f"{variant}/{players}"]["hands_interval"])
            for players in tables
        ]
        print(f"{variant:>12} " + " ".join(f"{c:>24}" for c in cells))
    if "classic vs rlcard, 2 players" in ratios:
        ratio = ratios["classic vs rlcard, 2 players"]
        print(
            f"classic against RLCard's UnoGame, 2 players, hands per second: "
            f"{ratio['best_of_rounds']:.2f}x [{ratio['median']:.2f}x "
            f"({ratio['min']:.2f}-{ratio['max']:.2f})]"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
