#!/usr/bin/env python3
"""Times GuiNN's own moves at several depths, to choose the depth nearest a time a move.

Usage: GAMETREE_GUINN=/path/to/guinn_cli python3 engine-depth-times.py RECORD.jsonl DEPTHS GAMES
(DEPTHS comma-separated). Takes GAMES games spread over an earlier match's record against
GuiNN; for each game, `newgame`, then replays the record through the driver's own `moves`
and, at each ply from the fourth where GuiNN was to move, times `go DEPTH game-so-far`
(tables kept through the game, as in a match). Prints the mean, median and longest time a
move at each depth. The driver's protocol is in examples/checkers_match.rs."""
import json
import os
import statistics
import subprocess
import sys
import time

START = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
BALLOT_PLIES = 3  # a three-move ballot's moves are not the engine's


class Driver:
    """The GuiNN driver's line protocol: one command a line, answers read to a keyword."""

    def __init__(self, path):
        self.process = subprocess.Popen(
            [path], cwd=os.path.dirname(os.path.abspath(path)),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.read_until("ready")

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def read_until(self, word):
        while True:
            line = self.process.stdout.readline()
            if not line:
                sys.exit("the engine stopped")
            if line.split()[:1] == [word]:
                return line.strip()

    def position_after(self, fen, move):
        """The FEN after `move` (notation as in the record: a capture may name its end only)."""
        self.send("moves " + fen)
        count = int(self.read_until("moves").split()[1])
        listed = [self.process.stdout.readline().split() for _ in range(count)]
        matching = [after for after, text in listed if ends_of(text) == ends_of(move)]
        if len(matching) != 1:
            sys.exit(f"cannot replay {move} at {fen}: {listed}")
        return matching[0]


def ends_of(move):
    """A move's first and last square and whether it captures."""
    squares = move.replace("x", "-").split("-")
    return squares[0], squares[-1], "x" in move


def main():
    path = os.environ.get("GAMETREE_GUINN") or sys.exit("set GAMETREE_GUINN to the GuiNN driver")
    record, depths, game_count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with open(record) as lines:
        games = [json.loads(line) for line in lines]
    games = games[:: max(1, len(games) // game_count)][:game_count]
    driver = Driver(path)
    for depth in (int(d) for d in depths.split(",")):
        seconds = []
        for game in games:
            driver.send("newgame")
            driver.read_until("ok")
            guinn_is_black = game["gametree"] == "white"
            fens = [START]
            for ply, move in enumerate(game["moves"]):
                if ply >= BALLOT_PLIES and (ply % 2 == 0) == guinn_is_black:
                    start = time.perf_counter()
                    driver.send(f"go {depth} " + "|".join(fens))
                    driver.read_until("result")
                    driver.read_until("info")
                    seconds.append(time.perf_counter() - start)
                fens.append(driver.position_after(fens[-1], move))
        print(f"depth {depth}: {len(seconds)} moves over {len(games)} games, "
              f"mean {1000 * statistics.mean(seconds):.0f} ms, "
              f"median {1000 * statistics.median(seconds):.0f} ms, "
              f"longest {1000 * max(seconds):.0f} ms", flush=True)
    driver.send("quit")


if __name__ == "__main__":
    main()
