//! `gametree.Checkers`: English draughts, as `gametree checkers` plays it: positions in
//! PDN FEN, games from PDN, perft, the best move.

use pyo3::prelude::*;
use pyo3::types::PyDict;

use gametree::games::checkers::{Checkers, Color, Move, Position, perft, perft_divide, read_pdn};
use gametree::{Game, TableSearch, TranspositionTable};

use crate::InputError;
use crate::bind::{self, BindSearch, PySearchResult, bind_rust_game};
use crate::convert::{self, Budget, PyPlayer};

bind_rust_game!(Checkers, |py, mv| mv.to_string());

impl BindSearch for Checkers {
    fn table_search(table: &mut TranspositionTable<Move, i32>) -> TableSearch<'_, Move, i32> {
        TableSearch::new(table).with_distance(Checkers::distance_adjustment())
    }

    fn prepare(&mut self) {
        self.mark_root();
    }
}

/// The deepest perft accepted (as `gametree checkers perft`).
const MAX_PERFT_DEPTH: u32 = 40;

/// The deepest search `best` accepts (as `gametree checkers best`).
const MAX_SEARCH_DEPTH: u32 = 64;

/// English draughts (checkers): Black (MAX) moves first; values are from Black's side,
/// in hundredths of a man, a win worth 1,000,000 less the plies to it. Moves are in
/// standard notation, "11-15" or "15x24".
///
/// >>> game = Checkers()
/// >>> game.perft(6)
/// 36768
/// >>> game.best(depth=6).best_move
/// '10-15'
#[pyclass(name = "Checkers", module = "gametree")]
pub struct PyCheckers {
    /// The game: the position and the history the draw rules need.
    pub game: Checkers,
}

#[pymethods]
impl PyCheckers {
    /// The position of a PDN FEN ("B:W21-32:B1-12"), or the initial position. Raises
    /// InputError with the command line's message for a bad FEN.
    #[new]
    #[pyo3(signature = (fen = None))]
    fn new(fen: Option<&str>) -> PyResult<Self> {
        let position = match fen {
            Some(fen) => {
                Position::from_fen(fen).map_err(|error| InputError::new_err(error.to_string()))?
            }
            None => Position::initial(),
        };
        Ok(PyCheckers {
            game: Checkers::from_position(position),
        })
    }

    /// Every game of a PDN text, each at the end of its moves (the positions before kept
    /// for the draw rules).
    #[staticmethod]
    fn from_pdn(text: &str) -> PyResult<Vec<PyCheckers>> {
        let games = read_pdn(text).map_err(|error| InputError::new_err(error.to_string()))?;
        Ok(games
            .iter()
            .map(|game| PyCheckers {
                game: Checkers::from_pdn(game),
            })
            .collect())
    }

    /// The position in PDN FEN.
    #[getter]
    fn fen(&self) -> String {
        self.game.position().to_fen()
    }

    /// "B" or "W", the side to move.
    #[getter]
    fn side_to_move(&self) -> String {
        match self.game.position().side_to_move() {
            Color::Black => "B",
            Color::White => "W",
        }
        .to_string()
    }

    /// The player to move: Player.MAX for Black, Player.MIN for White.
    #[getter]
    fn to_move(&self) -> PyPlayer {
        Game::to_move(&self.game).into()
    }

    /// None while the game goes on, else "1-0" (Black won), "0-1" or "1/2-1/2".
    #[getter]
    fn result(&self) -> Option<String> {
        self.game.result().map(|result| result.token().to_string())
    }

    /// The legal moves, in standard notation.
    fn moves(&self) -> Vec<String> {
        let mut moves = Vec::new();
        self.game.position().legal_moves(&mut moves);
        moves.iter().map(ToString::to_string).collect()
    }

    /// Plays a move given in standard notation ("11-15", "15x24", or "15x31" for a
    /// multiple jump when it is unambiguous); InputError if it is not legal.
    fn play(&mut self, mv: &str) -> PyResult<()> {
        let mv = self
            .game
            .position()
            .parse_move(mv)
            .map_err(|error| InputError::new_err(error.to_string()))?;
        self.game.update(mv);
        Ok(())
    }

    /// The board as a diagram with its square numbers.
    fn __str__(&self) -> String {
        self.game.position().diagram()
    }

    fn __repr__(&self) -> String {
        format!("Checkers({:?})", self.fen())
    }

    /// Leaves of the legal-move tree `depth` plies deep (GIL released).
    fn perft(&self, py: Python<'_>, depth: u32) -> PyResult<u64> {
        check_perft_depth(depth)?;
        let position = *self.game.position();
        Ok(py.detach(|| perft(&position, depth)))
    }

    /// perft split by first move: {move: leaves}, in move-generation order.
    fn perft_divide<'py>(&self, py: Python<'py>, depth: u32) -> PyResult<Bound<'py, PyDict>> {
        check_perft_depth(depth)?;
        if depth == 0 {
            return Err(InputError::new_err(
                "perft_divide needs a depth of at least 1",
            ));
        }
        let position = *self.game.position();
        let split = py.detach(|| perft_divide(&position, depth));
        let dict = PyDict::new(py);
        for (mv, count) in split {
            dict.set_item(mv.to_string(), count)?;
        }
        Ok(dict)
    }

    /// The computer's move as `gametree checkers best` finds it: iterative-deepening
    /// alpha-beta with killers and a transposition table of table_mib MiB (0: none) to
    /// `depth` plies (default 12) or for `time` seconds; or, with algorithm="m-and-n",
    /// Slagle's m&n alpha-beta at `depth` (default 4) with m, n, x, y, r, s (defaults 2,
    /// 2, 3, 0.1, 3, 0.1), a time limit checked between its searches. Both search on past
    /// the depth for at most `quiescence` plies while a capture is forced (16, as the
    /// command line; 0: none).
    #[pyo3(signature = (depth = None, time = None, algorithm = "alphabeta", m = None, n = None, x = None, y = None, r = None, s = None, table_mib = 16, quiescence = 16))]
    #[allow(clippy::too_many_arguments)]
    fn best(
        &mut self,
        py: Python<'_>,
        depth: Option<u32>,
        time: Option<f64>,
        algorithm: &str,
        m: Option<usize>,
        n: Option<usize>,
        x: Option<f64>,
        y: Option<f64>,
        r: Option<f64>,
        s: Option<f64>,
        table_mib: usize,
        quiescence: u32,
    ) -> PyResult<PySearchResult> {
        if quiescence > MAX_SEARCH_DEPTH {
            return Err(InputError::new_err(format!(
                "quiescence must be between 0 and {MAX_SEARCH_DEPTH}, not {quiescence}"
            )));
        }
        if depth.is_some() && time.is_some() && algorithm == "alphabeta" {
            return Err(InputError::new_err("give depth or time, not both"));
        }
        if let Some(depth) = depth
            && !(1..=MAX_SEARCH_DEPTH).contains(&depth)
        {
            return Err(InputError::new_err(format!(
                "depth must be between 1 and {MAX_SEARCH_DEPTH}, not {depth}"
            )));
        }
        if let Some(seconds) = time
            && !(seconds.is_finite() && seconds > 0.0 && seconds <= 1e6)
        {
            return Err(InputError::new_err(format!(
                "time must be a positive number of seconds, not {seconds}"
            )));
        }
        let flags = [m.is_some(), n.is_some()]
            .into_iter()
            .chain([x, y, r, s].iter().map(Option::is_some))
            .any(|given| given);
        match algorithm {
            "alphabeta" => {
                if flags {
                    return Err(InputError::new_err(
                        "m, n, x, y, r and s apply to algorithm=\"m-and-n\"",
                    ));
                }
                let depth = match (depth, time) {
                    (None, None) => Some(12),
                    (None, Some(_)) => Some(MAX_SEARCH_DEPTH),
                    (depth, _) => depth,
                };
                let budget = Budget::new(depth, time, None)?;
                bind::run_search(py, &mut self.game, budget, table_mib, true, quiescence)
            }
            "m-and-n" => {
                let slagle = convert::slagle(
                    py,
                    (m.unwrap_or(2), n.unwrap_or(2)),
                    (x.unwrap_or(3.0), y.unwrap_or(0.1)),
                    (r.unwrap_or(3.0), s.unwrap_or(0.1)),
                )?;
                let budget = Budget::new(Some(depth.unwrap_or(4)), time, None)?;
                bind::run_search_m_and_n(py, &mut self.game, budget, &slagle, quiescence)
            }
            other => Err(InputError::new_err(format!(
                "algorithm must be \"alphabeta\" or \"m-and-n\", not {other:?}"
            ))),
        }
    }
}

fn check_perft_depth(depth: u32) -> PyResult<()> {
    if depth > MAX_PERFT_DEPTH {
        return Err(InputError::new_err(format!(
            "perft depth {depth} is too deep (at most {MAX_PERFT_DEPTH})"
        )));
    }
    Ok(())
}
