"""OpenSpiel's C++ MCTS bot, playouts per second: the table of
benches/versus_minimax_crate.rs for OpenSpiel, on one thread.

Not run by CI. Install OpenSpiel in a virtual environment outside the repository and run
it from the repository's root:

    python3 -m venv /tmp/openspiel-venv
    /tmp/openspiel-venv/bin/pip install open-spiel
    /tmp/openspiel-venv/bin/python benches/openspiel_mcts.py

Settings, from the environment as for the Rust bench: CONNECT_FOUR_PLAYOUTS (default
200 000), TIC_TAC_TOE_PLAYOUTS (default 100 000), REPETITIONS (default 3).

The bot is `pyspiel.MCTSBot` (C++; Python only starts each search) with
`RandomRolloutEvaluator(n_rollouts=1)`, UCT with c = √2 (gametree's default), memory
enough that it never collects its tree, seed 1: on connect_four with its solver
(`solve=True`, as gametree's MCTS-Solver), on tic_tac_toe without (it would prove the
draw and stop early, as gametree's would). One simulation is what gametree and the
`minimax` crate call a playout: a descent by UCT, the expansion of one node, one uniformly
random game to its end from the new node (none when the descent ends at a finished game)
and the back-up; `root.explore_count` counts them. Each search is timed from the bot's
construction to the freeing of its tree. The rollouts (simulations that played a random
game) are counted afterwards in one more search with the same seeds, which is the same
search: the simulations that ended at a finished game are the visits of the tree's
terminal nodes, which OpenSpiel marks with their outcome.
"""

import os
import sys
import time

import pyspiel

SEED = 1
UCT_C = 2**0.5
MAX_MEMORY_MB = 8192


def setting(name, default):
    text = os.environ.get(name)
    return default if text is None else int(text.replace("_", ""))


def search(game, playouts, solve):
    """One search from the empty board: the root of its tree."""
    evaluator = pyspiel.RandomRolloutEvaluator(1, SEED)
    bot = pyspiel.MCTSBot(game, evaluator, UCT_C, playouts, MAX_MEMORY_MB, solve, SEED, False)
    root = bot.mcts_search(game.new_initial_state())
    assert root.explore_count == playouts, (root.explore_count, playouts)
    return root


def timed(game, playouts, solve):
    began = time.perf_counter()
    root = search(game, playouts, solve)
    del root
    return time.perf_counter() - began


def ended_in_tree(node):
    """Simulations that ended at a finished game below `node`: a terminal node has an
    outcome and no children (a solved inner node has children)."""
    total = 0
    stack = [node]
    while stack:
        node = stack.pop()
        children = node.children
        if children:
            stack.extend(children)
        elif node.outcome:
            total += node.explore_count
    return total


def main():
    repetitions = setting("REPETITIONS", 3)
    rows = [
        ("connect four", "connect_four", setting("CONNECT_FOUR_PLAYOUTS", 200_000), True),
        ("tic-tac-toe", "tic_tac_toe", setting("TIC_TAC_TOE_PLAYOUTS", 100_000), False),
    ]
    games = {name: pyspiel.load_game(name) for _, name, _, _ in rows}
    seconds = [
        [timed(games[name], playouts, solve) for _, name, playouts, solve in rows]
        for _ in range(repetitions)
    ]
    rollouts = [
        playouts - ended_in_tree(search(games[name], playouts, solve))
        for _, name, playouts, solve in rows
    ]
    library = f"OpenSpiel {version()}"
    print(f"{'game':<13} {'library':<25} {'playouts':>9} {'seconds':>7} "
          f"{'playouts/s':>11} {'rollouts/s':>11}")
    for index, (label, _, playouts, _) in enumerate(rows):
        for repetition in seconds:
            elapsed = repetition[index]
            print(f"{label:<13} {library:<25} {playouts:>9} {elapsed:>7.3f} "
                  f"{playouts / elapsed / 1e6:>10.3f}M {rollouts[index] / elapsed / 1e6:>10.3f}M")
    print()
    print(f"{'game':<13} {'library':<25} {'playouts':>9} {'rollouts':>9} {'share':>7}")
    for index, (label, _, playouts, _) in enumerate(rows):
        share = 100 * rollouts[index] / playouts
        print(f"{label:<13} {library:<25} {playouts:>9} {rollouts[index]:>9} {share:>6.1f}%")


def version():
    try:
        from importlib.metadata import version as package_version

        return package_version("open-spiel")
    except Exception:  # noqa: BLE001 - a source build has no package metadata
        return "?"


if __name__ == "__main__":
    sys.exit(main())
