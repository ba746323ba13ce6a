//! The history heuristic in game-independent form, beside the killers of
//! [`crate::search::killer`]: a move that cut off the search anywhere in the tree is tried
//! early everywhere. The game names its moves by small numbers
//! ([`crate::Evaluate::history_slot`]); the table keeps a counter for each number and each
//! player, grown as larger numbers appear. Ordinary alpha-beta
//! ([`crate::SearchOptions::use_history`]) and m&n alpha-beta
//! ([`crate::MnOrdering::history`]) share it.

use crate::game::Player;

/// The longest move list whose counts [`HistoryTable::order`] reads once, into an array
/// (zeroed at every call: a few cache lines, more than most lists need).
const ORDERED_AT_ONCE: usize = 32;

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
    /// short), each move's count read once into an array on the stack beside it (a list
    /// longer than the array reads them as it compares). `slot` names each move.
    pub(crate) fn order<M: Copy>(
        &self,
        moves: &mut [M],
        player: Player,
        slot: impl Fn(M) -> Option<usize>,
    ) {
        let count = |mv: M| self.count(slot(mv), player);
        let kept = moves.len() <= ORDERED_AT_ONCE;
        let mut counts = [0; ORDERED_AT_ONCE];
        if kept {
            for (counted, &mv) in counts.iter_mut().zip(moves.iter()) {
                *counted = count(mv);
            }
        }
        let before = |moves: &[M], counts: &[u64], at: usize| {
            if kept {
                counts[at - 1] < counts[at]
            } else {
                count(moves[at - 1]) < count(moves[at])
            }
        };
        for next in 1..moves.len() {
            let mut at = next;
            while at > 0 && before(moves, &counts, at) {
                moves.swap(at - 1, at);
                if kept {
                    counts.swap(at - 1, at);
                }
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

    #[test]
    fn a_list_longer_than_the_array_is_ordered_the_same_way() {
        // Counts that repeat (ties keep their order) over 100 moves, past ORDERED_AT_ONCE.
        let mut table = HistoryTable::default();
        for slot in 0..100 {
            table.record(slot, Player::Max, (slot as u64 * 37) % 11);
        }
        let slot = |mv: usize| Some(mv);
        let mut long: Vec<usize> = (0..100).collect();
        table.order(&mut long, Player::Max, slot);
        let mut expected: Vec<usize> = (0..100).collect();
        expected.sort_by_key(|&mv| std::cmp::Reverse((mv as u64 * 37) % 11));
        assert_eq!(long, expected);
        // The first 20 alone, through the array: the same order as a stable sort.
        let mut short: Vec<usize> = (0..20).collect();
        table.order(&mut short, Player::Max, slot);
        let mut expected: Vec<usize> = (0..20).collect();
        expected.sort_by_key(|&mv| std::cmp::Reverse((mv as u64 * 37) % 11));
        assert_eq!(short, expected);
    }
}
