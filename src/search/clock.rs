//! A game clock, and the time it allots one move.
//!
//! A player with a clock does not think a fixed time a move: it shares what is left over the
//! moves still to play, adds most of the increment it gets back, and keeps a reserve so
//! that one slow move cannot lose the game on time. Iterative deepening then stops in two
//! ways ([`crate::SearchOptions::time_limit`], [`crate::SearchOptions::new_depth_limit`]):
//! hard at the move's time, and softly by beginning no new depth after half of it, since a
//! depth rarely takes less than the last one did and a depth abandoned is time lost.

use std::time::Duration;

/// A player's clock: the time left, the time added after each move, and (for a control
/// that gives so much time for so many moves) how many moves are left before the next
/// control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameClock {
    /// The time left on the clock.
    pub remaining: Duration,
    /// Added after each move (Fischer's increment).
    pub increment: Duration,
    /// Moves to play before the next time control; `None`: the rest of the game.
    pub moves_to_go: Option<u32>,
}

impl GameClock {
    /// The moves a player without a count is taken to have still to play: a game that goes
    /// on longer gets a smaller share of what is left each move, never nothing.
    pub const ASSUMED_MOVES_TO_GO: u32 = 30;

    /// A clock of `remaining` with `increment` after each move, for the rest of the game.
    #[must_use]
    pub fn new(remaining: Duration, increment: Duration) -> Self {
        GameClock {
            remaining,
            increment,
            moves_to_go: None,
        }
    }

    /// The time for the next move: the time left shared over the moves to go, plus three
    /// quarters of the increment, and never more than half of what is left.
    ///
    /// ```
    /// use std::time::Duration;
    /// use gametree::GameClock;
    /// // Five minutes and two seconds a move: 10 s + 1.5 s.
    /// let clock = GameClock::new(Duration::from_secs(300), Duration::from_secs(2));
    /// assert_eq!(clock.move_time(), Duration::from_millis(11_500));
    /// // One second left of a long game: half of it at most.
    /// let short = GameClock::new(Duration::from_secs(1), Duration::from_secs(10));
    /// assert_eq!(short.move_time(), Duration::from_millis(500));
    /// ```
    #[must_use]
    pub fn move_time(&self) -> Duration {
        let moves = self.moves_to_go.unwrap_or(Self::ASSUMED_MOVES_TO_GO).max(1);
        let share = self.remaining / moves + self.increment * 3 / 4;
        share.min(self.remaining / 2)
    }

    /// The limits of the search for the next move: the hard one, [`Self::move_time`], and
    /// the soft one, half of it, after which no new depth begins
    /// ([`crate::SearchOptions::time_limit`], [`crate::SearchOptions::new_depth_limit`]).
    #[must_use]
    pub fn time_limits(&self) -> (Duration, Duration) {
        let move_time = self.move_time();
        (move_time, move_time / 2)
    }

    /// The clock after a move that took `spent`: the time left less `spent`, plus the
    /// increment, and one move fewer to go (a control reached gives none: the caller sets
    /// the next). `false` when the time ran out during the move (the flag fell), and the
    /// clock then reads zero.
    pub fn after_move(&mut self, spent: Duration) -> bool {
        let Some(left) = self.remaining.checked_sub(spent) else {
            self.remaining = Duration::ZERO;
            return false;
        };
        self.remaining = left + self.increment;
        self.moves_to_go = self.moves_to_go.map(|moves| moves.saturating_sub(1));
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_of_moves_shares_the_time_over_them() {
        let clock = GameClock {
            remaining: Duration::from_secs(60),
            increment: Duration::ZERO,
            moves_to_go: Some(12),
        };
        assert_eq!(clock.move_time(), Duration::from_secs(5));
        // The last move before the control may take half of what is left, not all of it.
        let last = GameClock {
            moves_to_go: Some(1),
            ..clock
        };
        assert_eq!(last.move_time(), Duration::from_secs(30));
        // None to go (the control is reached) is read as one.
        let none = GameClock {
            moves_to_go: Some(0),
            ..clock
        };
        assert_eq!(none.move_time(), Duration::from_secs(30));
    }

    #[test]
    fn a_move_spends_the_time_and_earns_the_increment() {
        let mut clock = GameClock {
            remaining: Duration::from_secs(10),
            increment: Duration::from_secs(1),
            moves_to_go: Some(3),
        };
        assert!(clock.after_move(Duration::from_secs(4)));
        assert_eq!(clock.remaining, Duration::from_secs(7));
        assert_eq!(clock.moves_to_go, Some(2));
        // Over the time left: the flag falls, whatever the increment.
        assert!(!clock.after_move(Duration::from_secs(8)));
        assert_eq!(clock.remaining, Duration::ZERO);
    }

    #[test]
    fn the_time_a_move_is_allotted_never_runs_the_clock_out() {
        // Spending exactly what it allots, a clock without increment never falls.
        let mut clock = GameClock::new(Duration::from_secs(1), Duration::ZERO);
        for _ in 0..200 {
            let spent = clock.move_time();
            assert!(clock.after_move(spent));
        }
        assert!(clock.remaining > Duration::ZERO);
    }
}
