//! Watching a search as it runs: an [`Observer`] told each position the search enters, the
//! leaves it evaluates, the values it backs up and the moves it cuts off.
//!
//! Teaching is the reason: a student learns alpha-beta by watching which branches it cuts and
//! why (the web page of `gametree serve` steps through these events). The observer is called
//! from inside the real searches, not from a copy of them written for display, so what is
//! shown is what the library does. Searches without an observer pass [`NoObserver`], whose
//! methods are empty and compile away.

use crate::search::Window;

/// Why a search stopped looking at the remaining successors of a position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CutoffReason<V> {
    /// At MAX's position a successor worth `value` ≥ β: MIN, above, already has a move
    /// that holds MAX to β (McCarthy's `vmaxlis` returning β).
    BetaCutoff {
        /// The successor's value.
        value: V,
        /// β at the position.
        beta: V,
    },
    /// At MIN's position a successor worth `value` ≤ α: MAX, above, already has a move
    /// worth α (`vminlis` returning α).
    AlphaCutoff {
        /// The successor's value.
        value: V,
        /// α at the position.
        alpha: V,
    },
    /// m&n alpha-beta: the values backed up so far already reach the bound `bound` of the
    /// position's window, for the player to move, whatever the rest are worth.
    Bound {
        /// The value the position is known to back up at least (MAX) or at most (MIN).
        value: V,
        /// The end of the window it reaches.
        bound: V,
    },
}

/// What a search tells its watcher. Every method has an empty default, so an observer
/// implements only what it shows.
///
/// The calls nest as the search does: `enter` for the root, then for each successor searched
/// `descend(move)`, the successor's own calls, and its `leave(value)`; a leaf gives `leaf`
/// between its `enter` and `leave`; `cutoff` comes after the last successor searched.
pub trait Observer<M, V> {
    /// The search enters the current position with this window (`None` for the searches
    /// without one: minimax and m&n minimaxing).
    fn enter(&mut self, _window: Option<Window<V>>) {}
    /// The search is about to play `mv` and search the position it leads to.
    fn descend(&mut self, _mv: M) {}
    /// The current position is a leaf (terminal, or at the depth limit) worth `value`.
    fn leaf(&mut self, _value: V) {}
    /// The successors in `remaining` are not searched, for `reason`.
    fn cutoff(&mut self, _remaining: &[M], _reason: CutoffReason<V>) {}
    /// The search leaves the current position backing up `value` to its parent.
    fn leave(&mut self, _value: V) {}
}

/// The observer of the searches nobody watches.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoObserver;

impl<M, V> Observer<M, V> for NoObserver {}

/// Every call an observer received, in order: for tests and for tools that show a search.
#[derive(Clone, Debug, PartialEq)]
pub enum Event<M, V> {
    /// [`Observer::enter`].
    Enter(Option<Window<V>>),
    /// [`Observer::descend`].
    Descend(M),
    /// [`Observer::leaf`].
    Leaf(V),
    /// [`Observer::cutoff`].
    Cutoff(Vec<M>, CutoffReason<V>),
    /// [`Observer::leave`].
    Leave(V),
}

/// An observer that records every event.
#[derive(Clone, Debug, PartialEq)]
pub struct Recorder<M, V> {
    /// The events so far.
    pub events: Vec<Event<M, V>>,
}

impl<M, V> Default for Recorder<M, V> {
    fn default() -> Self {
        Recorder { events: Vec::new() }
    }
}

impl<M: Copy, V> Recorder<M, V> {
    /// The position each event belongs to, as the moves from the root, in the order of
    /// [`Recorder::events`]: a `descend` belongs to the position it leaves, the `enter`
    /// after it to the position it reaches, and that position's `leaf`, `cutoff` and
    /// `leave` to it too. What a display needs to put each event on its node.
    #[must_use]
    pub fn paths(&self) -> Vec<Vec<M>> {
        let mut path = Vec::new();
        let mut pending = None;
        let mut paths = Vec::with_capacity(self.events.len());
        for event in &self.events {
            match event {
                Event::Descend(mv) => {
                    paths.push(path.clone());
                    pending = Some(*mv);
                }
                Event::Enter(_) => {
                    if let Some(mv) = pending.take() {
                        path.push(mv);
                    }
                    paths.push(path.clone());
                }
                Event::Leaf(_) | Event::Cutoff(..) => paths.push(path.clone()),
                Event::Leave(_) => {
                    paths.push(path.clone());
                    path.pop();
                }
            }
        }
        paths
    }
}

impl<M: Copy, V> Observer<M, V> for Recorder<M, V> {
    fn enter(&mut self, window: Option<Window<V>>) {
        self.events.push(Event::Enter(window));
    }
    fn descend(&mut self, mv: M) {
        self.events.push(Event::Descend(mv));
    }
    fn leaf(&mut self, value: V) {
        self.events.push(Event::Leaf(value));
    }
    fn cutoff(&mut self, remaining: &[M], reason: CutoffReason<V>) {
        self.events.push(Event::Cutoff(remaining.to_vec(), reason));
    }
    fn leave(&mut self, value: V) {
        self.events.push(Event::Leave(value));
    }
}
