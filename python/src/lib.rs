//! The Python bindings of gametree: the extension module `gametree._gametree`, which the
//! Python package `gametree` re-exports (see docs/python.md).
//!
//! | what | where |
//! |---|---|
//! | every search, written once for any game; the search result | [`bind`] |
//! | a game written in Python, searched through its methods | [`python_game`] |
//! | numbers, players, windows, budgets, Slagle's functions | [`convert`] |
//! | explicit trees, tic-tac-toe, checkers, Connect Four, Kalah | [`tree`], [`ttt`], [`checkers`], [`connect_four`], [`kalah`] |
//!
//! Searches of the Rust games release the GIL; searches of a Python game hold it.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

pub mod bind;
pub mod checkers;
pub mod connect_four;
pub mod convert;
pub mod kalah;
pub mod python_game;
pub mod tree;
pub mod ttt;

use bind::PySearchResult;
use convert::{Budget, PyPlayer};
use python_game::{Needs, PythonGame};

pyo3::create_exception!(
    gametree,
    InputError,
    PyValueError,
    "Bad input: a tree, position, move or setting the command line would refuse, with the \
     message it prints."
);

/// Runs `$body` with `$game` bound to the game `$object` holds: one of the game classes,
/// or any other object as a Python game (values as floats).
macro_rules! with_game {
    ($object:expr, $needs:expr, |$game:ident| $body:expr) => {{
        let object: &Bound<'_, PyAny> = $object;
        if let Ok(cell) = object.cast::<tree::PyTree>() {
            let mut held = cell.try_borrow_mut()?;
            let $game = &mut held.tree;
            $body
        } else if let Ok(cell) = object.cast::<ttt::PyTicTacToe>() {
            let mut held = cell.try_borrow_mut()?;
            let $game = &mut held.game;
            $body
        } else if let Ok(cell) = object.cast::<checkers::PyCheckers>() {
            let mut held = cell.try_borrow_mut()?;
            let $game = &mut held.game;
            $body
        } else if let Ok(cell) = object.cast::<connect_four::PyConnectFour>() {
            let mut held = cell.try_borrow_mut()?;
            let $game = &mut held.game;
            $body
        } else if let Ok(cell) = object.cast::<kalah::PyKalah>() {
            let mut held = cell.try_borrow_mut()?;
            let $game = &mut held.game;
            $body
        } else {
            let mut wrapped = PythonGame::<f64>::new(object, $needs)?;
            let $game = &mut wrapped;
            $body
        }
    }};
}

/// As [`with_game`], for the games with an evaluation: checkers, Kalah and Python games
/// with `evaluate()`.
macro_rules! with_evaluated_game {
    ($object:expr, $search:literal, |$game:ident| $body:expr) => {{
        let object: &Bound<'_, PyAny> = $object;
        if let Ok(cell) = object.cast::<checkers::PyCheckers>() {
            let mut held = cell.try_borrow_mut()?;
            let $game = &mut held.game;
            $body
        } else if let Ok(cell) = object.cast::<kalah::PyKalah>() {
            let mut held = cell.try_borrow_mut()?;
            let $game = &mut held.game;
            $body
        } else if object.is_instance_of::<tree::PyTree>()
            || object.is_instance_of::<ttt::PyTicTacToe>()
            || object.is_instance_of::<connect_four::PyConnectFour>()
        {
            Err(PyTypeError::new_err(format!(
                "{} is a depth-limited search, which needs an evaluation: Checkers, Kalah or \
                 a Python game with evaluate(); search a {} with search_to_end, line, proof \
                 or solve",
                $search,
                convert::type_name(object)
            )))
        } else {
            let mut wrapped = PythonGame::<f64>::new(object, Needs::Evaluation)?;
            let $game = &mut wrapped;
            $body
        }
    }};
}

/// McCarthy's vmax with movemax (minimax without pruning, the reference the other searches
/// are tested against): {value, move, leaves, nodes}.
#[pyfunction]
fn minimax<'py>(py: Python<'py>, game: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
    with_game!(game, Needs::Rules, |game| bind::run_minimax(py, game))
}

/// McCarthy's valmax: alpha-beta's value in the window (alpha, beta), −∞ and ∞ by default,
/// and how it bounds the true value: {value, bound, leaves, nodes, cutoffs}.
#[pyfunction]
#[pyo3(signature = (game, alpha = None, beta = None))]
fn alphabeta<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    alpha: Option<f64>,
    beta: Option<f64>,
) -> PyResult<Bound<'py, PyDict>> {
    with_game!(game, Needs::Rules, |game| {
        let window = convert::window(alpha, beta)?;
        bind::run_alphabeta(py, game, window)
    })
}

/// McCarthy's linemax: alpha-beta's value and main line:
/// {value, bound, move, line, leaves, nodes, cutoffs}.
#[pyfunction]
#[pyo3(signature = (game, alpha = None, beta = None))]
fn line<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    alpha: Option<f64>,
    beta: Option<f64>,
) -> PyResult<Bound<'py, PyDict>> {
    with_game!(game, Needs::Rules, |game| {
        let window = convert::window(alpha, beta)?;
        bind::run_line(py, game, window)
    })
}

/// McCarthy's treemax: alpha-beta's value with a proof that the position is worth at least
/// it (pfmax) and one that it is worth at most it (pfmin), as nested lists:
/// {value, bound, move, pfmax, pfmin, leaves, nodes, cutoffs}. verify=True checks both
/// proofs against the game (AssertionError if one fails).
#[pyfunction]
#[pyo3(signature = (game, alpha = None, beta = None, verify = false))]
fn proof<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    alpha: Option<f64>,
    beta: Option<f64>,
    verify: bool,
) -> PyResult<Bound<'py, PyDict>> {
    with_game!(game, Needs::Rules, |game| {
        let window = convert::window(alpha, beta)?;
        bind::run_proof(py, game, window, verify)
    })
}

/// The m&n searches share their arguments.
#[allow(clippy::too_many_arguments)]
fn m_and_n<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    pruning: bool,
    depth: Option<u32>,
    counts: (usize, usize),
    max: (f64, f64),
    min: (f64, f64),
) -> PyResult<Bound<'py, PyDict>> {
    let slagle = convert::slagle(py, counts, max, min)?;
    match depth {
        None => with_game!(game, Needs::Rules, |game| bind::run_m_and_n(
            py, game, &slagle, pruning
        )),
        Some(depth) => with_evaluated_game!(game, "an m&n search to a depth", |game| {
            bind::run_m_and_n_depth(py, game, &slagle, pruning, depth)
        }),
    }
}

/// Slagle's m&n minimaxing: MAX backs up its m best successors with
/// a₁ + 2^(x − (a₁ − a₂)·y), MIN its n best with b₁ − 2^(r − (b₂ − b₁)·s); to the end of
/// the game, or to `depth` plies with the game's evaluation: {value, move, leaves, nodes}.
#[pyfunction]
#[pyo3(signature = (game, m = 2, n = 2, x = 3.0, y = 1.0, r = 3.0, s = 1.0, depth = None))]
#[allow(clippy::too_many_arguments)]
fn mn_minimax<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    m: usize,
    n: usize,
    x: f64,
    y: f64,
    r: f64,
    s: f64,
    depth: Option<u32>,
) -> PyResult<Bound<'py, PyDict>> {
    m_and_n(py, game, false, depth, (m, n), (x, y), (r, s))
}

/// Slagle's m&n alpha-beta: the move m&n minimaxing chooses, looking at less of the tree:
/// {value, move, leaves, nodes, cutoffs}.
#[pyfunction]
#[pyo3(signature = (game, m = 2, n = 2, x = 3.0, y = 1.0, r = 3.0, s = 1.0, depth = None))]
#[allow(clippy::too_many_arguments)]
fn mn_alphabeta<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    m: usize,
    n: usize,
    x: f64,
    y: f64,
    r: f64,
    s: f64,
    depth: Option<u32>,
) -> PyResult<Bound<'py, PyDict>> {
    m_and_n(py, game, true, depth, (m, n), (x, y), (r, s))
}

/// Iterative-deepening alpha-beta (McCarthy's alpha-beta, deepened one ply at a time, each
/// depth ordered by the last, with killers), valuing its horizon with the game's
/// evaluation; to `depth` plies, or until `time_limit` seconds or `max_nodes` positions
/// run out (the last completed depth's result stands); a transposition table of
/// `table_mib` MiB when not 0. For Checkers, Kalah and Python games with evaluate().
#[pyfunction]
#[pyo3(signature = (game, depth = None, *, time_limit = None, max_nodes = None, table_mib = 0, killers = true))]
fn search(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    depth: Option<u32>,
    time_limit: Option<f64>,
    max_nodes: Option<u64>,
    table_mib: usize,
    killers: bool,
) -> PyResult<PySearchResult> {
    let budget = Budget::new(depth, time_limit, max_nodes)?;
    if table_mib > 0 {
        convert::check_table_mib(table_mib)?;
    }
    with_evaluated_game!(game, "search", |game| bind::run_search(
        py, game, budget, table_mib, killers, 0
    ))
}

/// Slagle's m&n alpha-beta at `depth` plies (default 4) with the game's evaluation: the
/// root's m&n value, the move chosen and the line m&n follows; a time or node budget is
/// checked between its searches.
#[pyfunction]
#[pyo3(signature = (game, depth = None, *, m = 2, n = 2, x = 3.0, y = 1.0, r = 3.0, s = 1.0, time_limit = None, max_nodes = None))]
#[allow(clippy::too_many_arguments)]
fn search_m_and_n(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    depth: Option<u32>,
    m: usize,
    n: usize,
    x: f64,
    y: f64,
    r: f64,
    s: f64,
    time_limit: Option<f64>,
    max_nodes: Option<u64>,
) -> PyResult<PySearchResult> {
    let budget = Budget::new(depth, time_limit, max_nodes)?;
    let slagle = convert::slagle(py, (m, n), (x, y), (r, s))?;
    with_evaluated_game!(game, "search_m_and_n", |game| bind::run_search_m_and_n(
        py, game, budget, &slagle, 0
    ))
}

/// McCarthy's linemax to the end of the game in the full window (no evaluation, no
/// budget): for any game small enough to search whole.
#[pyfunction]
fn search_to_end(py: Python<'_>, game: &Bound<'_, PyAny>) -> PyResult<PySearchResult> {
    with_game!(game, Needs::Rules, |game| bind::run_to_end(py, game))
}

/// The exact value by the null-window solver (its own table of up to 64 MiB) and a line
/// that keeps it; value None when `max_nodes` ran out first. For ConnectFour, Kalah and
/// Python games whose values are whole numbers (their key() lets the table find
/// transpositions).
#[pyfunction]
#[pyo3(signature = (game, *, max_nodes = None))]
fn solve(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    max_nodes: Option<u64>,
) -> PyResult<PySearchResult> {
    if let Ok(cell) = game.cast::<connect_four::PyConnectFour>() {
        let mut held = cell.try_borrow_mut()?;
        return bind::run_solve(py, &mut held.game, max_nodes);
    }
    if let Ok(cell) = game.cast::<kalah::PyKalah>() {
        let mut held = cell.try_borrow_mut()?;
        return bind::run_solve(py, &mut held.game, max_nodes);
    }
    if game.is_instance_of::<tree::PyTree>()
        || game.is_instance_of::<ttt::PyTicTacToe>()
        || game.is_instance_of::<checkers::PyCheckers>()
    {
        return Err(PyTypeError::new_err(format!(
            "the solver needs whole-number values and a position key: ConnectFour, Kalah or a \
             Python game; search a {} with search_to_end, line or proof",
            convert::type_name(game)
        )));
    }
    let mut wrapped = PythonGame::<i32>::new(game, Needs::Rules)?;
    bind::run_solve(py, &mut wrapped, max_nodes)
}

/// gametree: McCarthy's alpha-beta with lines and proofs, Slagle's m&n and a null-window
/// solver, for explicit trees, tic-tac-toe, checkers, Connect Four, Kalah and games written
/// in Python.
#[pymodule]
fn _gametree(module: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = module.py();
    module.add("InputError", py.get_type::<InputError>())?;
    module.add_class::<PyPlayer>()?;
    module.add_class::<PySearchResult>()?;
    module.add_class::<tree::PyTree>()?;
    module.add_class::<ttt::PyTicTacToe>()?;
    module.add_class::<checkers::PyCheckers>()?;
    module.add_class::<connect_four::PyConnectFour>()?;
    module.add_class::<kalah::PyKalah>()?;
    module.add_function(wrap_pyfunction!(minimax, module)?)?;
    module.add_function(wrap_pyfunction!(alphabeta, module)?)?;
    module.add_function(wrap_pyfunction!(line, module)?)?;
    module.add_function(wrap_pyfunction!(proof, module)?)?;
    module.add_function(wrap_pyfunction!(mn_minimax, module)?)?;
    module.add_function(wrap_pyfunction!(mn_alphabeta, module)?)?;
    module.add_function(wrap_pyfunction!(search, module)?)?;
    module.add_function(wrap_pyfunction!(search_m_and_n, module)?)?;
    module.add_function(wrap_pyfunction!(search_to_end, module)?)?;
    module.add_function(wrap_pyfunction!(solve, module)?)?;
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
