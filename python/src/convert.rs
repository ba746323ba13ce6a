//! Between Python and gametree: values, players, bounds, stop reasons, windows, budgets
//! and Slagle's backing-up functions, each checked as the command line checks it.

use std::f64::consts::LN_2;
use std::time::Duration;

use pyo3::exceptions::{PyTypeError, PyUserWarning};
use pyo3::prelude::*;

use gametree::search::deepening::StopReason;
use gametree::{BackingUpError, Exponents};
use gametree::{Game, Player, Search, Slagle, Value, Window};

use crate::InputError;

/// A game value Python can hand in and get back: `float` for trees and Python games,
/// `int` for the games written in Rust (and for the solver).
pub trait PyValue: Value + Default + Send + Sync + 'static {
    /// The value as a Python number.
    fn to_py<'py>(self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>>;

    /// The number a Python callback returned (`what` names it in errors).
    fn from_py(object: &Bound<'_, PyAny>, what: &str) -> PyResult<Self>;

    /// An end of a window given as a float: ±∞ stand for [`Value::MIN`] and [`Value::MAX`].
    fn from_window_end(end: f64, name: &str) -> PyResult<Self>;
}

impl PyValue for f64 {
    fn to_py<'py>(self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(self.into_pyobject(py)?.into_any())
    }

    fn from_py(object: &Bound<'_, PyAny>, what: &str) -> PyResult<Self> {
        let value: f64 = object.extract().map_err(|_| {
            PyTypeError::new_err(format!(
                "{what} must return a number, not {}",
                type_name(object)
            ))
        })?;
        if value.is_nan() {
            return Err(InputError::new_err(format!(
                "{what} returned NaN, which has no place in the order of values"
            )));
        }
        Ok(value)
    }

    fn from_window_end(end: f64, name: &str) -> PyResult<Self> {
        if end.is_nan() {
            return Err(InputError::new_err(format!("{name} cannot be NaN")));
        }
        Ok(end)
    }
}

impl PyValue for i32 {
    fn to_py<'py>(self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(self.into_pyobject(py)?.into_any())
    }

    fn from_py(object: &Bound<'_, PyAny>, what: &str) -> PyResult<Self> {
        let not_an_integer = || {
            InputError::new_err(format!(
                "{what} must return a whole number for this search (the solver's values \
                 are integers), not {}",
                object
                    .repr()
                    .map_or_else(|_| "?".to_string(), |text| text.to_string())
            ))
        };
        if let Ok(value) = object.extract::<i64>() {
            return i32::try_from(value).map_err(|_| not_an_integer());
        }
        let value: f64 = object.extract().map_err(|_| {
            PyTypeError::new_err(format!(
                "{what} must return a number, not {}",
                type_name(object)
            ))
        })?;
        if value.fract() == 0.0 && value.abs() <= f64::from(i32::MAX) {
            Ok(value as i32)
        } else {
            Err(not_an_integer())
        }
    }

    fn from_window_end(end: f64, name: &str) -> PyResult<Self> {
        if end == f64::NEG_INFINITY {
            Ok(i32::MIN)
        } else if end == f64::INFINITY {
            Ok(i32::MAX)
        } else if end.fract() == 0.0 && end.abs() < f64::from(i32::MAX) {
            Ok(end as i32)
        } else {
            Err(InputError::new_err(format!(
                "{name} must be a whole number or ±inf for this game, not {end}"
            )))
        }
    }
}

/// The name of an object's type, for messages.
pub fn type_name(object: &Bound<'_, PyAny>) -> String {
    object
        .get_type()
        .name()
        .map_or_else(|_| "?".to_string(), |name| name.to_string())
}

/// The two players: MAX, who prefers greater values and moves first in every game here,
/// and MIN. Values are always from MAX's point of view.
#[pyclass(eq, eq_int, frozen, hash, name = "Player", module = "gametree")]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PyPlayer {
    /// The maximizing player (X, Black, South, the first player).
    #[pyo3(name = "MAX")]
    Max = 0,
    /// The minimizing player (O, White, North, the second player).
    #[pyo3(name = "MIN")]
    Min = 1,
}

#[pymethods]
impl PyPlayer {
    /// The other player.
    fn opponent(&self) -> PyPlayer {
        match self {
            PyPlayer::Max => PyPlayer::Min,
            PyPlayer::Min => PyPlayer::Max,
        }
    }
}

impl From<Player> for PyPlayer {
    fn from(player: Player) -> Self {
        match player {
            Player::Max => PyPlayer::Max,
            Player::Min => PyPlayer::Min,
        }
    }
}

impl From<PyPlayer> for Player {
    fn from(player: PyPlayer) -> Self {
        match player {
            PyPlayer::Max => Player::Max,
            PyPlayer::Min => Player::Min,
        }
    }
}

/// A bound as the command line's JSON writes it.
pub fn bound_name(bound: gametree::Bound) -> &'static str {
    match bound {
        gametree::Bound::Exact => "exact",
        gametree::Bound::Upper => "upper",
        gametree::Bound::Lower => "lower",
    }
}

/// A stop reason as `gametree checkers best --json` writes it.
pub fn stop_name(stop: StopReason) -> &'static str {
    match stop {
        StopReason::DepthReached => "depth reached",
        StopReason::TreeExhausted => "tree exhausted",
        StopReason::NodeBudget => "node budget",
        StopReason::TimeLimit => "time limit",
        StopReason::Stopped => "stopped",
    }
}

/// The window (alpha, beta), −∞ and ∞ when not given; `gametree tree`'s checks.
pub fn window<V: PyValue>(alpha: Option<f64>, beta: Option<f64>) -> PyResult<Window<V>> {
    let alpha_end = alpha.unwrap_or(f64::NEG_INFINITY);
    let beta_end = beta.unwrap_or(f64::INFINITY);
    if alpha_end.is_nan() || beta_end.is_nan() {
        return Err(InputError::new_err("alpha and beta cannot be NaN"));
    }
    if alpha_end >= beta_end {
        return Err(InputError::new_err(format!(
            "alpha ({alpha_end}) must be less than beta ({beta_end})"
        )));
    }
    Ok(Window::new(
        V::from_window_end(alpha_end, "alpha")?,
        V::from_window_end(beta_end, "beta")?,
    ))
}

/// The deepest search the bindings accept: the library's bound on iterative deepening.
pub const MAX_DEPTH: u32 = gametree::search::builder::UNLIMITED_DEPTH;

/// A search's budget, checked.
#[derive(Clone, Copy, Debug, Default)]
pub struct Budget {
    /// Plies to look ahead at most.
    pub depth: Option<u32>,
    /// Wall-clock time to stop after.
    pub time_limit: Option<Duration>,
    /// Positions to visit at most.
    pub max_nodes: Option<u64>,
}

impl Budget {
    /// The budget of `depth`, `time_limit` (seconds) and `max_nodes`.
    pub fn new(
        depth: Option<u32>,
        time_limit: Option<f64>,
        max_nodes: Option<u64>,
    ) -> PyResult<Self> {
        if let Some(depth) = depth
            && depth > MAX_DEPTH
        {
            return Err(InputError::new_err(format!(
                "depth must be at most {MAX_DEPTH}, not {depth}"
            )));
        }
        let time_limit = match time_limit {
            None => None,
            Some(seconds) if seconds.is_finite() && seconds > 0.0 && seconds <= 1e6 => {
                Some(Duration::from_secs_f64(seconds))
            }
            Some(seconds) => {
                return Err(InputError::new_err(format!(
                    "time_limit must be a positive number of seconds, not {seconds}"
                )));
            }
        };
        Ok(Budget {
            depth,
            time_limit,
            max_nodes,
        })
    }

    /// The budget applied to a search.
    pub fn apply<'a, G: Game>(&self, mut search: Search<'a, G>) -> Search<'a, G> {
        if let Some(depth) = self.depth {
            search = search.depth(depth);
        }
        if let Some(limit) = self.time_limit {
            search = search.time_limit(limit);
        }
        if let Some(nodes) = self.max_nodes {
            search = search.max_nodes(nodes);
        }
        search
    }
}

/// The most values `m` or `n` may back up (as `gametree tree`): more than this many
/// successors is no real tree, and each position sets aside room for `m` values.
const MOST_BACKED_UP: usize = 65_536;

/// Slagle's backing-up functions from m, n, x, y, r, s, checked as `gametree tree` checks
/// them; a `UserWarning` when one breaks Slagle's monotonicity condition.
pub fn slagle(
    py: Python<'_>,
    (m, n): (usize, usize),
    (x, y): (f64, f64),
    (r, s): (f64, f64),
) -> PyResult<Slagle> {
    let input = |error: BackingUpError| InputError::new_err(error.to_string());
    let max = Exponents::new(x, y).map_err(input)?;
    let min = Exponents::new(r, s).map_err(input)?;
    for (name, count) in [("m", m), ("n", n)] {
        if count > MOST_BACKED_UP {
            return Err(InputError::new_err(format!(
                "{name} must be at most {MOST_BACKED_UP}, got {count}"
            )));
        }
    }
    let slagle = Slagle::new(m, n, max, min).map_err(input)?;
    for (player, _) in slagle.monotonicity_violations() {
        let (count, exponents, names) = match player {
            Player::Max => (m, max, ("m", "x", "y")),
            Player::Min => (n, min, ("n", "r", "s")),
        };
        let product = (count - 1) as f64 * exponents.slope * exponents.shift.exp2() * LN_2;
        let (count_name, shift_name, slope_name) = names;
        let message = format!(
            "{player}'s backing-up function is not monotone: \
             ({count_name} − 1)·{slope_name}·2^{shift_name}·ln 2 = {product:.3} > 1 \
             (Slagle's theorem), so a better best successor can lower the backed-up value"
        );
        PyErr::warn(
            py,
            &py.get_type::<PyUserWarning>(),
            &std::ffi::CString::new(message).expect("invariant: no NUL in the message"),
            1,
        )?;
    }
    Ok(slagle)
}

/// Checks a table size as the command line's `--table-mib` is checked: at least 1 MiB
/// and at most three quarters of the memory available.
pub fn check_table_mib(mib: usize) -> PyResult<()> {
    const MIB: u64 = 1 << 20;
    if mib == 0 {
        return Err(InputError::new_err(
            "table_mib 0: the table needs at least 1 MiB",
        ));
    }
    let available = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| {
            let line = text
                .lines()
                .find(|line| line.starts_with("MemAvailable:"))?
                .to_string();
            let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
            kib.checked_mul(1024)
        });
    let (limit, source) = match available {
        Some(available) => (
            (available as f64 * 0.75) as u64,
            format!(
                "three quarters of the {} MiB this machine has available",
                available / MIB
            ),
        ),
        None => (
            4096 * MIB,
            "the limit where the free memory is unknown".to_string(),
        ),
    };
    let bytes = (mib as u64).saturating_mul(MIB);
    if bytes > limit {
        return Err(InputError::new_err(format!(
            "table_mib {mib}: the transposition table would take {} MiB, more than {} MiB ({source})",
            bytes.div_ceil(MIB),
            limit / MIB
        )));
    }
    Ok(())
}
