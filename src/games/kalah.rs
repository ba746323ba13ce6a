//! Kalah(h, s): h houses a side and s seeds a house, the game on which Slagle and Dixon first
//! reported M&N ("Experiments with the M & N tree-searching program", CACM 13(3), 1970), and
//! which Irving, Donkers and Uiterwijk solved up to six houses and five seeds ("Solving
//! Kalah", ICGA Journal 23(3), 2000).
//!
//! # Rules
//! South (the first player, MAX) owns houses 1..h on the near side and the store on the
//! right; North (MIN) the far houses and the store on the left. A move takes every seed of
//! one of the mover's non-empty houses and sows them one by one counter-clockwise, into the
//! mover's own store but never the opponent's. When the last seed lands in the mover's
//! store, the mover moves again — so the players need not alternate, and every search asks
//! [`Game::to_move`] at each position. When it lands in one of the mover's houses that was
//! empty, that seed and the seeds of the opposite house are captured into the mover's
//! store. The game ends when a side has no seeds ([`Ending`]); each player then adds the
//! seeds left in their own houses to their store. The value is South's store less North's.
//!
//! The published results differ in two rules, which [`KalahRules`] selects:
//!
//! | rule | [`KalahRules::irving`] (the default) | [`KalahRules::standard`] |
//! |---|---|---|
//! | a capture when the opposite house is empty | yes: the last seed alone goes to the store ("empty capture") | no: nothing happens |
//! | used by | Irving, Donkers and Uiterwijk 2000 (Kalah(6,4) is a first-player win by 10, Kalah(6,5) by 12) | the rules as Wikipedia states them; Rawlings' 2015 analyses of the standard game |
//!
//! Both end the game as soon as either side's houses are empty, as Irving's solver does;
//! [`Ending::MoverHasNoSeeds`] is the other reading found in rule books, where the game
//! goes on until the player to move has nothing to sow.

use std::fmt;

use crate::game::{Evaluate, Game, Player};
use crate::random::SplitMix64;
use crate::search::solver::{Outlook, Solvable};
use crate::search::transposition::ZobristHash;

/// The most houses a side may have.
pub const MAX_HOUSES: usize = 6;
/// The most seeds a house may start with: every count then fits in a byte with room to
/// spare (6 · 2 · 20 = 240).
pub const MAX_SEEDS: u8 = 20;

/// Pits on a board of [`MAX_HOUSES`]: the houses and stores of both sides.
const PITS: usize = 2 * MAX_HOUSES + 2;

/// When the game ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// As soon as either side's houses are empty after a move (Irving's solver; Wikipedia).
    EitherSideEmpty,
    /// When the player to move has no seeds to sow; until then the other side may be empty.
    MoverHasNoSeeds,
}

/// The rule variants of Kalah (see the [module documentation](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KalahRules {
    /// Whether a last seed in an empty house of the mover is captured even when the
    /// opposite house is empty (the "empty capture" rule of Irving et al.).
    pub empty_capture: bool,
    /// When the game ends.
    pub ending: Ending,
}

impl KalahRules {
    /// The rules of Irving, Donkers and Uiterwijk's "Solving Kalah" (2000): empty captures,
    /// the game over when either side is empty.
    #[must_use]
    pub const fn irving() -> Self {
        KalahRules {
            empty_capture: true,
            ending: Ending::EitherSideEmpty,
        }
    }

    /// The rules as commonly stated (Wikipedia): a capture needs seeds in the opposite
    /// house; the game over when either side is empty.
    #[must_use]
    pub const fn standard() -> Self {
        KalahRules {
            empty_capture: false,
            ending: Ending::EitherSideEmpty,
        }
    }
}

impl Default for KalahRules {
    /// [`KalahRules::irving`]: the rules of the published solutions.
    fn default() -> Self {
        KalahRules::irving()
    }
}

/// A board that cannot be set up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KalahError {
    /// Houses outside 1..=6 or seeds outside 1..=20.
    #[error(
        "Kalah({houses},{seeds}) cannot be set up: houses must be 1 to {MAX_HOUSES} and seeds \
         1 to {MAX_SEEDS}"
    )]
    Size {
        /// Houses asked for.
        houses: usize,
        /// Seeds asked for.
        seeds: u8,
    },
    /// A list of pits of the wrong length, or with more seeds than a byte of ours holds.
    #[error("{0}")]
    Pits(String),
    /// A move that is not legal here.
    #[error("{0}")]
    Move(String),
}

/// The state one move changes: what [`Game::revert`] restores.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct State {
    pits: [u8; PITS],
    to_move: Player,
    over: bool,
}

/// A Kalah position with its rules, and the states before each move played (so that
/// [`Game::revert`] is a copy back).
#[derive(Clone, Debug)]
pub struct Kalah {
    houses: usize,
    rules: KalahRules,
    state: State,
    history: Vec<State>,
}

impl Kalah {
    /// The start of Kalah(`houses`, `seeds`) under `rules`, South to move.
    ///
    /// # Errors
    /// [`KalahError::Size`] unless 1 ≤ houses ≤ 6 and 1 ≤ seeds ≤ 20.
    ///
    /// # Example
    /// ```
    /// use gametree::games::kalah::{Kalah, KalahRules};
    /// let game = Kalah::new(6, 4, KalahRules::default()).expect("a standard board");
    /// assert_eq!(game.seeds_in_play(), 48);
    /// ```
    pub fn new(houses: usize, seeds: u8, rules: KalahRules) -> Result<Kalah, KalahError> {
        if !(1..=MAX_HOUSES).contains(&houses) || !(1..=MAX_SEEDS).contains(&seeds) {
            return Err(KalahError::Size { houses, seeds });
        }
        let mut pits = vec![seeds; 2 * houses + 2];
        pits[houses] = 0;
        pits[2 * houses + 1] = 0;
        Kalah::from_pits(&pits, Player::Max, rules)
    }

    /// A position from its pits in sowing order — South's houses 1..h, South's store,
    /// North's houses 1..h, North's store — and the player to move (MAX is South).
    ///
    /// # Errors
    /// [`KalahError::Pits`] when the list is not 4 to 14 long and even, or holds more than
    /// 240 seeds.
    pub fn from_pits(pits: &[u8], to_move: Player, rules: KalahRules) -> Result<Kalah, KalahError> {
        if pits.len() < 4 || pits.len() > PITS || !pits.len().is_multiple_of(2) {
            return Err(KalahError::Pits(format!(
                "a board has 2·h + 2 pits (houses and stores) with 1 ≤ h ≤ {MAX_HOUSES}, not {}",
                pits.len()
            )));
        }
        let total: u32 = pits.iter().map(|&seeds| u32::from(seeds)).sum();
        if total > 240 {
            return Err(KalahError::Pits(format!(
                "{total} seeds: at most 240 fit the board"
            )));
        }
        let houses = pits.len() / 2 - 1;
        let mut state = State {
            pits: [0; PITS],
            to_move,
            over: false,
        };
        state.pits[..pits.len()].copy_from_slice(pits);
        let mut game = Kalah {
            houses,
            rules,
            state,
            history: Vec::new(),
        };
        game.end_if_over(to_move);
        Ok(game)
    }

    /// Houses a side.
    #[must_use]
    pub fn houses(&self) -> usize {
        self.houses
    }

    /// The rules played.
    #[must_use]
    pub fn rules(&self) -> KalahRules {
        self.rules
    }

    /// The pits in sowing order: South's houses, South's store, North's houses, North's
    /// store.
    #[must_use]
    pub fn pits(&self) -> &[u8] {
        &self.state.pits[..2 * self.houses + 2]
    }

    /// The seeds in `player`'s store (MAX is South).
    #[must_use]
    pub fn store(&self, player: Player) -> u8 {
        self.state.pits[self.store_index(player)]
    }

    /// The seeds in house `house` (0-based, from the owner's left) of `player`.
    #[must_use]
    pub fn house(&self, player: Player, house: usize) -> u8 {
        self.state.pits[self.first_house(player) + house]
    }

    /// Every seed on the board, stores included.
    #[must_use]
    pub fn seeds_in_play(&self) -> u32 {
        self.pits().iter().map(|&seeds| u32::from(seeds)).sum()
    }

    /// Whether the game has ended.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.state.over
    }

    /// The player to move (South is MAX). After the end of the game, the player who would
    /// have moved.
    #[must_use]
    pub fn player_to_move(&self) -> Player {
        self.state.to_move
    }

    /// Plays house `house` (1-based, from the mover's left), checking it.
    ///
    /// # Errors
    /// [`KalahError::Move`] when the game is over, the house does not exist or is empty.
    pub fn play(&mut self, house: usize) -> Result<(), KalahError> {
        if self.state.over {
            return Err(KalahError::Move("the game is over".into()));
        }
        if !(1..=self.houses).contains(&house) {
            return Err(KalahError::Move(format!(
                "there is no house {house}: the houses are 1 to {}",
                self.houses
            )));
        }
        if self.house(self.state.to_move, house - 1) == 0 {
            return Err(KalahError::Move(format!("house {house} is empty")));
        }
        let mv = u8::try_from(house - 1).expect("invariant: at most six houses");
        self.update(mv);
        Ok(())
    }

    fn first_house(&self, player: Player) -> usize {
        match player {
            Player::Max => 0,
            Player::Min => self.houses + 1,
        }
    }

    fn store_index(&self, player: Player) -> usize {
        match player {
            Player::Max => self.houses,
            Player::Min => 2 * self.houses + 1,
        }
    }

    fn side_seeds(&self, player: Player) -> u32 {
        let first = self.first_house(player);
        self.state.pits[first..first + self.houses]
            .iter()
            .map(|&seeds| u32::from(seeds))
            .sum()
    }

    /// Moves the seeds left in each side's houses to that side's store.
    fn gather(&mut self) {
        for player in [Player::Max, Player::Min] {
            let left = self.side_seeds(player);
            let first = self.first_house(player);
            self.state.pits[first..first + self.houses].fill(0);
            let store = self.store_index(player);
            self.state.pits[store] += u8::try_from(left).expect("invariant: at most 240 seeds");
        }
        self.state.over = true;
    }

    /// Ends the game if the rules say it is over with `next` to move.
    fn end_if_over(&mut self, next: Player) {
        let over = match self.rules.ending {
            Ending::EitherSideEmpty => {
                self.side_seeds(Player::Max) == 0 || self.side_seeds(Player::Min) == 0
            }
            Ending::MoverHasNoSeeds => self.side_seeds(next) == 0,
        };
        if over {
            self.gather();
        }
    }

    /// Where the last seed of house `mv` of the mover lands, and whether it ends in the
    /// mover's store: for ordering moves, without sowing.
    fn gives_extra_move(&self, mv: u8) -> bool {
        let seeds = usize::from(self.house(self.state.to_move, usize::from(mv)));
        let to_store = self.houses - usize::from(mv);
        // One lap passes 2·h + 1 pits (the opponent's store is skipped).
        seeds % (2 * self.houses + 1) == to_store
    }

    /// The mover's store less the opponent's, from South's side: the final value when the
    /// game is over.
    fn store_difference(&self) -> i32 {
        i32::from(self.store(Player::Max)) - i32::from(self.store(Player::Min))
    }
}

impl Game for Kalah {
    /// A house of the mover, 0-based from the mover's left.
    type Move = u8;
    /// South's store less North's.
    type Value = i32;

    fn to_move(&self) -> Player {
        self.state.to_move
    }

    /// The mover's non-empty houses: those whose last seed ends in the store (another move)
    /// first, nearest the store first; then the others, nearest the store first.
    fn successors(&self, moves: &mut Vec<u8>) {
        if self.state.over {
            return;
        }
        let player = self.state.to_move;
        let houses = u8::try_from(self.houses).expect("invariant: at most six houses");
        let playable = (0..houses)
            .rev()
            .filter(|&mv| self.house(player, usize::from(mv)) > 0);
        let start = moves.len();
        moves.extend(playable.clone().filter(|&mv| self.gives_extra_move(mv)));
        if moves.len() - start == 0 {
            moves.extend(playable);
        } else {
            moves.extend(playable.filter(|&mv| !self.gives_extra_move(mv)));
        }
    }

    fn is_terminal(&self) -> bool {
        self.state.over
    }

    fn value(&self) -> i32 {
        self.store_difference()
    }

    fn update(&mut self, mv: u8) {
        self.history.push(self.state);
        let player = self.state.to_move;
        let ring = 2 * self.houses + 2;
        let skipped = self.store_index(player.opponent());
        let own_store = self.store_index(player);
        let mut pit = self.first_house(player) + usize::from(mv);
        let mut seeds = usize::from(self.state.pits[pit]);
        self.state.pits[pit] = 0;
        // Whole laps first: a lap puts one seed in every pit but the opponent's store.
        let lap = ring - 1;
        if seeds > lap {
            let laps = (seeds - 1) / lap;
            let add = u8::try_from(laps).expect("invariant: at most 240 seeds");
            for (index, count) in self.state.pits[..ring].iter_mut().enumerate() {
                if index != skipped {
                    *count += add;
                }
            }
            seeds -= laps * lap;
        }
        while seeds > 0 {
            pit = (pit + 1) % ring;
            if pit == skipped {
                continue;
            }
            self.state.pits[pit] += 1;
            seeds -= 1;
        }
        let first = self.first_house(player);
        let next = if pit == own_store {
            player
        } else {
            let own_house = (first..first + self.houses).contains(&pit);
            if own_house && self.state.pits[pit] == 1 {
                let opposite = 2 * self.houses - pit;
                let captured = self.state.pits[opposite];
                if captured > 0 || self.rules.empty_capture {
                    self.state.pits[own_store] += captured + 1;
                    self.state.pits[pit] = 0;
                    self.state.pits[opposite] = 0;
                }
            }
            player.opponent()
        };
        self.state.to_move = next;
        self.end_if_over(next);
    }

    fn revert(&mut self, _mv: u8) {
        self.state = self
            .history
            .pop()
            .expect("invariant: revert follows an update");
    }
}

impl Evaluate for Kalah {
    /// The store difference: what is already won.
    fn evaluate(&self) -> i32 {
        self.store_difference()
    }
}

/// Zobrist keys: one per pit and seed count, and one for North to move.
struct Keys {
    pits: [[u64; 241]; PITS],
    north_to_move: u64,
}

fn keys() -> &'static Keys {
    static KEYS: std::sync::OnceLock<Box<Keys>> = std::sync::OnceLock::new();
    KEYS.get_or_init(|| {
        let mut random = SplitMix64::new(0x6b61_6c61_6800_0001);
        let mut keys = Box::new(Keys {
            pits: [[0; 241]; PITS],
            north_to_move: 0,
        });
        for pit in &mut keys.pits {
            for key in pit.iter_mut() {
                *key = random.next_u64();
            }
        }
        keys.north_to_move = random.next_u64();
        keys
    })
}

impl ZobristHash for Kalah {
    /// A Zobrist key of every pit (stores included, since values are absolute margins) and
    /// the player to move.
    fn hash_key(&self) -> u64 {
        let keys = keys();
        let mut key = match self.state.to_move {
            Player::Max => 0,
            Player::Min => keys.north_to_move,
        };
        for (pit, &seeds) in self.pits().iter().enumerate() {
            key ^= keys.pits[pit][usize::from(seeds)];
        }
        key
    }
}

impl Solvable for Kalah {
    type Candidates = ();

    /// The final margin lies between South keeping only its store and South taking every
    /// seed not yet in North's store: the futility bounds of Irving et al.
    fn outlook(&self, _after_search_move: bool) -> Outlook<()> {
        if self.state.over {
            return Outlook::Known(self.store_difference());
        }
        let total = i32::try_from(self.seeds_in_play()).expect("invariant: at most 240 seeds");
        let south = i32::from(self.store(Player::Max));
        let north = i32::from(self.store(Player::Min));
        Outlook::Search {
            lower: 2 * south - total,
            upper: total - 2 * north,
            candidates: (),
        }
    }
}

impl fmt::Display for Kalah {
    /// North's houses on top (its house 1 on the right, as North sees it), the stores at
    /// the ends (North's on the left), South's houses below, then who is to move.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let houses = self.houses;
        write!(f, "   ")?;
        for house in (0..houses).rev() {
            write!(f, "{:>3}", self.house(Player::Min, house))?;
        }
        writeln!(f)?;
        writeln!(
            f,
            "{:>3}{}{:>3}",
            self.store(Player::Min),
            " ".repeat(3 * houses),
            self.store(Player::Max)
        )?;
        write!(f, "   ")?;
        for house in 0..houses {
            write!(f, "{:>3}", self.house(Player::Max, house))?;
        }
        writeln!(f)?;
        if self.state.over {
            write!(f, "game over: {}", self.store_difference())
        } else {
            let side = match self.state.to_move {
                Player::Max => "South",
                Player::Min => "North",
            };
            write!(f, "{side} to move")
        }
    }
}

/// A random position reached by `plies` random moves from the start of Kalah(`houses`,
/// `seeds`) (fewer if the game ends first): test and experiment material.
///
/// # Panics
/// When the size is not one [`Kalah::new`] accepts.
#[must_use]
pub fn random_position(
    houses: usize,
    seeds: u8,
    rules: KalahRules,
    plies: usize,
    random: &mut SplitMix64,
) -> Kalah {
    let mut game = Kalah::new(houses, seeds, rules).expect("a size Kalah::new accepts");
    let mut moves = Vec::new();
    for _ in 0..plies {
        moves.clear();
        game.successors(&mut moves);
        if moves.is_empty() {
            break;
        }
        let mv = moves[random.index(moves.len())];
        game.update(mv);
    }
    game.history.clear();
    game
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::minimax::minimax;

    fn board(pits: &[u8], to_move: Player) -> Kalah {
        Kalah::from_pits(pits, to_move, KalahRules::irving()).expect("a board")
    }

    #[test]
    fn a_last_seed_in_the_store_gives_another_move() {
        // Kalah(6,4): house 3 (four seeds from the third house) ends in the store.
        let mut game = Kalah::new(6, 4, KalahRules::default()).expect("a board");
        game.play(3).expect("legal");
        assert_eq!(game.pits(), [4, 4, 0, 5, 5, 5, 1, 4, 4, 4, 4, 4, 4, 0]);
        assert_eq!(game.to_move(), Player::Max);
        game.play(1).expect("legal");
        assert_eq!(game.pits(), [0, 5, 1, 6, 6, 5, 1, 4, 4, 4, 4, 4, 4, 0]);
        assert_eq!(game.to_move(), Player::Min);
    }

    #[test]
    fn a_last_seed_in_an_empty_own_house_captures_the_opposite_house() {
        // Kalah(4, *): South sows house 1 (one seed) into its empty house 2; across it is
        // North's house 3 (pit 2·4 − 1 = 7) with 7 seeds: 1 + 7 go to South's store.
        let mut game = board(&[1, 0, 3, 0, 2, 0, 0, 7, 4, 0], Player::Max);
        assert_eq!(game.houses(), 4);
        game.play(1).expect("legal");
        assert_eq!(game.pits(), [0, 0, 3, 0, 10, 0, 0, 0, 4, 0]);
        assert_eq!(game.to_move(), Player::Min);
    }

    #[test]
    fn an_empty_capture_takes_the_last_seed_only_under_irvings_rules() {
        let pits = [1, 0, 3, 0, 2, 4, 4, 0, 4, 0];
        let mut irving = board(&pits, Player::Max);
        irving.play(1).expect("legal");
        assert_eq!(irving.pits(), [0, 0, 3, 0, 3, 4, 4, 0, 4, 0]);
        let mut standard =
            Kalah::from_pits(&pits, Player::Max, KalahRules::standard()).expect("a board");
        standard.play(1).expect("legal");
        assert_eq!(standard.pits(), [0, 1, 3, 0, 2, 4, 4, 0, 4, 0]);
    }

    #[test]
    fn sowing_skips_the_opponents_store_and_laps_the_board() {
        // Kalah(2, *): a ring of 6 pits; South sows 7 seeds from house 1 over pits
        // 1, 2, 3, 4, (North's store 5 skipped), 0, 1, 2: the last in its store.
        let mut game = board(&[7, 1, 0, 1, 1, 0], Player::Max);
        game.play(1).expect("legal");
        assert_eq!(game.pits(), [1, 3, 2, 2, 2, 0]);
        assert_eq!(game.to_move(), Player::Max);
    }

    #[test]
    fn the_game_ends_when_a_side_is_empty_and_each_keeps_its_seeds() {
        // South's last seed goes to its store: South is empty, North keeps its 5.
        let mut game = board(&[0, 1, 3, 2, 3, 1], Player::Max);
        game.play(2).expect("legal");
        assert!(game.is_over());
        assert_eq!(game.pits(), [0, 0, 4, 0, 0, 6]);
        assert_eq!(game.value(), -2);
        assert!(game.play(1).is_err());
    }

    #[test]
    fn under_mover_has_no_seeds_the_game_goes_on_while_the_mover_can_sow() {
        let rules = KalahRules {
            ending: Ending::MoverHasNoSeeds,
            ..KalahRules::irving()
        };
        // South empties its side with an extra move: South is to move with nothing.
        let mut game = Kalah::from_pits(&[0, 1, 3, 2, 3, 1], Player::Max, rules).expect("a board");
        game.play(2).expect("legal");
        assert!(game.is_over());
        // South's empty capture leaves its side empty with North to move: the game goes on
        // for North, where either side empty would have ended it.
        let pits = [1, 0, 0, 0, 2, 0];
        let mut game = Kalah::from_pits(&pits, Player::Max, rules).expect("a board");
        game.play(1).expect("legal");
        assert!(!game.is_over(), "{game}");
        assert_eq!(game.to_move(), Player::Min);
        let mut game = board(&pits, Player::Max);
        game.play(1).expect("legal");
        assert!(game.is_over());
        assert_eq!(game.value(), 1 - 2);
    }

    #[test]
    fn revert_restores_every_pit_and_the_player() {
        let mut random = SplitMix64::new(7);
        for _ in 0..200 {
            let mut game = random_position(4, 3, KalahRules::irving(), 6, &mut random);
            let before = (game.pits().to_vec(), game.to_move(), game.hash_key());
            let mut moves = Vec::new();
            game.successors(&mut moves);
            for &mv in &moves {
                game.update(mv);
                assert_eq!(game.seeds_in_play(), 24);
                game.revert(mv);
                assert_eq!(
                    (game.pits().to_vec(), game.to_move(), game.hash_key()),
                    before
                );
            }
        }
    }

    #[test]
    fn the_futility_bounds_hold_the_minimax_value() {
        let mut random = SplitMix64::new(11);
        for _ in 0..100 {
            let mut game = random_position(3, 2, KalahRules::irving(), 4, &mut random);
            let value = minimax(&mut game).value;
            if let Outlook::Search { lower, upper, .. } = game.outlook(false) {
                assert!(lower <= value && value <= upper, "{game}: {value}");
            }
        }
    }
}
