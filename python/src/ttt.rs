//! `gametree.TicTacToe`: McCarthy's tic-tac-toe (seed 000), searched as `gametree ttt`
//! searches it.

use std::fmt::Write as _;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use gametree::tic_tac_toe::{Ending, Square, TicTacToe, octal};
use gametree::{Game, Window, alphabeta_line, alphabeta_proof, alphabeta_value};

use crate::InputError;
use crate::bind::{self, bind_rust_game};
use crate::convert::PyPlayer;

bind_rust_game!(TicTacToe, |py, mv| mv);

/// McCarthy's tic-tac-toe, exactly as the seed programs it: X (MAX) moves first; squares
/// are 1 to 9, left to right from the top row; a win is worth 1 + the blanks left to the
/// winner (so quicker wins are worth more), a draw 0.
///
/// `value`, `line` and `proof` search as `gametree ttt value|line|proof --json` (in the
/// seed's window (-1000, 1000) unless told otherwise) and return what it prints; `count`
/// is then the seed's count of moves made by the search.
///
/// >>> TicTacToe("2,1").line()
/// {'value': 0, 'line': [5, 8, 6, 4, 7, 3, 9]}
#[pyclass(name = "TicTacToe", module = "gametree")]
pub struct PyTicTacToe {
    /// The board and the seed's move count.
    pub game: TicTacToe,
}

/// The seed's window: `lmax[p1, -1000, 1000]`.
const SEED_WINDOW: (i32, i32) = (-1000, 1000);

/// `(alpha, beta)` checked as `gametree ttt --window` checks it.
fn ttt_window(alpha: i32, beta: i32) -> PyResult<Window<i32>> {
    if alpha >= beta {
        return Err(InputError::new_err(format!(
            "window ({alpha}, {beta}): alpha ({alpha}) must be less than beta ({beta}): \
             no value lies strictly between them"
        )));
    }
    Ok(Window::new(alpha, beta))
}

#[pymethods]
impl PyTicTacToe {
    /// The game after `moves`: squares 1 to 9 in game order, X first, as a list or as
    /// text "5,1"; nothing is the empty board. Raises InputError with the command line's
    /// message for an illegal move.
    #[new]
    #[pyo3(signature = (moves = None))]
    fn new(moves: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let text = match moves {
            None => String::new(),
            Some(moves) => match moves.extract::<String>() {
                Ok(text) => text,
                Err(_) => {
                    let squares: Vec<i64> = moves.extract().map_err(|_| {
                        pyo3::exceptions::PyTypeError::new_err(
                            "moves must be a list of squares 1 to 9 or text such as \"5,1\"",
                        )
                    })?;
                    squares
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join(",")
                }
            },
        };
        TicTacToe::parse_moves(&text)
            .map(|game| PyTicTacToe { game })
            .map_err(|error| InputError::new_err(format!("moves {text:?}: {error}")))
    }

    /// Plays `square` (1 to 9) for the side to move; InputError if it is not legal.
    fn play(&mut self, square: u32) -> PyResult<()> {
        self.game
            .play(square)
            .map_err(|error| InputError::new_err(error.to_string()))
    }

    /// The squares played so far, in order.
    #[getter]
    fn moves(&self) -> Vec<u32> {
        self.game
            .moves()
            .iter()
            .map(|&square| u32::from(square))
            .collect()
    }

    /// The player to move: Player.MAX for X, Player.MIN for O.
    #[getter]
    fn to_move(&self) -> PyPlayer {
        Game::to_move(&self.game).into()
    }

    /// "X" or "O", whoever is to move.
    #[getter]
    fn mark_to_move(&self) -> String {
        self.game.mark_to_move().to_string()
    }

    /// None while the game goes on, else "X" or "O" (the winner) or "draw".
    #[getter]
    fn ending(&self) -> Option<String> {
        self.game.ending().map(|ending| match ending {
            Ending::Win(mark) => mark.to_string(),
            Ending::Draw => "draw".to_string(),
        })
    }

    /// Moves made (`update`s) by the last search: the seed's count.
    #[getter]
    fn count(&self) -> u64 {
        self.game.count()
    }

    fn __str__(&self) -> String {
        self.game.to_string()
    }

    fn __repr__(&self) -> String {
        let moves: Vec<String> = self.game.moves().iter().map(ToString::to_string).collect();
        format!("TicTacToe({:?})", moves.join(","))
    }

    /// The value to X by McCarthy's valmax (valmin when O is to move) in the window.
    #[pyo3(signature = (alpha = SEED_WINDOW.0, beta = SEED_WINDOW.1))]
    fn value(&mut self, py: Python<'_>, alpha: i32, beta: i32) -> PyResult<i32> {
        let window = ttt_window(alpha, beta)?;
        let game = &mut self.game;
        game.reset_count();
        Ok(py.detach(|| alphabeta_value(game, window).value))
    }

    /// McCarthy's linemax: {value, line} as `gametree ttt line --json` prints it.
    #[pyo3(signature = (alpha = SEED_WINDOW.0, beta = SEED_WINDOW.1))]
    fn line<'py>(
        &mut self,
        py: Python<'py>,
        alpha: i32,
        beta: i32,
    ) -> PyResult<Bound<'py, PyDict>> {
        let window = ttt_window(alpha, beta)?;
        let game = &mut self.game;
        game.reset_count();
        let result = py.detach(|| alphabeta_line(game, window));
        let dict = PyDict::new(py);
        dict.set_item("value", result.value)?;
        dict.set_item("line", PyList::new(py, &result.principal_line)?)?;
        Ok(dict)
    }

    /// McCarthy's treemax: {value, proof: {pfmax, pfmin}} as `gametree ttt proof --json`
    /// prints it.
    #[pyo3(signature = (alpha = SEED_WINDOW.0, beta = SEED_WINDOW.1))]
    fn proof<'py>(
        &mut self,
        py: Python<'py>,
        alpha: i32,
        beta: i32,
    ) -> PyResult<Bound<'py, PyDict>> {
        let window = ttt_window(alpha, beta)?;
        let game = &mut self.game;
        game.reset_count();
        let result = py.detach(|| alphabeta_proof(game, window));
        let dict = PyDict::new(py);
        dict.set_item("value", result.value)?;
        let proofs = PyDict::new(py);
        for (key, proof) in [("pfmax", &result.at_least), ("pfmin", &result.at_most)] {
            match proof {
                Some(proof) => proofs.set_item(key, bind::proof_list(py, &self.game, proof)?)?,
                None => proofs.set_item(key, py.None())?,
            }
        }
        dict.set_item("proof", proofs)?;
        Ok(dict)
    }

    /// The line as the seed prints lmax, `(value move move ...)`, squares in octal as in
    /// the seed (8 is 10, 9 is 11) unless decimal=True: `gametree ttt line`'s output.
    #[pyo3(signature = (alpha = SEED_WINDOW.0, beta = SEED_WINDOW.1, decimal = false))]
    fn line_text(
        &mut self,
        py: Python<'_>,
        alpha: i32,
        beta: i32,
        decimal: bool,
    ) -> PyResult<String> {
        let window = ttt_window(alpha, beta)?;
        let game = &mut self.game;
        game.reset_count();
        let result = py.detach(|| alphabeta_line(game, window));
        let mut text = format!("({}", result.value);
        for &square in &result.principal_line {
            let _ = write!(text, " {}", square_text(square, decimal));
        }
        text.push(')');
        Ok(text)
    }

    /// The proof as the seed prints tmax, `(value pfmax pfmin)`: `gametree ttt proof`'s
    /// output.
    #[pyo3(signature = (alpha = SEED_WINDOW.0, beta = SEED_WINDOW.1, decimal = false))]
    fn proof_text(
        &mut self,
        py: Python<'_>,
        alpha: i32,
        beta: i32,
        decimal: bool,
    ) -> PyResult<String> {
        let window = ttt_window(alpha, beta)?;
        let game = &mut self.game;
        game.reset_count();
        let result = py.detach(|| alphabeta_proof(game, window));
        Ok(result.to_sexpr(
            |out, &square| {
                let _ = write!(out, "{}", square_text(square, decimal));
            },
            |out, value| {
                let _ = write!(out, "{value}");
            },
        ))
    }
}

/// A square as printed: octal like the seed, or decimal.
fn square_text(square: Square, decimal: bool) -> u8 {
    if decimal { square } else { octal(square) }
}
