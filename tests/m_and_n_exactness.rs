//! Cutoffs at the exact floating point boundary: trees built so that a successor's value is
//! the last number Slagle's `glbua`/`lubub` (seed 003, Appendix C) should pass over, or the
//! first it must not. The inverses go through log₂ and are sometimes an ulp off; the search
//! corrects them against the backing-up function, so m&n alpha-beta still chooses what m&n
//! minimaxing chooses.

mod m_and_n_support;

use gametree::{BackingUp, Exponents, Player, Slagle, mn_alphabeta, mn_minimax};
use m_and_n_support::Tree;

/// A step of one floating point number toward the best value for `player`, and one away.
type Step = fn(f64) -> f64;

fn steps(player: Player) -> (Step, Step) {
    match player {
        Player::Max => (f64::next_up, f64::next_down),
        Player::Min => (f64::next_down, f64::next_up),
    }
}

/// One boundary: a backing-up function, the better values of a position, and the bound its
/// value is compared with.
struct Case {
    backing: Slagle,
    player: Player,
    leading: Vec<f64>,
    bound: f64,
}

impl Case {
    fn back_up(&self, last: f64) -> f64 {
        let mut best = self.leading.clone();
        best.push(last);
        self.backing.back_up(self.player, &best, None)
    }

    /// Whether a last value `last` leaves the position no better than `bound` for the
    /// player above it (at most the bound for MAX, at least for MIN).
    fn passes(&self, last: f64) -> bool {
        match self.player {
            Player::Max => self.back_up(last) <= self.bound,
            Player::Min => self.back_up(last) >= self.bound,
        }
    }

    /// Slagle's closed-form glbua/lubub.
    fn closed_form(&self) -> f64 {
        self.backing
            .inverse(self.player, &self.leading, self.bound, None)
            .expect("Slagle's family has a closed form")
    }

    /// The exact boundary, found by stepping one number at a time from the closed form:
    /// the last value that passes, going away from the best value.
    fn exact(&self) -> f64 {
        let (toward_best, away) = steps(self.player);
        let mut last = self.closed_form();
        while !self.passes(last) {
            last = away(last);
        }
        while self.passes(toward_best(last)) {
            last = toward_best(last);
        }
        last
    }

    /// A tree where the root's first successor is worth `bound` and the second backs up,
    /// through one position of `player`, the leading values and a last value `last` found
    /// one ply further down (behind a successor that is never better for the player above).
    fn tree(&self, last: f64) -> Tree {
        let leading: Vec<String> = self.leading.iter().map(f64::to_string).collect();
        let never = match self.player {
            Player::Max => "inf",
            Player::Min => "-inf",
        };
        let text = format!(
            "({} (({} ({last} {never}))))",
            self.bound,
            leading.join(" ")
        );
        Tree::with_root_player(&text, self.player)
    }
}

/// Boundaries from a grid of exponents, leading values and bounds, for m or n = 2 and 3.
fn cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for (shift, slope) in [
        (0.3, 0.37),
        (1.7, 1.3),
        (2.9, 0.11),
        (-0.6, 2.2),
        (3.0, 1.0),
    ] {
        let exponents = Exponents::new(shift, slope).expect("valid exponents");
        for count in [2, 3] {
            let backing = Slagle::new(count, count, exponents, exponents).expect("valid counts");
            for best in [1.1, 6.0, 13.37, 100.25] {
                for gap in [0.01, 0.3, 1.7, 4.2] {
                    for player in [Player::Max, Player::Min] {
                        let sign = if player == Player::Max { -1.0 } else { 1.0 };
                        let mut leading = vec![best];
                        if count == 3 {
                            leading.push(best + sign * gap / 3.0);
                        }
                        let mut case = Case {
                            backing: backing.clone(),
                            player,
                            leading,
                            bound: 0.0,
                        };
                        case.bound = case.back_up(best + sign * gap);
                        cases.push(case);
                    }
                }
            }
        }
    }
    cases
}

#[test]
fn the_closed_form_inverse_is_sometimes_off_by_an_ulp_on_the_wrong_side() {
    let cases = cases();
    let dangerous = cases
        .iter()
        .filter(|case| {
            let guess = case.closed_form();
            // The closed form would pass over a value that backs up past the bound.
            !case.passes(guess)
        })
        .count();
    let off = cases
        .iter()
        .filter(|case| case.closed_form() != case.exact())
        .count();
    assert!(dangerous > 0, "no case shows the danger; widen the grid");
    assert!(off >= dangerous);
}

#[test]
fn alphabeta_chooses_as_minimaxing_on_both_sides_of_every_boundary() {
    for case in cases() {
        let exact = case.exact();
        let closed = case.closed_form();
        let (toward_best, away) = steps(case.player);
        for last in [
            exact,
            toward_best(exact),
            away(exact),
            closed,
            toward_best(closed),
            away(closed),
        ] {
            // The second successor is chosen exactly when it is strictly better than the
            // first; a tie keeps the first.
            let expected = if case.passes(last) { Some(1) } else { Some(2) };
            let full = mn_minimax(&mut case.tree(last), &case.backing);
            let pruned = mn_alphabeta(&mut case.tree(last), &case.backing);
            let label = format!(
                "{:?} leading {:?} bound {} last {last}",
                case.player, case.leading, case.bound
            );
            assert_eq!(full.best_move, expected, "minimaxing, {label}");
            assert_eq!(pruned.best_move, expected, "alpha-beta, {label}");
            assert_eq!(pruned.value.to_bits(), full.value.to_bits(), "{label}");
        }
    }
}

#[test]
fn a_value_on_the_boundary_is_cut_off_and_the_next_number_is_not() {
    // Fig. 5's numbers: with a₂ = 6 and old α = 10, glbua = 5 exactly; a successor worth 5
    // is not needed (the position is then worth 10 = α, no better than P1), one worth the
    // next number after 5 is.
    let case = Case {
        backing: Slagle::new(
            2,
            2,
            Exponents::new(3.0, 1.0).expect("valid exponents"),
            Exponents::new(3.0, 1.0).expect("valid exponents"),
        )
        .expect("valid counts"),
        player: Player::Max,
        leading: vec![6.0],
        bound: 10.0,
    };
    assert_eq!(case.exact(), 5.0);
    let mut at = case.tree(5.0);
    let result = mn_alphabeta(&mut at, &case.backing);
    assert_eq!((result.best_move, result.value), (Some(1), 10.0));
    assert!(
        !at.was_entered("P2122"),
        "the cutoff skips the last successor"
    );
    let mut above = case.tree(5.0f64.next_up());
    let result = mn_alphabeta(&mut above, &case.backing);
    assert_eq!(result.best_move, Some(2));
    assert!(above.was_entered("P2122"));
}
