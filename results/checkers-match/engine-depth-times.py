#!/usr/bin/env python3
"""Times GuiNN's own moves at several depths, to choose the depth nearest a time a move.

Usage: GAMETREE_GUINN=/path/to/guinn_cli python3 engine-depth-times.py RECORD.jsonl DEPTHS GAMES
(DEPTHS comma-separated). Takes GAMES games spread over an earlier match's record against
GuiNN; for each game, `newgame`, then replays the record through the driver's own `moves`
and, at each ply from the fourth where GuiNN was to move, times `go DEPTH game-so-far`
(tables kept through the game, as in a match). Prints the mean, median and longest time a
move at each depth. The driver's protocol is in examples/checkers_match.rs."""
import json, subprocess, sys, time, statistics, os
GUINN = os.environ.get("GAMETREE_GUINN") or sys.exit("set GAMETREE_GUINN to the GuiNN driver")
record = sys.argv[1]; depths = [int(d) for d in sys.argv[2].split(",")]; ngames = int(sys.argv[3])
START = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
games = [json.loads(l) for l in open(record)]
step = max(1, len(games) // ngames)
games = games[::step][:ngames]
p = subprocess.Popen([GUINN], cwd=os.path.dirname(os.path.abspath(GUINN)), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(s): p.stdin.write(s + "\n"); p.stdin.flush()
def until(w):
    while True:
        l = p.stdout.readline()
        if not l: raise SystemExit("engine died")
        l = l.strip()
        if l.split()[:1] == [w]: return l
until("ready")
def norm(m):
    sep = "x" if "x" in m else "-"; s = m.replace("x", "-").split("-"); return (s[0], s[-1], sep)
def after(fen, move):
    send("moves " + fen); n = int(until("moves").split()[1])
    lines = [p.stdout.readline().split() for _ in range(n)]
    cands = [f for f, mv in lines if norm(mv) == norm(move)]
    if len(cands) != 1: raise SystemExit(f"cannot replay {move} at {fen}: {lines}")
    return cands[0]
for d in depths:
    times = []
    for g in games:
        send("newgame"); until("ok")
        guinn_black = g["gametree"] == "white"
        fens = [START]
        for ply, mv in enumerate(g["moves"]):
            black_to_move = ply % 2 == 0
            if ply >= 3 and black_to_move == guinn_black:
                t = time.perf_counter(); send(f"go {d} " + "|".join(fens)); until("result"); until("info")
                times.append(time.perf_counter() - t)
            fens.append(after(fens[-1], mv))
    print(f"depth {d}: {len(times)} moves over {len(games)} games, mean {1000*statistics.mean(times):.0f} ms, median {1000*statistics.median(times):.0f} ms, max {1000*max(times):.0f} ms", flush=True)
send("quit")
