"""gametree: game-tree search after McCarthy and Slagle, from Python.

McCarthy's alpha-beta with principal lines and proofs, Slagle's m&n, iterative deepening
with killers and a transposition table, and a null-window solver, all written in Rust, on:

* explicit trees in the seeds' S-expression notation: ``Tree("((3 5) (2 9))")``;
* McCarthy's tic-tac-toe (``TicTacToe``), checkers (``Checkers``), Connect Four
  (``ConnectFour``) and Kalah (``Kalah``);
* any game written in Python: an object with ``to_move()``, ``moves()``, ``play(move)``
  and ``undo(move)``, and ``value()`` or ``evaluate()`` (see ``help(gametree.search)``
  and docs/python.md);
* any two-player, zero-sum, perfect-information OpenSpiel game, through
  ``gametree.openspiel``.

The searches of the games written in Rust release the GIL; a Python game's searches hold
it, since every callback needs it. Bad input raises ``InputError`` (a ``ValueError``) with
the message the ``gametree`` command line prints.

>>> import gametree
>>> gametree.Tree("((3 5) (2 9))").line()["line"]
[1, 1]
>>> gametree.ConnectFour("445566").analyze()[2]
18
"""

from ._gametree import (
    Checkers,
    ConnectFour,
    InputError,
    Kalah,
    Player,
    SearchResult,
    TicTacToe,
    Tree,
    __version__,
    alphabeta,
    line,
    minimax,
    mn_alphabeta,
    mn_minimax,
    proof,
    search,
    search_m_and_n,
    search_to_end,
    solve,
)

#: The maximizing player: X, Black, South, the first player.
MAX = Player.MAX
#: The minimizing player.
MIN = Player.MIN

__all__ = [
    "Checkers",
    "ConnectFour",
    "InputError",
    "Kalah",
    "MAX",
    "MIN",
    "Player",
    "SearchResult",
    "TicTacToe",
    "Tree",
    "__version__",
    "alphabeta",
    "line",
    "minimax",
    "mn_alphabeta",
    "mn_minimax",
    "proof",
    "search",
    "search_m_and_n",
    "search_to_end",
    "solve",
]
