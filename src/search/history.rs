//! The history heuristic in game-independent form, beside the killers of
//! [`crate::search::killer`]: a move that cut off the search anywhere in the tree is tried
//! early everywhere. The game names its moves by small numbers
//! ([`crate::Evaluate::history_slot`]); the table keeps a counter for each number and each
//! player, grown as larger numbers appear. Ordinary alpha-beta
//! ([`crate::SearchOptions::use_history`]) and m&n alpha-beta
//! ([`crate::MnOrdering::history`]) share it.

use crate::game::Player;

/// Cutoff counters by history slot and player.
#[derive(Clone, Debug, Default)]
pub(crate) struct HistoryTable {
    /// By slot × 2 + whether MAX was to move.
    counts: Vec<u64>,
}

impl HistoryTable {
    fn index(slot: usize, player: Player) -> usize {
        slot * 2 + usize::from(player == Player::Max)
    }

    fn count(&self, slot: Option<usize>, player: Player) -> u64 {
        slot.and_then(|slot| self.counts.get(Self::index(slot, player)))
            .copied()
            .unwrap_or(0)
    }

    /// Sorts `moves` by their counts for `player`, most first, equals in their order: an
    /// insertion sort in place (`sort_by_key` may allocate a buffer, and move lists are
    /// short). `slot` names each move.
    pub(crate) fn order<M: Copy>(
        &self,
        moves: &mut [M],
        player: Player,
        slot: impl Fn(M) -> Option<usize>,
    ) {
        let count = |mv: M| self.count(slot(mv), player);
        for next in 1..moves.len() {
            let mut at = next;
            while at > 0 && count(moves[at - 1]) < count(moves[at]) {
                moves.swap(at - 1, at);
                at -= 1;
            }
        }
    }

    /// Counts a cutoff by the move named `slot`, made by `player`, worth `weight` (the
    /// searches weigh it by the square of the plies searched below it).
    pub(crate) fn record(&mut self, slot: usize, player: Player, weight: u64) {
        let index = Self::index(slot, player);
        if self.counts.len() <= index {
            self.counts.resize(index + 1, 0);
        }
        self.counts[index] += weight;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_with_more_cutoffs_come_first_for_their_player_alone() {
        let mut table = HistoryTable::default();
        table.record(3, Player::Max, 4);
        table.record(1, Player::Max, 9);
        table.record(2, Player::Min, 25);
        // Moves 0..5 named by themselves; move 4 has no name.
        let slot = |mv: usize| (mv != 4).then_some(mv);
        let mut moves = [0, 1, 2, 3, 4];
        table.order(&mut moves, Player::Max, slot);
        assert_eq!(moves, [1, 3, 0, 2, 4]);
        let mut moves = [0, 1, 2, 3, 4];
        table.order(&mut moves, Player::Min, slot);
        assert_eq!(moves, [2, 0, 1, 3, 4]);
    }
}
