"""Any OpenSpiel game, searched by gametree.

OpenSpiel (``pip install open-spiel``) has over a hundred games. This module takes a
``pyspiel`` state of a two-player, zero-sum, perfect-information, sequential game without
chance, and runs gametree's searches on it through OpenSpiel's own callbacks: alpha-beta
with its principal line and proof, m&n, iterative deepening with a depth or time budget,
and the solver.

Player 0 is MAX and values are player 0's returns (``state.returns()[0]``); moves are
OpenSpiel actions (ints), and ``action_strings`` spells a line out in the game's notation.

>>> import pyspiel
>>> from gametree import openspiel
>>> state = pyspiel.load_game("tic_tac_toe").new_initial_state()
>>> openspiel.search_to_end(state).value
0.0
>>> openspiel.search(pyspiel.load_game("connect_four").new_initial_state(), depth=4).depth
4

The adapter plays moves with ``apply_action`` and takes them back with ``undo_action`` when
the game supports it (checked once), and otherwise keeps a stack of ``state.child(action)``
copies. Positions are told apart for the transposition table by ``str(state)`` and the
player to move (``transpositions=False`` turns that off, for a game whose text does not
identify its positions). A depth-limited search values its horizon with ``evaluate(state)``
(player 0's point of view), 0 by default.

The searches hold the GIL: every position is OpenSpiel's Python object. gametree has no
MCTS yet; when it has one, it will search these games the same way.
"""

from typing import Any, Callable, List, Optional, Sequence

from . import _gametree

__all__ = [
    "OpenSpielGame",
    "action_strings",
    "adapt",
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

#: A function valuing a non-terminal state for player 0 at a search's horizon.
Evaluator = Callable[[Any], float]


def _check(state: Any) -> None:
    """Raises ValueError unless gametree can search the state's game."""
    import pyspiel

    game = state.get_game()
    kind = game.get_type()
    reasons = []
    if game.num_players() != 2:
        reasons.append(f"it has {game.num_players()} players, not 2")
    if kind.utility != pyspiel.GameType.Utility.ZERO_SUM:
        reasons.append(f"its utility is {kind.utility.name}, not ZERO_SUM")
    if kind.information != pyspiel.GameType.Information.PERFECT_INFORMATION:
        reasons.append(f"its information is {kind.information.name}, not PERFECT_INFORMATION")
    if kind.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
        reasons.append(f"its dynamics are {kind.dynamics.name}, not SEQUENTIAL")
    if kind.chance_mode != pyspiel.GameType.ChanceMode.DETERMINISTIC:
        reasons.append(f"it has chance nodes ({kind.chance_mode.name})")
    if reasons:
        raise ValueError(
            f"gametree searches two-player, zero-sum, perfect-information, sequential games "
            f"without chance; {kind.short_name} is not one: {'; '.join(reasons)}"
        )


class OpenSpielGame:
    """A pyspiel state as a gametree game (see the module's documentation).

    The state given is copied: searches never change it. ``state`` is the position the
    search has reached (the copy, between searches).
    """

    def __init__(
        self,
        state: Any,
        evaluate: Optional[Evaluator] = None,
        transpositions: bool = True,
    ) -> None:
        _check(state)
        self._evaluate = evaluate
        root = state.clone()
        self._undoable = _supports_undo(root)
        self._states = [root]
        self._movers: List[int] = []
        if transpositions:
            self.key = self._key

    @property
    def state(self) -> Any:
        """The current state."""
        return self._states[-1]

    def to_move(self) -> int:
        """0 (MAX) or 1 (MIN); at the end of the game, the player who would move next."""
        player = self.state.current_player()
        if player >= 0:
            return player
        return 1 - self._movers[-1] if self._movers else 0

    def moves(self) -> List[int]:
        """The legal actions, in OpenSpiel's order."""
        return self.state.legal_actions()

    def play(self, action: int) -> None:
        """Applies `action` for the player to move."""
        player = self.state.current_player()
        if self._undoable:
            self.state.apply_action(action)
        else:
            self._states.append(self.state.child(action))
        self._movers.append(player)

    def undo(self, action: int) -> None:
        """Takes back `action`, the last action applied."""
        player = self._movers.pop()
        if self._undoable:
            self.state.undo_action(player, action)
        else:
            self._states.pop()

    def is_over(self) -> bool:
        """Whether the state is terminal."""
        return self.state.is_terminal()

    def value(self) -> float:
        """Player 0's return at the end of the game."""
        return self.state.returns()[0]

    def evaluate(self) -> float:
        """Player 0's return at the end of the game, else the evaluator's estimate (0)."""
        state = self.state
        if state.is_terminal():
            return state.returns()[0]
        if self._evaluate is None:
            return 0.0
        return self._evaluate(state)

    def _key(self) -> Any:
        state = self.state
        return (str(state), state.current_player())


#: Whether each game (by its full name) takes back moves with undo_action.
_UNDO_SUPPORT: dict = {}


def _supports_undo(state: Any) -> bool:
    """Whether `undo_action` takes back `apply_action` in this game (tried once per game:
    OpenSpiel prints a line on stderr when it cannot)."""
    if state.is_terminal():
        return False
    name = str(state.get_game())
    if name not in _UNDO_SUPPORT:
        _UNDO_SUPPORT[name] = _try_undo(state)
    return _UNDO_SUPPORT[name]


def _try_undo(state: Any) -> bool:
    trial = state.clone()
    before = (str(trial), trial.history())
    player = trial.current_player()
    action = trial.legal_actions()[0]
    try:
        trial.apply_action(action)
        trial.undo_action(player, action)
    except Exception:  # noqa: BLE001 - OpenSpiel raises SpielError, or aborts: any failure
        return False
    return (str(trial), trial.history()) == before


def adapt(
    state: Any, evaluate: Optional[Evaluator] = None, transpositions: bool = True
) -> OpenSpielGame:
    """The state as a gametree game, for gametree's own functions."""
    return OpenSpielGame(state, evaluate, transpositions)


def action_strings(state: Any, actions: Sequence[int]) -> List[str]:
    """The actions of a line from `state`, in the game's notation."""
    names = []
    current = state.clone()
    for action in actions:
        names.append(current.action_to_string(current.current_player(), action))
        current.apply_action(action)
    return names


def minimax(state: Any) -> dict:
    """McCarthy's vmax to the end of the game: {value, move, leaves, nodes}."""
    return _gametree.minimax(adapt(state))


def alphabeta(state: Any, alpha: Optional[float] = None, beta: Optional[float] = None) -> dict:
    """Alpha-beta's value in the window to the end of the game."""
    return _gametree.alphabeta(adapt(state), alpha, beta)


def line(state: Any, alpha: Optional[float] = None, beta: Optional[float] = None) -> dict:
    """Alpha-beta's value and principal line to the end of the game."""
    return _gametree.line(adapt(state), alpha, beta)


def proof(
    state: Any,
    alpha: Optional[float] = None,
    beta: Optional[float] = None,
    verify: bool = False,
) -> dict:
    """Alpha-beta's value with McCarthy's proofs pfmax and pfmin (nested lists of actions)."""
    return _gametree.proof(adapt(state), alpha, beta, verify)


def mn_minimax(state: Any, depth: Optional[int] = None, evaluate: Optional[Evaluator] = None, **slagle: float) -> dict:
    """Slagle's m&n minimaxing, to the end or to `depth` (m, n, x, y, r, s as keywords)."""
    return _gametree.mn_minimax(adapt(state, evaluate), depth=depth, **slagle)


def mn_alphabeta(state: Any, depth: Optional[int] = None, evaluate: Optional[Evaluator] = None, **slagle: float) -> dict:
    """Slagle's m&n alpha-beta, to the end or to `depth` (m, n, x, y, r, s as keywords)."""
    return _gametree.mn_alphabeta(adapt(state, evaluate), depth=depth, **slagle)


def search(
    state: Any,
    depth: Optional[int] = None,
    *,
    time_limit: Optional[float] = None,
    max_nodes: Optional[int] = None,
    evaluate: Optional[Evaluator] = None,
    table_mib: int = 0,
    killers: bool = True,
    transpositions: bool = True,
) -> "_gametree.SearchResult":
    """Iterative-deepening alpha-beta to `depth` plies or for `time_limit` seconds, the
    horizon valued by `evaluate(state)` (0 by default)."""
    return _gametree.search(
        adapt(state, evaluate, transpositions),
        depth,
        time_limit=time_limit,
        max_nodes=max_nodes,
        table_mib=table_mib,
        killers=killers,
    )


def search_m_and_n(
    state: Any,
    depth: Optional[int] = None,
    *,
    evaluate: Optional[Evaluator] = None,
    time_limit: Optional[float] = None,
    max_nodes: Optional[int] = None,
    **slagle: float,
) -> "_gametree.SearchResult":
    """Slagle's m&n alpha-beta at `depth` plies (default 4), with its line."""
    return _gametree.search_m_and_n(
        adapt(state, evaluate), depth, time_limit=time_limit, max_nodes=max_nodes, **slagle
    )


def search_to_end(state: Any) -> "_gametree.SearchResult":
    """McCarthy's linemax to the end of the game: for small games."""
    return _gametree.search_to_end(adapt(state))


def solve(
    state: Any, *, max_nodes: Optional[int] = None, transpositions: bool = True
) -> "_gametree.SearchResult":
    """The null-window solver's exact value and a line that keeps it (returns must be
    whole numbers, as in most board games)."""
    return _gametree.solve(adapt(state, None, transpositions), max_nodes=max_nodes)
