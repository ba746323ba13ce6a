#!/usr/bin/env python3
"""Where a match's lost games were lost: for each game gametree lost, the first position
of the game with at most PIECES pieces on the board, searched by `gametree checkers best`
for SECONDS with the endgame databases in DATABASE (`gametree checkers endgame --output`);
prints how often the search proves the loss there, proves nothing, or (never, if the record
is right) proves a win.

Usage: python3 where-lost.py RECORD.jsonl PIECES SECONDS DATABASE
Needs the gametree Python package (python/README.md) to replay the moves, and the gametree
binary in GAMETREE_BIN (default target/release/gametree)."""
import collections
import json
import os
import subprocess
import sys

import gametree

PROVEN = 50_000  # a value beyond it comes from the databases (100,000 and a bonus)


def piece_count(fen):
    """Pieces on the board of a PDN FEN such as `B:W21,K22:B1,2`."""
    return sum(len([square for square in side[1:].split(",") if square])
               for side in fen.split(":")[1:])


def first_position_within(moves, pieces):
    """The FEN of the first position of the game with at most `pieces` pieces that is not
    over, or None."""
    game = gametree.Checkers()
    for move in moves:
        game.play(move)
        if piece_count(game.fen) <= pieces and game.result is None:
            return game.fen
    return None


def black_value(binary, fen, seconds, database):
    """`checkers best`'s value of `fen`, from Black's side."""
    output = subprocess.run(
        [binary, "checkers", "best", "--fen", fen, "--time", seconds,
         "--endgame", database, "--eval", "learned", "--quiet"],
        capture_output=True, text=True, check=True).stdout
    value_line = next(line for line in output.splitlines() if line.startswith("value"))
    return int(value_line.split()[1])


def main():
    record, pieces, seconds, database = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    binary = os.environ.get("GAMETREE_BIN", "target/release/gametree")
    counts = collections.Counter()
    with open(record) as lines:
        games = [json.loads(line) for line in lines]
    for game in games:
        if game["points"] != 0:
            continue
        fen = first_position_within(game["moves"], pieces)
        if fen is None:
            counts["never that few pieces"] += 1
            continue
        value = black_value(binary, fen, seconds, database)
        gametree_value = value if game["gametree"] == "black" else -value
        if gametree_value < -PROVEN:
            counts["loss proven"] += 1
        elif gametree_value > PROVEN:
            counts["win proven"] += 1
        else:
            counts["nothing proven"] += 1
    losses = sum(counts.values())
    print(f"{record}: {losses} losses; at the first position of at most {pieces} pieces, "
          f"{seconds} s a search: " + ", ".join(f"{name} {count}" for name, count in
                                                sorted(counts.items())))


if __name__ == "__main__":
    main()
