//! Checkers notation and files: FEN and PDN round trips on the ballot openings and on
//! random games, and parsers that answer arbitrary text with an error, never a panic.

use gametree::SplitMix64;
use gametree::games::checkers::{
    GameResult, PdnGame, Position, read_pdn, three_move_ballots, write_pdn,
};
use proptest::prelude::*;

/// A game of random legal moves from `start`, at most `plies` long or until a side cannot
/// move (then the result says who won).
fn random_game(seed: u64, start: Position, plies: usize) -> PdnGame {
    let mut random = SplitMix64::new(seed);
    let mut game = PdnGame::new(start);
    let mut position = start;
    let mut moves = Vec::new();
    for _ in 0..plies {
        moves.clear();
        position.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let mv = moves[random.index(moves.len())];
        game.moves.push(mv);
        position = position.play(mv);
    }
    moves.clear();
    position.legal_moves(&mut moves);
    if moves.is_empty() {
        game.set_result(match position.side_to_move() {
            gametree::games::checkers::Color::Black => GameResult::WhiteWins,
            gametree::games::checkers::Color::White => GameResult::BlackWins,
        });
    }
    game
}

fn random_games() -> Vec<PdnGame> {
    (0..200)
        .map(|seed| random_game(seed, Position::initial(), 40 + (seed as usize * 7) % 160))
        .collect()
}

#[test]
fn the_example_fen_of_the_issue_round_trips_exactly() {
    let fen = "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29";
    let position = Position::from_fen(fen).expect("valid FEN");
    assert_eq!(position.to_fen(), fen);
    assert_eq!(
        position
            .kings(gametree::games::checkers::Color::White)
            .count_ones(),
        2
    );
}

#[test]
fn fen_round_trips_on_every_ballot_position_and_every_position_of_random_games() {
    let mut checked = 0;
    for ballot in three_move_ballots() {
        let position = ballot.position();
        assert_eq!(Position::from_fen(&position.to_fen()), Ok(position));
        checked += 1;
    }
    for game in random_games() {
        let mut position = game.start;
        for &mv in &game.moves {
            position = position.play(mv);
            let fen = position.to_fen();
            let read = Position::from_fen(&fen).expect("own FEN reads back");
            assert_eq!(read, position);
            assert_eq!(read.to_fen(), fen);
            checked += 1;
        }
    }
    assert!(checked > 10_000, "{checked}");
}

#[test]
fn pdn_round_trips_on_the_ballot_openings() {
    let games: Vec<PdnGame> = three_move_ballots()
        .iter()
        .map(|ballot| {
            let mut game = PdnGame::new(Position::initial());
            game.set_tag("Event", &format!("ACF ballot {}", ballot.number));
            game.moves.extend(ballot.moves);
            game
        })
        .collect();
    let text = write_pdn(&games);
    let read = read_pdn(&text).expect("own PDN reads back");
    assert_eq!(read, games);
    assert_eq!(write_pdn(&read), text);
}

#[test]
fn pdn_round_trips_on_random_games_including_games_from_a_fen() {
    let mut games = random_games();
    // Games that start from the positions of other games, White to move in half of them.
    let starts: Vec<Position> = games.iter().take(50).map(PdnGame::final_position).collect();
    for (seed, start) in starts.into_iter().enumerate() {
        games.push(random_game(1000 + seed as u64, start, 30));
    }
    let text = write_pdn(&games);
    let read = read_pdn(&text).expect("own PDN reads back");
    assert_eq!(read.len(), games.len());
    assert_eq!(read, games);
    assert_eq!(write_pdn(&read), text);
    for game in &read {
        let text = game.to_string();
        assert!(text.lines().all(|line| line.len() < 80), "{text}");
    }
}

#[test]
fn the_ballot_file_is_a_pdn_file_of_three_move_games() {
    let text = include_str!("../data/checkers/three_move_ballots.pdn");
    let games = read_pdn(text).expect("valid PDN");
    assert_eq!(games.len(), 156);
    assert!(games.iter().all(|game| game.moves.len() == 3));
    // 156 of the 302 three-move sequences (perft 3 from the start) are in the deck.
    assert_eq!(
        gametree::games::checkers::perft(&Position::initial(), 3),
        302
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, rng_seed: proptest::test_runner::RngSeed::Fixed(7), ..ProptestConfig::default() })]

    #[test]
    fn fen_reading_never_panics_on_arbitrary_text(text in any::<String>()) {
        let _ = Position::from_fen(&text);
    }

    #[test]
    fn fen_reading_never_panics_on_fen_like_text(text in "[BWK0-9:,. -]{0,40}") {
        if let Ok(position) = Position::from_fen(&text) {
            prop_assert_eq!(Position::from_fen(&position.to_fen()), Ok(position));
        }
    }

    #[test]
    fn move_reading_never_panics(text in "[0-9xX -]{0,12}|\\PC{0,12}") {
        let _ = Position::initial().parse_move(&text);
        let _ = Position::from_fen("B:W14,15,22,23:BK10").expect("valid").parse_move(&text);
    }

    #[test]
    fn pdn_reading_never_panics_on_arbitrary_text(text in any::<String>()) {
        let _ = read_pdn(&text);
    }

    #[test]
    fn pdn_reading_never_panics_on_pdn_like_text(text in "[\\[\\]{}()\" 0-9x.*/;$!?a-zA-Z\\n-]{0,80}") {
        if let Ok(games) = read_pdn(&text) {
            let written = write_pdn(&games);
            prop_assert_eq!(read_pdn(&written), Ok(games));
        }
    }
}

#[test]
fn bad_input_is_an_error_that_names_what_and_where() {
    let error = Position::from_fen("B:W18,24:B12,,16").unwrap_err();
    assert_eq!(error.column, 14);
    assert!(error.to_string().contains("square number"), "{error}");
    let error = Position::initial().parse_move("11-15-19").unwrap_err();
    assert!(error.to_string().contains("two squares"), "{error}");
    let error = Position::initial().parse_move("11-33").unwrap_err();
    assert!(error.to_string().contains("out of range"), "{error}");
    let error = read_pdn("[FEN \"B:W1:B2\"]\n1. 2-6 *").unwrap_err();
    assert_eq!(error.line, 1);
    assert!(error.to_string().contains("FEN"), "{error}");
    let error = read_pdn("[GameType \"20\"]\n1. 32-28 *").unwrap_err();
    assert!(error.to_string().contains("English draughts"), "{error}");
    let error = read_pdn("[Event \"x\"\n").unwrap_err();
    assert!(error.to_string().contains("not closed"), "{error}");
}
