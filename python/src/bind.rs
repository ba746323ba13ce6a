//! Every search, written once for any game the bindings know: the Rust games (searched
//! with the GIL released) and Python games (searched with it held, since each callback
//! needs it). Results are Python dicts keyed as `gametree tree --json` keys them, or a
//! [`PySearchResult`].

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use gametree::TableSearch;
use gametree::{
    Evaluate, Game, PositionKey, Search, SearchResult, SearchStats, Slagle, Solvable,
    TranspositionTable, Window,
};
use gametree::{
    FloatValued, Proof, ProofStep, alphabeta_line, alphabeta_proof, alphabeta_value, minimax,
    mn_alphabeta, mn_alphabeta_depth, mn_minimax, mn_minimax_depth, verify_result,
};

use crate::convert::{Budget, PyValue, bound_name, stop_name};

/// A game the bindings can search.
pub trait Bind: Game {
    /// Runs `search` on the game. A Rust game releases the GIL for it, so other Python
    /// threads run meanwhile; a Python game keeps it (its callbacks need it) and reports
    /// here the first exception a callback raised.
    fn run<R: Send>(
        &mut self,
        py: Python<'_>,
        search: impl FnOnce(&mut Self) -> R + Send,
    ) -> PyResult<R>;

    /// A move as Python sees it: a square, column or house number from 1, a checkers move
    /// in standard notation, a Python game's own move object.
    fn move_to_py<'py>(&self, py: Python<'py>, mv: Self::Move) -> PyResult<Bound<'py, PyAny>>;
}

/// A game with an evaluation and a position key: what iterative deepening searches.
pub trait BindSearch: Bind + Evaluate + PositionKey {
    /// How the table is used: plainly, or with the game's distance adjustment (checkers
    /// stores wins by their distance from the position).
    fn table_search(
        table: &mut TranspositionTable<Self::Move, Self::Value>,
    ) -> TableSearch<'_, Self::Move, Self::Value> {
        TableSearch::new(table)
    }

    /// Called before a search (checkers counts plies from here for the distance of wins).
    fn prepare(&mut self) {}
}

/// Implements [`Bind`] for a game written in Rust: searched with the GIL released.
macro_rules! bind_rust_game {
    ($game:ty, |$py:ident, $mv:ident| $to_py:expr) => {
        impl $crate::bind::Bind for $game {
            fn run<R: Send>(
                &mut self,
                py: pyo3::Python<'_>,
                search: impl FnOnce(&mut Self) -> R + Send,
            ) -> pyo3::PyResult<R> {
                Ok(py.detach(|| search(self)))
            }

            fn move_to_py<'py>(
                &self,
                $py: pyo3::Python<'py>,
                $mv: <Self as gametree::Game>::Move,
            ) -> pyo3::PyResult<pyo3::Bound<'py, pyo3::PyAny>> {
                pyo3::IntoPyObjectExt::into_bound_py_any($to_py, $py)
            }
        }
    };
}
pub(crate) use bind_rust_game;

/// A move, or `None`.
fn optional_move<'py, G: Bind>(
    py: Python<'py>,
    game: &G,
    mv: Option<G::Move>,
) -> PyResult<Bound<'py, PyAny>> {
    match mv {
        Some(mv) => game.move_to_py(py, mv),
        None => Ok(py.None().into_bound(py)),
    }
}

/// Moves as a Python list.
pub fn move_list<'py, G: Bind>(
    py: Python<'py>,
    game: &G,
    moves: &[G::Move],
) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for &mv in moves {
        list.append(game.move_to_py(py, mv)?)?;
    }
    Ok(list)
}

/// `leaves`, `nodes` and (for the pruning searches) `cutoffs`, as `gametree tree` prints
/// them.
fn add_stats(dict: &Bound<'_, PyDict>, stats: &SearchStats, with_cutoffs: bool) -> PyResult<()> {
    dict.set_item("leaves", stats.leaves)?;
    dict.set_item("nodes", stats.nodes)?;
    if with_cutoffs {
        dict.set_item("cutoffs", stats.cutoffs)?;
    }
    Ok(())
}

/// McCarthy's vmax with movemax: `{value, move, leaves, nodes}`.
pub fn run_minimax<'py, G>(py: Python<'py>, game: &mut G) -> PyResult<Bound<'py, PyDict>>
where
    G: Bind,
    G::Move: Send,
    G::Value: PyValue,
{
    let result = game.run(py, |game| minimax(game))?;
    let dict = PyDict::new(py);
    dict.set_item("value", result.value.to_py(py)?)?;
    dict.set_item("move", optional_move(py, game, result.best_move)?)?;
    add_stats(&dict, &result.stats, false)?;
    Ok(dict)
}

/// McCarthy's valmax in a window: `{value, bound, leaves, nodes, cutoffs}`.
pub fn run_alphabeta<'py, G>(
    py: Python<'py>,
    game: &mut G,
    window: Window<G::Value>,
) -> PyResult<Bound<'py, PyDict>>
where
    G: Bind,
    G::Value: PyValue,
{
    let result = game.run(py, |game| alphabeta_value(game, window))?;
    let dict = PyDict::new(py);
    dict.set_item("value", result.value.to_py(py)?)?;
    dict.set_item("bound", bound_name(result.bound))?;
    add_stats(&dict, &result.stats, true)?;
    Ok(dict)
}

/// McCarthy's linemax: `{value, bound, move, line, leaves, nodes, cutoffs}`; the move is
/// the line's first when the value is exact.
pub fn run_line<'py, G>(
    py: Python<'py>,
    game: &mut G,
    window: Window<G::Value>,
) -> PyResult<Bound<'py, PyDict>>
where
    G: Bind,
    G::Move: Send,
    G::Value: PyValue,
{
    let result = game.run(py, |game| alphabeta_line(game, window))?;
    let dict = PyDict::new(py);
    dict.set_item("value", result.value.to_py(py)?)?;
    dict.set_item("bound", bound_name(result.bound))?;
    let exact = result.bound == gametree::Bound::Exact;
    let first = result.principal_line.first().copied().filter(|_| exact);
    dict.set_item("move", optional_move(py, game, first)?)?;
    dict.set_item("line", move_list(py, game, &result.principal_line)?)?;
    add_stats(&dict, &result.stats, true)?;
    Ok(dict)
}

/// McCarthy's treemax: `{value, bound, move, pfmax, pfmin, leaves, nodes, cutoffs}`, the
/// proofs as nested lists (the seed's S-expressions with parentheses as lists); with
/// `verify`, both proofs are checked against the game first.
pub fn run_proof<'py, G>(
    py: Python<'py>,
    game: &mut G,
    window: Window<G::Value>,
    verify: bool,
) -> PyResult<Bound<'py, PyDict>>
where
    G: Bind,
    G::Move: Send,
    G::Value: PyValue,
{
    let (result, verified) = game.run(py, |game| {
        let result = alphabeta_proof(game, window);
        let verified = verify.then(|| verify_result(game, &result).map_err(|e| e.to_string()));
        (result, verified)
    })?;
    if let Some(Err(failure)) = verified {
        return Err(pyo3::exceptions::PyAssertionError::new_err(format!(
            "the proof does not hold: {failure}"
        )));
    }
    let dict = PyDict::new(py);
    dict.set_item("value", result.value.to_py(py)?)?;
    dict.set_item("bound", bound_name(result.bound))?;
    let first = result
        .at_least
        .as_ref()
        .filter(|_| result.bound == gametree::Bound::Exact)
        .and_then(|proof| match proof.step(proof.root()) {
            ProofStep::Choice(mv, _) => Some(*mv),
            _ => None,
        });
    dict.set_item("move", optional_move(py, game, first)?)?;
    for (key, proof) in [("pfmax", &result.at_least), ("pfmin", &result.at_most)] {
        match proof {
            Some(proof) => dict.set_item(key, proof_list(py, game, proof)?)?,
            None => dict.set_item(key, py.None())?,
        }
    }
    add_stats(&dict, &result.stats, true)?;
    Ok(dict)
}

/// A proof as `gametree tree proof --json` writes it: a terminal `<v>` is `[v]`,
/// `mv . pf` is `[mv, *pf]`, a list of replies a list of those.
pub fn proof_list<'py, G>(
    py: Python<'py>,
    game: &G,
    proof: &Proof<G::Move, G::Value>,
) -> PyResult<Bound<'py, PyList>>
where
    G: Bind,
    G::Value: PyValue,
{
    fn contents<'py, G>(
        py: Python<'py>,
        game: &G,
        proof: &Proof<G::Move, G::Value>,
        step: &ProofStep<G::Move, G::Value>,
        into: &Bound<'py, PyList>,
    ) -> PyResult<()>
    where
        G: Bind,
        G::Value: PyValue,
    {
        match step {
            ProofStep::Terminal(value) => into.append(value.to_py(py)?),
            ProofStep::Choice(mv, next) => {
                into.append(game.move_to_py(py, *mv)?)?;
                contents(py, game, proof, proof.step(*next), into)
            }
            ProofStep::Replies(replies) => {
                for &(mv, next) in replies {
                    let reply = PyList::empty(py);
                    reply.append(game.move_to_py(py, mv)?)?;
                    contents(py, game, proof, proof.step(next), &reply)?;
                    into.append(reply)?;
                }
                Ok(())
            }
        }
    }
    let list = PyList::empty(py);
    contents(py, game, proof, proof.step(proof.root()), &list)?;
    Ok(list)
}

/// Slagle's m&n minimaxing (to the end, or to `depth` with the evaluation):
/// `{value, move, leaves, nodes}`, and `cutoffs` for m&n alpha-beta.
pub fn run_m_and_n<'py, G>(
    py: Python<'py>,
    game: &mut G,
    slagle: &Slagle,
    pruning: bool,
) -> PyResult<Bound<'py, PyDict>>
where
    G: Bind,
    G::Move: Send,
    G::Value: Into<f64>,
{
    let result = game.run(py, |game| {
        let mut floated = FloatValued(game);
        if pruning {
            mn_alphabeta(&mut floated, slagle)
        } else {
            mn_minimax(&mut floated, slagle)
        }
    })?;
    m_and_n_dict(py, game, &result, pruning)
}

/// [`run_m_and_n`] to a depth, valuing its horizon with the game's evaluation.
pub fn run_m_and_n_depth<'py, G>(
    py: Python<'py>,
    game: &mut G,
    slagle: &Slagle,
    pruning: bool,
    depth: u32,
) -> PyResult<Bound<'py, PyDict>>
where
    G: Bind + Evaluate,
    G::Move: Send,
    G::Value: Into<f64>,
{
    let result = game.run(py, |game| {
        let mut floated = FloatValued(game);
        if pruning {
            mn_alphabeta_depth(&mut floated, slagle, depth)
        } else {
            mn_minimax_depth(&mut floated, slagle, depth)
        }
    })?;
    m_and_n_dict(py, game, &result, pruning)
}

fn m_and_n_dict<'py, G: Bind>(
    py: Python<'py>,
    game: &G,
    result: &gametree::MnResult<G::Move>,
    pruning: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("value", result.value)?;
    dict.set_item("move", optional_move(py, game, result.best_move)?)?;
    add_stats(&dict, &result.stats, pruning)?;
    Ok(dict)
}

/// What a search of [`gametree::Search`] found.
///
/// `value` is from MAX's point of view (None when the budget ran out first); `bound` says
/// whether it is exact; `best_move` is given whenever the position has a move;
/// `principal_line` is the main line of play, best move first; `depth` the plies of the
/// last completed depth (or the line's length); `stop` why the search stopped ("depth
/// reached", "tree exhausted", "node budget", "time limit"); `nodes`, `leaves`, `cutoffs`
/// and `seconds` what it did; `iterations` one dict per completed depth of iterative
/// deepening (depth, value, bound, best_move, principal_line, nodes, leaves, cutoffs,
/// seconds).
#[pyclass(frozen, get_all, name = "SearchResult", module = "gametree")]
pub struct PySearchResult {
    /// The value of the position to MAX, or None.
    value: Py<PyAny>,
    /// "exact", "upper" or "lower".
    bound: &'static str,
    /// The move to play, or None when the game is over.
    best_move: Py<PyAny>,
    /// The main line of play, best move first.
    principal_line: Py<PyList>,
    /// Plies of the last completed depth.
    depth: u32,
    /// Why the search stopped.
    stop: &'static str,
    /// Positions visited.
    nodes: u64,
    /// Positions valued by the game.
    leaves: u64,
    /// Alpha and beta cutoffs.
    cutoffs: u64,
    /// Wall-clock seconds.
    seconds: f64,
    /// Every completed depth of an iterative search, shallowest first.
    iterations: Py<PyList>,
}

#[pymethods]
impl PySearchResult {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "SearchResult(value={}, bound={:?}, best_move={}, principal_line={}, depth={}, \
             stop={:?}, nodes={}, leaves={}, cutoffs={}, seconds={:.6})",
            self.value.bind(py).repr()?,
            self.bound,
            self.best_move.bind(py).repr()?,
            self.principal_line.bind(py).repr()?,
            self.depth,
            self.stop,
            self.nodes,
            self.leaves,
            self.cutoffs,
            self.seconds
        ))
    }

    /// Every field as a dict (the iterations as a list of dicts).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("value", self.value.bind(py))?;
        dict.set_item("bound", self.bound)?;
        dict.set_item("best_move", self.best_move.bind(py))?;
        dict.set_item(
            "principal_line",
            self.principal_line.bind(py).get_slice(0, usize::MAX),
        )?;
        dict.set_item("depth", self.depth)?;
        dict.set_item("stop", self.stop)?;
        dict.set_item("nodes", self.nodes)?;
        dict.set_item("leaves", self.leaves)?;
        dict.set_item("cutoffs", self.cutoffs)?;
        dict.set_item("seconds", self.seconds)?;
        dict.set_item(
            "iterations",
            self.iterations.bind(py).get_slice(0, usize::MAX),
        )?;
        Ok(dict)
    }
}

/// Converts a builder's result.
pub fn search_result<G, V>(
    py: Python<'_>,
    game: &G,
    result: &SearchResult<G::Move, V>,
) -> PyResult<PySearchResult>
where
    G: Bind,
    V: PyValue,
{
    let iterations = PyList::empty(py);
    for iteration in &result.iterations {
        let dict = PyDict::new(py);
        dict.set_item("depth", iteration.depth)?;
        dict.set_item("value", iteration.value.to_py(py)?)?;
        dict.set_item("bound", bound_name(iteration.bound))?;
        dict.set_item("best_move", optional_move(py, game, iteration.best_move)?)?;
        dict.set_item(
            "principal_line",
            move_list(py, game, &iteration.principal_line)?,
        )?;
        dict.set_item("nodes", iteration.stats.nodes)?;
        dict.set_item("leaves", iteration.stats.leaves)?;
        dict.set_item("cutoffs", iteration.stats.cutoffs)?;
        dict.set_item("seconds", iteration.stats.elapsed.as_secs_f64())?;
        iterations.append(dict)?;
    }
    Ok(PySearchResult {
        value: match result.value {
            Some(value) => value.to_py(py)?.unbind(),
            None => py.None(),
        },
        bound: bound_name(result.bound),
        best_move: optional_move(py, game, result.best_move)?.unbind(),
        principal_line: move_list(py, game, &result.principal_line)?.unbind(),
        depth: result.depth,
        stop: stop_name(result.stop),
        nodes: result.stats.nodes,
        leaves: result.stats.leaves,
        cutoffs: result.stats.cutoffs,
        seconds: result.stats.elapsed.as_secs_f64(),
        iterations: iterations.unbind(),
    })
}

/// Iterative-deepening alpha-beta with the game's evaluation ([`Search::run`]), a table of
/// `table_mib` MiB when it is not 0, and `quiescence` plies of quiescence.
pub fn run_search<G>(
    py: Python<'_>,
    game: &mut G,
    budget: Budget,
    table_mib: usize,
    killers: bool,
    quiescence: u32,
) -> PyResult<PySearchResult>
where
    G: BindSearch,
    G::Move: Send,
    G::Value: PyValue,
{
    let mut table = (table_mib > 0).then(|| TranspositionTable::with_mib(table_mib));
    let result = game.run(py, move |game| {
        game.prepare();
        let mut search = budget
            .apply(Search::new(game))
            .killers(killers)
            .quiescence(quiescence);
        if let Some(table) = table.as_mut() {
            search = search.table_search(G::table_search(table));
        }
        search.run()
    })?;
    search_result(py, game, &result)
}

/// Slagle's m&n alpha-beta at a depth ([`Search::run_m_and_n`]), with `quiescence` plies
/// of quiescence.
pub fn run_search_m_and_n<G>(
    py: Python<'_>,
    game: &mut G,
    budget: Budget,
    slagle: &Slagle,
    quiescence: u32,
) -> PyResult<PySearchResult>
where
    G: BindSearch,
    G::Move: Send,
    G::Value: Into<f64>,
{
    let result = game.run(py, |game| {
        game.prepare();
        budget
            .apply(Search::new(game))
            .quiescence(quiescence)
            .run_m_and_n(slagle)
    })?;
    search_result(py, game, &result)
}

/// McCarthy's linemax to the end of the game ([`Search::run_to_end`]).
pub fn run_to_end<G>(py: Python<'_>, game: &mut G) -> PyResult<PySearchResult>
where
    G: Bind,
    G::Move: Send,
    G::Value: PyValue,
{
    let result = game.run(py, |game| Search::new(game).run_to_end())?;
    search_result(py, game, &result)
}

/// The null-window solver's exact value and a line that keeps it ([`Search::solve`]).
pub fn run_solve<G>(
    py: Python<'_>,
    game: &mut G,
    max_nodes: Option<u64>,
) -> PyResult<PySearchResult>
where
    G: Bind + Solvable,
    G::Move: Send,
{
    let result = game.run(py, |game| {
        let mut search = Search::new(game);
        if let Some(nodes) = max_nodes {
            search = search.max_nodes(nodes);
        }
        search.solve()
    })?;
    search_result(py, game, &result)
}
