//! A game written in Python, searched by the Rust engine through its methods.
//!
//! The object needs `to_move()`, `moves()`, `play(move)` and `undo(move)`; `is_over()`,
//! `value()`, `evaluate()` and `key()` are optional (see docs/python.md). Moves may be any
//! hashable Python objects: the engine numbers them as it meets them (a dict from move to
//! number) and hands the objects back to `play` and `undo`.
//!
//! The GIL is held for the whole search: every callback needs it, and taking it afresh
//! per callback would only add cost. A callback that raises stops the search at once (every
//! position then looks terminal, so the search unwinds, and each move played is undone) and
//! the exception is raised from the search function. Ctrl-C is checked every
//! [`SIGNAL_CHECK_INTERVAL`] callbacks.

use std::cell::RefCell;
use std::marker::PhantomData;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use gametree::{Evaluate, Game, Player, PositionKey, Solvable};

use crate::bind::{Bind, BindSearch};
use crate::convert::{PyPlayer, PyValue, type_name};

/// How often (in `is_over` calls) the search lets Python handle a signal such as Ctrl-C.
pub const SIGNAL_CHECK_INTERVAL: u32 = 1024;

/// What a search needs of the game beyond the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Needs {
    /// The rules alone: searches to the end of the game.
    Rules,
    /// An `evaluate()` for the horizon of a depth-limited search.
    Evaluation,
}

/// The state a search changes behind `&self`.
struct Shared<'py> {
    /// Move object → its number.
    numbers: Bound<'py, PyDict>,
    /// Number → move object.
    moves: Vec<Bound<'py, PyAny>>,
    /// The moves `is_terminal` read (when the game has no `is_over`), for the
    /// `successors` call that follows at the same position.
    pending: Option<Vec<u32>>,
    /// The first exception a callback raised.
    error: Option<PyErr>,
    /// Callbacks since the last signal check.
    calls: u32,
}

/// A Python object playing a game, as a [`Game`] whose values are `V` (`f64`, or `i32`
/// for the solver).
pub struct PythonGame<'py, V> {
    to_move: Bound<'py, PyAny>,
    moves: Bound<'py, PyAny>,
    play: Bound<'py, PyAny>,
    undo: Bound<'py, PyAny>,
    is_over: Option<Bound<'py, PyAny>>,
    value: Option<Bound<'py, PyAny>>,
    evaluate: Option<Bound<'py, PyAny>>,
    key: Option<Bound<'py, PyAny>>,
    max: Bound<'py, PyAny>,
    min: Bound<'py, PyAny>,
    shared: RefCell<Shared<'py>>,
    /// For each move on the board: whether `play` took it (and so `undo` must).
    played: Vec<bool>,
    /// Keys of the positions along the path from the root, when the game has no `key()`:
    /// positions are told apart by the moves that reached them (no transpositions are
    /// found, but the solver's repeated null-window searches still reuse the table).
    path: Vec<u64>,
    value_type: PhantomData<V>,
}

/// The methods a Python game must have.
const REQUIRED: [&str; 4] = ["to_move", "moves", "play", "undo"];

impl<'py, V: PyValue> PythonGame<'py, V> {
    /// Wraps `object`, checking it has what the search needs.
    pub fn new(object: &Bound<'py, PyAny>, needs: Needs) -> PyResult<Self> {
        let py = object.py();
        let method = |name: &str| -> PyResult<Option<Bound<'py, PyAny>>> {
            if object.hasattr(name)? {
                Ok(Some(object.getattr(name)?))
            } else {
                Ok(None)
            }
        };
        let mut required = Vec::new();
        for name in REQUIRED {
            required.push(method(name)?.ok_or_else(|| {
                PyTypeError::new_err(format!(
                    "a game needs the methods to_move(), moves(), play(move) and undo(move) \
                     (a {} has no {name}()); the games of gametree are Tree, TicTacToe, \
                     Checkers, ConnectFour and Kalah",
                    type_name(object)
                ))
            })?);
        }
        let evaluate = method("evaluate")?;
        let value = method("value")?;
        if needs == Needs::Evaluation && evaluate.is_none() {
            return Err(PyTypeError::new_err(format!(
                "a depth-limited search values the positions at its horizon with evaluate(), \
                 and a {} has none (search_to_end, line, proof and solve need none)",
                type_name(object)
            )));
        }
        if value.is_none() && evaluate.is_none() {
            return Err(PyTypeError::new_err(format!(
                "a game needs value() (the value to MAX at the end of the game) or evaluate(), \
                 and a {} has neither",
                type_name(object)
            )));
        }
        let mut required = required.into_iter();
        let mut next = || required.next().expect("invariant: four required methods");
        Ok(PythonGame {
            to_move: next(),
            moves: next(),
            play: next(),
            undo: next(),
            is_over: method("is_over")?,
            value,
            evaluate,
            key: method("key")?,
            max: PyPlayer::Max.into_pyobject(py)?.into_any(),
            min: PyPlayer::Min.into_pyobject(py)?.into_any(),
            shared: RefCell::new(Shared {
                numbers: PyDict::new(py),
                moves: Vec::new(),
                pending: None,
                error: None,
                calls: 0,
            }),
            played: Vec::new(),
            path: vec![0x9E37_79B9_7F4A_7C15],
            value_type: PhantomData,
        })
    }

    /// Whether a callback has failed (the search is unwinding).
    fn failed(&self) -> bool {
        self.shared.borrow().error.is_some()
    }

    /// Keeps the first error.
    fn fail(&self, error: PyErr) {
        let mut shared = self.shared.borrow_mut();
        if shared.error.is_none() {
            shared.error = Some(error);
        }
    }

    /// The result of a callback, or the error kept and `fallback`.
    fn or_fail<T>(&self, result: PyResult<T>, fallback: T) -> T {
        result.unwrap_or_else(|error| {
            self.fail(error);
            fallback
        })
    }

    /// Calls `moves()` and numbers the moves.
    fn read_moves(&self) -> PyResult<Vec<u32>> {
        let listed = self.moves.call0()?;
        let mut shared = self.shared.borrow_mut();
        let mut numbers = Vec::new();
        for mv in listed.try_iter().map_err(|_| {
            PyTypeError::new_err(format!(
                "moves() must return a list of moves, not {}",
                type_name(&listed)
            ))
        })? {
            let mv = mv?;
            let found = shared.numbers.get_item(&mv).map_err(|error| {
                PyTypeError::new_err(format!(
                    "moves must be hashable (an int, str or tuple, say): {error}"
                ))
            })?;
            let number = match found {
                Some(number) => number.extract::<u32>()?,
                None => {
                    let number = u32::try_from(shared.moves.len()).map_err(|_| {
                        PyTypeError::new_err("a game may have at most 2³² different moves")
                    })?;
                    shared.numbers.set_item(&mv, number)?;
                    shared.moves.push(mv);
                    number
                }
            };
            numbers.push(number);
        }
        Ok(numbers)
    }

    /// The move object numbered `number`.
    fn move_object(&self, number: u32) -> Bound<'py, PyAny> {
        self.shared.borrow().moves[number as usize].clone()
    }

    fn player(&self) -> PyResult<Player> {
        let player = self.to_move.call0()?;
        if player.is(&self.max) {
            return Ok(Player::Max);
        }
        if player.is(&self.min) {
            return Ok(Player::Min);
        }
        match player.extract::<i64>() {
            Ok(0) => Ok(Player::Max),
            Ok(1) => Ok(Player::Min),
            _ => Err(PyTypeError::new_err(format!(
                "to_move() must return gametree.Player.MAX or gametree.Player.MIN (or 0 or 1), \
                 not {}",
                player.repr()?
            ))),
        }
    }

    fn check_signals(&self) -> PyResult<()> {
        let check = {
            let mut shared = self.shared.borrow_mut();
            shared.calls += 1;
            if shared.calls >= SIGNAL_CHECK_INTERVAL {
                shared.calls = 0;
                true
            } else {
                false
            }
        };
        if check {
            self.to_move.py().check_signals()?;
        }
        Ok(())
    }

    fn terminal(&self) -> PyResult<bool> {
        self.check_signals()?;
        match &self.is_over {
            Some(is_over) => is_over.call0()?.is_truthy(),
            None => {
                let moves = self.read_moves()?;
                let over = moves.is_empty();
                self.shared.borrow_mut().pending = Some(moves);
                Ok(over)
            }
        }
    }

    fn final_value(&self) -> PyResult<V> {
        match (&self.value, &self.evaluate) {
            (Some(value), _) => V::from_py(&value.call0()?, "value()"),
            (None, Some(evaluate)) => V::from_py(&evaluate.call0()?, "evaluate()"),
            (None, None) => unreachable!("invariant: checked when the game was wrapped"),
        }
    }

    fn estimate(&self) -> PyResult<V> {
        match &self.evaluate {
            Some(evaluate) => V::from_py(&evaluate.call0()?, "evaluate()"),
            None => self.final_value(),
        }
    }

    fn key_of_position(&self) -> PyResult<u64> {
        match &self.key {
            Some(key) => Ok(key.call0()?.hash()? as u64),
            None => Ok(*self.path.last().expect("invariant: the root's key")),
        }
    }

    /// The first exception a callback raised, if any.
    pub fn take_error(&self) -> Option<PyErr> {
        self.shared.borrow_mut().error.take()
    }
}

/// The key of the position after move `number` from the position keyed `key`
/// (SplitMix64's finaliser over both).
fn path_key(key: u64, number: u32) -> u64 {
    let mut z = key ^ u64::from(number).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl<V: PyValue> Game for PythonGame<'_, V> {
    type Move = u32;
    type Value = V;

    fn to_move(&self) -> Player {
        if self.failed() {
            return Player::Max;
        }
        self.or_fail(self.player(), Player::Max)
    }

    fn successors(&self, moves: &mut Vec<u32>) {
        if self.failed() {
            return;
        }
        let pending = self.shared.borrow_mut().pending.take();
        match pending {
            Some(read) => moves.extend(read),
            None => {
                let read = self.or_fail(self.read_moves(), Vec::new());
                moves.extend(read);
            }
        }
    }

    fn is_terminal(&self) -> bool {
        if self.failed() {
            return true;
        }
        self.or_fail(self.terminal(), true)
    }

    fn value(&self) -> V {
        if self.failed() {
            return V::default();
        }
        self.or_fail(self.final_value(), V::default())
    }

    fn update(&mut self, mv: u32) {
        self.shared.borrow_mut().pending = None;
        let key = path_key(*self.path.last().expect("invariant: the root's key"), mv);
        self.path.push(key);
        if self.failed() {
            self.played.push(false);
            return;
        }
        let object = self.move_object(mv);
        let played = self.play.call1((object,)).map(|_| ());
        let ok = played.is_ok();
        self.or_fail(played, ());
        self.played.push(ok);
    }

    fn revert(&mut self, mv: u32) {
        self.shared.borrow_mut().pending = None;
        self.path.pop();
        // Undone even after an error, so that the Python game is left as it was found.
        if self.played.pop().unwrap_or(false) {
            let object = self.move_object(mv);
            let undone = self.undo.call1((object,)).map(|_| ());
            self.or_fail(undone, ());
        }
    }
}

impl<V: PyValue> Evaluate for PythonGame<'_, V> {
    fn evaluate(&self) -> V {
        if self.failed() {
            return V::default();
        }
        self.or_fail(self.estimate(), V::default())
    }
}

impl<V: PyValue> PositionKey for PythonGame<'_, V> {
    fn hash_key(&self) -> u64 {
        if self.failed() {
            return 0;
        }
        self.or_fail(self.key_of_position(), 0)
    }
}

impl Solvable for PythonGame<'_, i32> {
    type Candidates = ();
}

impl<V: PyValue> Bind for PythonGame<'_, V> {
    fn run<R: Send>(
        &mut self,
        _py: Python<'_>,
        search: impl FnOnce(&mut Self) -> R + Send,
    ) -> PyResult<R> {
        let result = search(self);
        match self.take_error() {
            Some(error) => Err(error),
            None => Ok(result),
        }
    }

    fn move_to_py<'a>(&self, py: Python<'a>, mv: u32) -> PyResult<Bound<'a, PyAny>> {
        Ok(self.move_object(mv).unbind().into_bound(py))
    }
}

impl<V: PyValue> BindSearch for PythonGame<'_, V> {}
