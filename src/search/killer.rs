//! The killer heuristic in game-independent form (seed 004: "Some additional heuristics,
//! such as the killer heuristic can also be put in this game independent form").
//!
//! A move that refuted one position (caused a cutoff) often refutes its siblings too: the
//! search remembers, for each ply, the last few moves that caused a cutoff there and tries
//! them first at the next position of that ply — when the game's move list holds them. The
//! table knows nothing of the game but that moves can be compared for equality.

/// How many killer moves are remembered per ply.
pub const KILLER_SLOTS: usize = 2;

/// The killer moves of each ply: the moves that most recently caused a cutoff at that
/// distance from the root, most recent first.
#[derive(Clone, Debug)]
pub struct Killers<M> {
    /// `slots[ply]`: the killers of `ply`, most recent first.
    slots: Vec<[Option<M>; KILLER_SLOTS]>,
}

impl<M> Default for Killers<M> {
    fn default() -> Self {
        Killers { slots: Vec::new() }
    }
}

impl<M: Copy + Eq> Killers<M> {
    /// An empty table.
    #[must_use]
    pub fn new() -> Self {
        Killers::default()
    }

    /// Forgets every killer.
    pub fn clear(&mut self) {
        self.slots.clear();
    }

    /// Remembers that `mv` caused a cutoff at `ply`. It becomes the first killer of the
    /// ply; a killer already remembered moves to the front, and when the slots are full the
    /// oldest is forgotten.
    pub fn record(&mut self, ply: usize, mv: M) {
        if self.slots.len() <= ply {
            self.slots.resize(ply + 1, [None; KILLER_SLOTS]);
        }
        let slots = &mut self.slots[ply];
        let end = slots
            .iter()
            .position(|&slot| slot == Some(mv))
            .unwrap_or(KILLER_SLOTS - 1);
        slots[..=end].rotate_right(1);
        slots[0] = Some(mv);
    }

    /// The killers of `ply`, most recent first.
    pub fn at(&self, ply: usize) -> impl Iterator<Item = M> + '_ {
        self.slots
            .get(ply)
            .into_iter()
            .flat_map(|slots| slots.iter().flatten().copied())
    }

    /// Moves the killers of `ply` that `moves` holds to its front, most recent first, and
    /// keeps the other moves in their order. Returns how many moves were brought forward.
    /// A killer that is not in `moves` (not legal here) is ignored: the table never adds a
    /// move the game did not generate.
    pub fn order(&self, ply: usize, moves: &mut [M]) -> usize {
        let mut front = 0;
        for killer in self.at(ply) {
            if move_to_front(&mut moves[front..], killer) {
                front += 1;
            }
        }
        front
    }
}

/// Moves the first occurrence of `mv` in `moves` to the front, keeping the order of the
/// moves before it; says whether `mv` was found.
pub(crate) fn move_to_front<M: Copy + Eq>(moves: &mut [M], mv: M) -> bool {
    match moves.iter().position(|&candidate| candidate == mv) {
        Some(index) => {
            moves[..=index].rotate_right(1);
            true
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recorded_killer_comes_first_and_the_oldest_is_forgotten() {
        let mut killers = Killers::new();
        killers.record(3, 'a');
        killers.record(3, 'b');
        assert_eq!(killers.at(3).collect::<Vec<_>>(), vec!['b', 'a']);
        killers.record(3, 'a');
        assert_eq!(killers.at(3).collect::<Vec<_>>(), vec!['a', 'b']);
        killers.record(3, 'c');
        assert_eq!(killers.at(3).collect::<Vec<_>>(), vec!['c', 'a']);
        assert_eq!(killers.at(2).count(), 0);
        assert_eq!(killers.at(9).count(), 0);
    }

    #[test]
    fn ordering_brings_present_killers_forward_and_keeps_the_rest_in_order() {
        let mut killers = Killers::new();
        killers.record(0, 5);
        killers.record(0, 9);
        killers.record(0, 4);
        // Killers of ply 0: 4, 9; 9 is not a legal move here.
        let mut moves = [1, 2, 3, 4, 5, 6];
        assert_eq!(killers.order(0, &mut moves), 1);
        assert_eq!(moves, [4, 1, 2, 3, 5, 6]);
        killers.record(0, 6);
        let mut moves = [1, 2, 3, 4, 5, 6];
        assert_eq!(killers.order(0, &mut moves), 2);
        assert_eq!(moves, [6, 4, 1, 2, 3, 5]);
    }
}
