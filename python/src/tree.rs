//! `gametree.Tree`: explicit game trees in the seeds' S-expression notation, with every
//! search of `gametree tree`.

use std::fmt::Write as _;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use gametree::{ExplicitTree, RandomTreeConfig, Window, alphabeta_proof, aspiration_value};

use crate::InputError;
use crate::bind::{self, bind_rust_game};
use crate::convert;

bind_rust_game!(ExplicitTree, |py, mv| mv);

/// An explicit game tree read from an S-expression: a leaf is a number, `(child child ...)`
/// a position, MAX to move at the root and the players alternating; moves are the
/// children's positions 1, 2, … from the left.
///
/// Each search returns a dict keyed as `gametree tree ALGORITHM TREE --json` prints it:
/// `value`, `bound`, `move`, `line`, `pfmax`, `pfmin`, `windows`, `leaves`, `nodes`,
/// `cutoffs`, as the search has them.
///
/// >>> tree = Tree("((3 5) (2 9))")
/// >>> tree.proof()
/// {'value': 3.0, 'bound': 'exact', 'move': 1, 'pfmax': [1, [2, 5.0], [1, 3.0]], 'pfmin': [[2, 1, 2.0], [1, 1, 3.0]], 'leaves': 3, 'nodes': 6, 'cutoffs': 1}
#[pyclass(name = "Tree", module = "gametree")]
pub struct PyTree {
    /// The tree, at its root between searches.
    pub tree: ExplicitTree,
}

#[pymethods]
impl PyTree {
    /// Reads a tree; raises InputError (a ValueError) with the command line's message,
    /// which says where the text is wrong.
    #[new]
    fn new(text: &str) -> PyResult<Self> {
        ExplicitTree::parse(text)
            .map(|tree| PyTree { tree })
            .map_err(|error| InputError::new_err(format!("the tree: {error}")))
    }

    /// A random tree (integer leaves; `branching`, `depth` and `values` are inclusive
    /// ranges), the same for the same seed.
    #[staticmethod]
    #[pyo3(signature = (seed, branching = (1, 4), depth = (1, 6), values = (-9, 9)))]
    fn random(
        seed: u64,
        branching: (usize, usize),
        depth: (usize, usize),
        values: (i32, i32),
    ) -> PyResult<Self> {
        let empty = branching.0 > branching.1 || depth.0 > depth.1 || values.0 > values.1;
        if empty || branching.0 == 0 {
            return Err(InputError::new_err(
                "branching, depth and values must be ranges (low, high) with low ≤ high, \
                 and a branching of at least 1",
            ));
        }
        if (branching.1 as f64).powf(depth.1 as f64) > 1e7 {
            return Err(InputError::new_err(
                "the tree could have more than 10 million leaves: lower branching or depth",
            ));
        }
        let config = RandomTreeConfig {
            branching: branching.0..=branching.1,
            depth: depth.0..=depth.1,
            values: values.0..=values.1,
        };
        Ok(PyTree {
            tree: ExplicitTree::random(&config, seed),
        })
    }

    /// How many leaves the tree has.
    #[getter]
    fn leaf_count(&self) -> usize {
        self.tree.leaf_count()
    }

    /// How many positions the tree has, leaves included.
    #[getter]
    fn node_count(&self) -> usize {
        self.tree.node_count()
    }

    /// The length of the longest path from the root to a leaf.
    #[getter]
    fn depth(&self) -> usize {
        self.tree.depth()
    }

    fn __str__(&self) -> String {
        self.tree.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Tree({:?})", self.tree.to_string())
    }

    /// McCarthy's vmax with movemax: {value, move, leaves, nodes}.
    fn minimax<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        bind::run_minimax(py, &mut self.tree)
    }

    /// McCarthy's valmax in the window (alpha, beta), −∞ and ∞ by default:
    /// {value, bound, leaves, nodes, cutoffs}.
    #[pyo3(signature = (alpha = None, beta = None))]
    fn alphabeta<'py>(
        &mut self,
        py: Python<'py>,
        alpha: Option<f64>,
        beta: Option<f64>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let window = convert::window(alpha, beta)?;
        bind::run_alphabeta(py, &mut self.tree, window)
    }

    /// McCarthy's linemax: {value, bound, move, line, leaves, nodes, cutoffs}.
    #[pyo3(signature = (alpha = None, beta = None))]
    fn line<'py>(
        &mut self,
        py: Python<'py>,
        alpha: Option<f64>,
        beta: Option<f64>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let window = convert::window(alpha, beta)?;
        bind::run_line(py, &mut self.tree, window)
    }

    /// McCarthy's treemax: {value, bound, move, pfmax, pfmin, leaves, nodes, cutoffs}; the
    /// proofs are nested lists (`[v]` a terminal, `[move, *proof]` a choice, a list of
    /// those the replies). With verify=True both proofs are checked against the tree
    /// (AssertionError if one does not hold).
    #[pyo3(signature = (alpha = None, beta = None, verify = false))]
    fn proof<'py>(
        &mut self,
        py: Python<'py>,
        alpha: Option<f64>,
        beta: Option<f64>,
        verify: bool,
    ) -> PyResult<Bound<'py, PyDict>> {
        let window = convert::window(alpha, beta)?;
        bind::run_proof(py, &mut self.tree, window, verify)
    }

    /// The proofs as a Graphviz DOT graph (`gametree tree proof --dot`).
    #[pyo3(signature = (alpha = None, beta = None))]
    fn proof_dot(
        &mut self,
        py: Python<'_>,
        alpha: Option<f64>,
        beta: Option<f64>,
    ) -> PyResult<String> {
        let window: Window<f64> = convert::window(alpha, beta)?;
        let tree = &mut self.tree;
        let result = py.detach(|| alphabeta_proof(tree, window));
        Ok(result.to_dot(
            |out, mv| {
                let _ = write!(out, "{mv}");
            },
            |out, value| {
                let _ = write!(out, "{value}");
            },
        ))
    }

    /// Alpha-beta in the window guess ± width, re-searched with the window doubled until
    /// the value is known: {value, windows, leaves, nodes, cutoffs}.
    #[pyo3(signature = (guess = 0.0, width = 1.0))]
    fn aspiration<'py>(
        &mut self,
        py: Python<'py>,
        guess: f64,
        width: f64,
    ) -> PyResult<Bound<'py, PyDict>> {
        for (name, value) in [("guess", guess), ("width", width)] {
            if !value.is_finite() {
                return Err(InputError::new_err(format!(
                    "{name} must be a finite number"
                )));
            }
        }
        if width <= 0.0 {
            return Err(InputError::new_err("width must be positive"));
        }
        let tree = &mut self.tree;
        let result = py.detach(|| aspiration_value(tree, guess, width));
        let dict = PyDict::new(py);
        dict.set_item("value", result.value)?;
        let windows = PyList::empty(py);
        for window in &result.windows {
            let end = |value: f64| value.is_finite().then_some(value);
            windows.append(PyList::new(py, [end(window.alpha), end(window.beta)])?)?;
        }
        dict.set_item("windows", windows)?;
        dict.set_item("leaves", result.stats.leaves)?;
        dict.set_item("nodes", result.stats.nodes)?;
        dict.set_item("cutoffs", result.stats.cutoffs)?;
        Ok(dict)
    }

    /// Slagle's m&n minimaxing: MAX backs up its m best successors with
    /// a₁ + 2^(x − (a₁ − a₂)·y), MIN its n best with b₁ − 2^(r − (b₂ − b₁)·s):
    /// {value, move, leaves, nodes}.
    #[pyo3(signature = (m = 2, n = 2, x = 3.0, y = 1.0, r = 3.0, s = 1.0))]
    #[allow(clippy::too_many_arguments)]
    fn mn_minimax<'py>(
        &mut self,
        py: Python<'py>,
        m: usize,
        n: usize,
        x: f64,
        y: f64,
        r: f64,
        s: f64,
    ) -> PyResult<Bound<'py, PyDict>> {
        let slagle = convert::slagle(py, (m, n), (x, y), (r, s))?;
        bind::run_m_and_n(py, &mut self.tree, &slagle, false)
    }

    /// Slagle's m&n alpha-beta: the move m&n minimaxing chooses, looking at less of the
    /// tree: {value, move, leaves, nodes, cutoffs}.
    #[pyo3(signature = (m = 2, n = 2, x = 3.0, y = 1.0, r = 3.0, s = 1.0))]
    #[allow(clippy::too_many_arguments)]
    fn mn_alphabeta<'py>(
        &mut self,
        py: Python<'py>,
        m: usize,
        n: usize,
        x: f64,
        y: f64,
        r: f64,
        s: f64,
    ) -> PyResult<Bound<'py, PyDict>> {
        let slagle = convert::slagle(py, (m, n), (x, y), (r, s))?;
        bind::run_m_and_n(py, &mut self.tree, &slagle, true)
    }
}
