//! Every parser of the library, fed random text and mutations of valid input: a character
//! (or, where the parser takes bytes, a byte that need not be UTF-8) inserted, deleted or
//! replaced, the text cut short, a section repeated, a number far beyond `u64`, and floods
//! that make the input 100 kB. Whatever it is fed, a parser never panics, and its error is
//! one line, shorter than [`MAX_MESSAGE`] characters, that says where the input went wrong
//! (a line and column inside the input for multi-line inputs; a column, move number or
//! cube number for one-line inputs). What a parser accepts prints back to text it reads
//! back the same, where the library has a printer (FEN, trees, PDN, parameter files,
//! tic-tac-toe move lists).

use gametree::experiment::{Opening, SlagleParameters, positions_from_fen_lines};
use gametree::games::checkers::{GameResult, MoveError, PdnGame, Position, read_pdn, write_pdn};
use gametree::puzzles::graph_path::{Graph, GraphError};
use gametree::puzzles::instant_insanity::{PUZZ1, Puzzle};
use gametree::tic_tac_toe::TicTacToe;
use gametree::{ConnectFour, ExplicitTree, Exponents, RandomTreeConfig, SplitMix64};
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::{Config, RngSeed};

/// The longest error message allowed, in characters, whatever the size of the input.
const MAX_MESSAGE: usize = 300;

/// The size a flood brings an input to.
const FLOOD_CHARS: usize = 100_000;

/// A number far beyond `u64::MAX`, for the parsers that read numbers.
const HUGE_NUMBER: &str = "18446744073709551616999999999999";

/// One change to a valid input, over its characters (or bytes).
#[derive(Clone, Debug)]
enum Mutation<T> {
    /// Cut the input short.
    Truncate(Index),
    /// Insert an item.
    Insert(Index, T),
    /// Delete an item.
    Delete(Index),
    /// Replace an item.
    Replace(Index, T),
    /// Copy a section (start, length) to another place.
    Duplicate(Index, Index, Index),
    /// Insert [`HUGE_NUMBER`].
    HugeNumber(Index),
}

/// Characters that matter to some grammar, and now and then any character at all.
fn a_char() -> impl Strategy<Value = char> + Clone {
    let structural: Vec<char> = ":,.-xXKkBWbw0123456789 \n\t\r();[]{}\"#$!?*/\\+e%é\u{1}"
        .chars()
        .collect();
    prop_oneof![
        3 => prop::sample::select(structural),
        1 => any::<char>(),
    ]
}

/// Bytes that matter to the graph grammar, and any byte (most of them not UTF-8 alone).
fn a_byte() -> impl Strategy<Value = u8> + Clone {
    prop_oneof![
        2 => prop::sample::select(b"AB #\n\t\r\x07".to_vec()),
        1 => any::<u8>(),
    ]
}

fn mutation<T: Clone + std::fmt::Debug>(
    item: impl Strategy<Value = T> + Clone,
) -> impl Strategy<Value = Mutation<T>> {
    prop_oneof![
        any::<Index>().prop_map(Mutation::Truncate),
        (any::<Index>(), item.clone()).prop_map(|(at, item)| Mutation::Insert(at, item)),
        any::<Index>().prop_map(Mutation::Delete),
        (any::<Index>(), item).prop_map(|(at, item)| Mutation::Replace(at, item)),
        (any::<Index>(), any::<Index>(), any::<Index>())
            .prop_map(|(start, length, to)| Mutation::Duplicate(start, length, to)),
        any::<Index>().prop_map(Mutation::HugeNumber),
    ]
}

fn char_mutations() -> impl Strategy<Value = Vec<Mutation<char>>> {
    prop::collection::vec(mutation(a_char()), 1..4)
}

fn byte_mutations() -> impl Strategy<Value = Vec<Mutation<u8>>> {
    prop::collection::vec(mutation(a_byte()), 1..4)
}

/// Applies `mutations` in order; `huge` is [`HUGE_NUMBER`] as items.
fn apply<T: Clone>(items: &mut Vec<T>, mutations: &[Mutation<T>], huge: &[T]) {
    for mutation in mutations {
        let len = items.len();
        match mutation {
            Mutation::Truncate(at) => items.truncate(at.index(len + 1)),
            Mutation::Insert(at, item) => items.insert(at.index(len + 1), item.clone()),
            Mutation::Delete(at) if len > 0 => {
                items.remove(at.index(len));
            }
            Mutation::Replace(at, item) if len > 0 => items[at.index(len)] = item.clone(),
            Mutation::Duplicate(start, length, to) if len > 0 => {
                let start = start.index(len);
                let end = start + 1 + length.index(len - start);
                let section = items[start..end].to_vec();
                let to = to.index(len + 1);
                items.splice(to..to, section);
            }
            Mutation::HugeNumber(at) => {
                let at = at.index(len + 1);
                items.splice(at..at, huge.iter().cloned());
            }
            Mutation::Delete(_) | Mutation::Replace(..) | Mutation::Duplicate(..) => {}
        }
    }
}

fn mutated(text: &str, mutations: &[Mutation<char>]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let huge: Vec<char> = HUGE_NUMBER.chars().collect();
    apply(&mut chars, mutations, &huge);
    chars.into_iter().collect()
}

fn mutated_bytes(bytes: &[u8], mutations: &[Mutation<u8>]) -> Vec<u8> {
    let mut bytes = bytes.to_vec();
    apply(&mut bytes, mutations, HUGE_NUMBER.as_bytes());
    bytes
}

/// What a flood repeats: a digit, a letter, a bracket, a character that needs an escape,
/// a move, a name, or the valid input itself.
fn flood_snippet() -> impl Strategy<Value = Option<&'static str>> {
    prop_oneof![
        3 => prop::sample::select(vec!["9", "x", "(", "[", "é", "\u{1}", "\u{10ffff}", "11-15 ", "A ", "\"", "{", "-"]).prop_map(Some),
        1 => Just(None),
    ]
}

/// `text` with `snippet` (or `text` itself) repeated at `at` until it is 100 kB.
fn flooded(text: &str, at: Index, snippet: Option<&str>) -> String {
    let snippet = snippet.unwrap_or(text);
    let snippet = if snippet.is_empty() { "x" } else { snippet };
    let times = FLOOD_CHARS / snippet.chars().count() + 1;
    let chars: Vec<char> = text.chars().collect();
    let at = at.index(chars.len() + 1);
    let mut flooded: String = chars[..at].iter().collect();
    flooded.push_str(&snippet.repeat(times));
    flooded.extend(&chars[at..]);
    flooded
}

/// The message is one short line.
fn check_short_line(message: &str) -> Result<(), TestCaseError> {
    let shown: String = message.chars().take(2 * MAX_MESSAGE).collect();
    prop_assert!(
        message.chars().count() < MAX_MESSAGE,
        "{} characters: {shown}",
        message.chars().count()
    );
    prop_assert!(!message.contains('\n'), "several lines: {shown}");
    Ok(())
}

/// A 1-based line and column inside `text` (or just past the end of a line).
fn check_inside(text: &str, line: usize, column: usize) -> Result<(), TestCaseError> {
    let lines: Vec<&str> = text.split('\n').collect();
    prop_assert!(
        (1..=lines.len()).contains(&line),
        "line {line} of {}",
        lines.len()
    );
    let width = lines[line - 1].chars().count();
    prop_assert!(
        (1..=width + 1).contains(&column),
        "column {column} of a line of {width} characters"
    );
    Ok(())
}

// ---------------------------------------------------------------- valid inputs

/// A game of random legal moves from the start, at most `plies` long.
fn random_game(seed: u64, plies: usize) -> PdnGame {
    let mut random = SplitMix64::new(seed);
    let mut game = PdnGame::new(Position::initial());
    let mut position = Position::initial();
    let mut moves = Vec::new();
    for _ in 0..plies {
        moves.clear();
        position.legal_moves(&mut moves);
        if moves.is_empty() {
            game.set_result(GameResult::WhiteWins);
            break;
        }
        let mv = moves[random.index(moves.len())];
        game.moves.push(mv);
        position = position.play(mv);
    }
    game
}

/// Positions of random games: men, kings, captures pending, both sides to move.
fn fen_pool() -> Vec<Position> {
    (0..40)
        .flat_map(|seed| {
            let game = random_game(seed, 10 + seed as usize * 3);
            let mut position = game.start;
            let mut positions = vec![position];
            for &mv in &game.moves {
                position = position.play(mv);
                positions.push(position);
            }
            positions
        })
        .step_by(7)
        .collect()
}

fn fen_strategy() -> impl Strategy<Value = String> {
    prop::sample::select(fen_pool()).prop_map(|position| position.to_fen())
}

fn pdn_strategy() -> impl Strategy<Value = String> {
    (0u64..1000, 0usize..40).prop_map(|(seed, plies)| {
        let mut game = random_game(seed, plies);
        game.set_tag("Event", "robustness");
        write_pdn(&[game])
    })
}

/// A random tree, written over several lines with comments: it must read back the same.
fn tree_strategy() -> impl Strategy<Value = String> {
    (any::<u64>(), any::<u64>()).prop_map(|(seed, layout)| {
        let config = RandomTreeConfig {
            branching: 1..=3,
            depth: 1..=4,
            values: -20..=20,
        };
        let printed = ExplicitTree::random(&config, seed).to_string();
        let mut random = SplitMix64::new(layout);
        printed
            .split(' ')
            .map(str::to_string)
            .reduce(|text, next| {
                let gap = match random.index(4) {
                    0 => "\n",
                    1 => " ; a comment (\n  ",
                    _ => " ",
                };
                format!("{text}{gap}{next}")
            })
            .unwrap_or_default()
    })
}

/// Moves of a random game of Connect Four, as column digits.
fn connect_four_strategy() -> impl Strategy<Value = String> {
    (any::<u64>(), 0usize..42).prop_map(|(seed, plies)| {
        let mut random = SplitMix64::new(seed);
        let mut game = ConnectFour::new();
        let mut moves = String::new();
        for _ in 0..plies {
            let open: Vec<u8> = (0..7).filter(|&column| game.can_play(column)).collect();
            if open.is_empty() || game.is_over() {
                break;
            }
            let column = open[random.index(open.len())];
            game.play(u32::from(column) + 1).expect("an open column");
            moves.push(char::from(b'1' + column));
        }
        moves
    })
}

/// Moves of a random game of McCarthy's tic-tac-toe, `2, 1, 9`.
fn tic_tac_toe_strategy() -> impl Strategy<Value = String> {
    (
        Just((1..=9u32).collect::<Vec<_>>()).prop_shuffle(),
        0usize..=9,
    )
        .prop_map(|(squares, plies)| {
            let mut game = TicTacToe::new();
            let mut played = Vec::new();
            for square in squares.into_iter().take(plies) {
                if game.play(square).is_err() {
                    break;
                }
                played.push(square.to_string());
            }
            played.join(", ")
        })
}

const GRAPH: &str = "# a diamond\nA B C\nB D\n\nC D # again\nD A\nE\n";

fn parameters_strategy() -> impl Strategy<Value = String> {
    prop::collection::vec((0u32..12, -3.0f64..3.0, 0.001f64..2.0), 1..4).prop_map(|entries| {
        let mut seen = Vec::new();
        let functions: Vec<(u32, Exponents)> = entries
            .into_iter()
            .filter(|(dmax, _, _)| {
                let fresh = !seen.contains(dmax);
                seen.push(*dmax);
                fresh
            })
            .map(|(dmax, shift, slope)| (dmax, Exponents::new(shift, slope).expect("valid")))
            .collect();
        SlagleParameters::symmetric(&functions).to_json()
    })
}

// ---------------------------------------------------------------- one check per parser

fn check_tree(text: &str) -> Result<(), TestCaseError> {
    match ExplicitTree::parse(text) {
        Ok(tree) => {
            let printed = tree.to_string();
            let reread = ExplicitTree::parse(&printed).expect("a printed tree reads back");
            prop_assert_eq!(reread.to_string(), printed);
        }
        Err(error) => {
            let message = error.to_string();
            check_short_line(&message)?;
            let place = format!("line {}, column {}: ", error.line, error.column);
            prop_assert!(message.starts_with(&place), "{}", message);
            check_inside(text, error.line, error.column)?;
        }
    }
    Ok(())
}

fn check_fen(text: &str) -> Result<(), TestCaseError> {
    match Position::from_fen(text) {
        Ok(position) => {
            prop_assert_eq!(Position::from_fen(&position.to_fen()), Ok(position));
        }
        Err(error) => {
            let message = error.to_string();
            check_short_line(&message)?;
            let place = format!("invalid FEN at column {}: ", error.column);
            prop_assert!(message.starts_with(&place), "{}", message);
            check_inside(&text.replace('\n', " "), 1, error.column)?;
        }
    }
    Ok(())
}

fn check_fen_lines(text: &str) -> Result<(), TestCaseError> {
    match positions_from_fen_lines(text) {
        Ok(positions) => {
            let printed: String = positions.iter().map(|p| p.to_fen() + "\n").collect();
            prop_assert_eq!(positions_from_fen_lines(&printed), Ok(positions));
        }
        Err(message) => {
            check_short_line(&message)?;
            let line: usize = message
                .strip_prefix("line ")
                .and_then(|rest| rest.split(':').next())
                .and_then(|number| number.parse().ok())
                .expect("the message starts with the line");
            prop_assert!(message.contains(": invalid FEN at column "), "{}", message);
            prop_assert!((1..=text.lines().count()).contains(&line), "{}", message);
        }
    }
    Ok(())
}

fn check_move(position: &Position, text: &str) -> Result<(), TestCaseError> {
    if let Err(error) = position.parse_move(text) {
        let message = error.to_string();
        check_short_line(&message)?;
        match &error {
            MoveError::Syntax { column, .. } => {
                prop_assert!(
                    message.contains(&format!(" at column {column}: ")),
                    "{}",
                    message
                );
                check_inside(&text.replace('\n', " "), 1, *column)?;
            }
            MoveError::Illegal { .. } => {
                prop_assert!(message.starts_with("illegal move \""), "{}", message);
            }
            MoveError::Ambiguous { .. } => {
                prop_assert!(message.starts_with("ambiguous move \""), "{}", message);
            }
        }
    }
    Ok(())
}

fn check_pdn(text: &str) -> Result<(), TestCaseError> {
    match read_pdn(text) {
        Ok(games) => {
            let written = write_pdn(&games);
            prop_assert_eq!(read_pdn(&written), Ok(games));
        }
        Err(error) => {
            let message = error.to_string();
            check_short_line(&message)?;
            let place = format!("PDN line {}, column {}: ", error.line, error.column);
            prop_assert!(message.starts_with(&place), "{}", message);
            check_inside(text, error.line, error.column)?;
        }
    }
    if let Err(error) = Opening::from_pdn(text) {
        check_short_line(&error.to_string())?;
        check_inside(text, error.line, error.column)?;
    }
    Ok(())
}

fn check_connect_four(text: &str) -> Result<(), TestCaseError> {
    if let Err(error) = ConnectFour::from_moves(text) {
        let message = error.to_string();
        check_short_line(&message)?;
        prop_assert!(
            message.starts_with(&format!("move {} (", error.index)),
            "{}",
            message
        );
        prop_assert!((1..=text.chars().count()).contains(&error.index));
    }
    Ok(())
}

fn check_tic_tac_toe(text: &str) -> Result<(), TestCaseError> {
    match TicTacToe::parse_moves(text) {
        Ok(game) => {
            let printed: Vec<String> = game.moves().iter().map(u8::to_string).collect();
            let reread = TicTacToe::parse_moves(&printed.join(","));
            prop_assert_eq!(reread, Ok(game));
        }
        Err(error) => {
            let message = error.to_string();
            check_short_line(&message)?;
            let index: usize = message
                .strip_prefix("move ")
                .and_then(|rest| rest.split([' ', ':']).next())
                .and_then(|number| number.parse().ok())
                .expect("the message starts with the move number");
            prop_assert!(
                (1..=text.split(',').count()).contains(&index),
                "{}",
                message
            );
        }
    }
    Ok(())
}

fn check_graph(bytes: &[u8], name: &str) -> Result<(), TestCaseError> {
    match Graph::parse("g.graph", bytes) {
        Ok(graph) => {
            if let Err(error) = graph.node(name) {
                let message = error.to_string();
                check_short_line(&message)?;
                prop_assert!(
                    message.starts_with("g.graph: unknown node \""),
                    "{}",
                    message
                );
            }
        }
        Err(error) => {
            let message = error.to_string();
            check_short_line(&message)?;
            let GraphError::Malformed { line, column, .. } = error else {
                return Err(TestCaseError::fail(format!(
                    "not a malformed line: {message}"
                )));
            };
            prop_assert!(
                message.starts_with(&format!("g.graph:{line}:{column}: ")),
                "{}",
                message
            );
            check_inside(&String::from_utf8_lossy(bytes), line, column)?;
        }
    }
    Ok(())
}

fn check_cubes(text: &str) -> Result<(), TestCaseError> {
    let cubes: Vec<&str> = text.split_whitespace().collect();
    if let Err(error) = Puzzle::new(&cubes) {
        let message = error.to_string();
        check_short_line(&message)?;
        prop_assert!(message.contains("cube"), "{}", message);
        if let Some(number) = message
            .strip_prefix("cube ")
            .and_then(|rest| rest.split(' ').next())
        {
            let number: usize = number.parse().expect("a cube number");
            prop_assert!((1..=cubes.len()).contains(&number), "{}", message);
        }
    }
    Ok(())
}

fn check_parameters(text: &str) -> Result<(), TestCaseError> {
    match SlagleParameters::from_json(text) {
        Ok(parameters) => {
            prop_assert_eq!(
                SlagleParameters::from_json(&parameters.to_json()),
                Ok(parameters)
            );
        }
        Err(error) => {
            let message = error.to_string();
            check_short_line(&message)?;
            let detail = message
                .strip_prefix("parameter file: ")
                .expect("names the parameter file");
            if let gametree::experiment::ParametersError::Syntax { line, column, .. } = error {
                prop_assert!(
                    detail.starts_with(&format!("line {line}, column {column}: ")),
                    "{}",
                    message
                );
                // The JSON reader counts the column of a line it has not started as 0.
                check_inside(text, line, column.max(1))?;
            } else {
                prop_assert!(
                    ["format ", "dmax ", "no functions", "m must", "n must"]
                        .iter()
                        .any(|field| detail.starts_with(field)),
                    "{}",
                    message
                );
            }
        }
    }
    Ok(())
}

fn config(cases: u32, seed: u64) -> Config {
    Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        ..Config::default()
    }
}

// ---------------------------------------------------------------- valid input round-trips

#[test]
fn every_fen_of_random_games_round_trips() {
    let pool = fen_pool();
    assert!(pool.len() > 100, "{}", pool.len());
    for position in pool {
        let fen = position.to_fen();
        let read = Position::from_fen(&fen).expect("a printed FEN reads back");
        assert_eq!(read, position);
        assert_eq!(read.to_fen(), fen);
    }
}

proptest! {
    #![proptest_config(config(128, 1))]

    #[test]
    fn valid_trees_pdn_and_parameter_files_round_trip(
        tree in tree_strategy(),
        pdn in pdn_strategy(),
        parameters in parameters_strategy(),
        moves in tic_tac_toe_strategy(),
    ) {
        let read = ExplicitTree::parse(&tree).expect("a random tree's text");
        let printed = read.to_string();
        prop_assert_eq!(ExplicitTree::parse(&printed).expect("reads back").to_string(), printed);
        let games = read_pdn(&pdn).expect("a written game");
        prop_assert_eq!(write_pdn(&games), pdn);
        let read = SlagleParameters::from_json(&parameters).expect("a written file");
        prop_assert_eq!(read.to_json(), parameters);
        TicTacToe::parse_moves(&moves).expect("a legal game");
    }
}

// ---------------------------------------------------------------- random text

proptest! {
    #![proptest_config(config(1024, 2))]

    #[test]
    fn random_text_gets_a_short_error_that_says_where(text in any::<String>(), bytes in any::<Vec<u8>>()) {
        check_tree(&text)?;
        check_fen(&text)?;
        check_fen_lines(&text)?;
        check_move(&Position::initial(), &text)?;
        check_pdn(&text)?;
        check_connect_four(&text)?;
        check_tic_tac_toe(&text)?;
        check_graph(&bytes, &text)?;
        check_graph(text.as_bytes(), "A")?;
        check_cubes(&text)?;
        check_parameters(&text)?;
    }
}

// ---------------------------------------------------------------- mutations of valid input

proptest! {
    #![proptest_config(config(1024, 3))]

    #[test]
    fn mutated_trees(text in tree_strategy(), mutations in char_mutations()) {
        check_tree(&mutated(&text, &mutations))?;
    }

    #[test]
    fn mutated_fens(fen in fen_strategy(), mutations in char_mutations()) {
        let text = mutated(&fen, &mutations);
        check_fen(&text)?;
        check_fen_lines(&format!("{fen}\n; a comment\n{text}\n"))?;
    }

    #[test]
    fn mutated_moves(fen in fen_strategy(), index in any::<Index>(), mutations in char_mutations()) {
        let position = Position::from_fen(&fen).expect("a pool position");
        let mut legal = Vec::new();
        position.legal_moves(&mut legal);
        let text = legal.get(index.index(legal.len().max(1))).map_or_else(|| "11-15".to_string(), ToString::to_string);
        check_move(&position, &mutated(&text, &mutations))?;
    }

    #[test]
    fn mutated_pdn(text in pdn_strategy(), mutations in char_mutations()) {
        check_pdn(&mutated(&text, &mutations))?;
    }

    #[test]
    fn mutated_connect_four_and_tic_tac_toe_moves(
        connect_four in connect_four_strategy(),
        tic_tac_toe in tic_tac_toe_strategy(),
        mutations in char_mutations(),
    ) {
        check_connect_four(&mutated(&connect_four, &mutations))?;
        check_tic_tac_toe(&mutated(&tic_tac_toe, &mutations))?;
    }

    #[test]
    fn mutated_graphs(mutations in byte_mutations(), name in prop::sample::select(vec!["A", "D", "E", "Q"])) {
        check_graph(&mutated_bytes(GRAPH.as_bytes(), &mutations), name)?;
    }

    #[test]
    fn mutated_cubes(mutations in char_mutations()) {
        check_cubes(&mutated(&PUZZ1.join(" "), &mutations))?;
    }

    #[test]
    fn mutated_parameter_files(text in parameters_strategy(), mutations in char_mutations()) {
        check_parameters(&mutated(&text, &mutations))?;
    }
}

// ---------------------------------------------------------------- 100 kB inputs

proptest! {
    #![proptest_config(config(48, 4))]

    #[test]
    fn a_100_kb_input_still_gets_a_short_error(
        tree in tree_strategy(),
        fen in fen_strategy(),
        pdn in pdn_strategy(),
        parameters in parameters_strategy(),
        at in any::<Index>(),
        snippet in flood_snippet(),
    ) {
        check_tree(&flooded(&tree, at, snippet))?;
        check_fen(&flooded(&fen, at, snippet))?;
        check_move(&Position::initial(), &flooded("11-15", at, snippet))?;
        check_pdn(&flooded(&pdn, at, snippet))?;
        check_connect_four(&flooded("4453", at, snippet))?;
        check_tic_tac_toe(&flooded("5, 1, 9", at, snippet))?;
        let graph = flooded(GRAPH, at, snippet);
        check_graph(graph.as_bytes(), &flooded("A", at, snippet))?;
        check_cubes(&flooded(&PUZZ1.join(" "), at, snippet))?;
        check_parameters(&flooded(&parameters, at, snippet))?;
    }
}

/// The worst cases by hand: one 100 kB token where each parser quotes user text.
#[test]
fn a_100_kb_token_is_quoted_in_part() {
    let long = "7".repeat(FLOOD_CHARS);
    let word = "é".repeat(FLOOD_CHARS);
    let tiny_slope = SlagleParameters::symmetric(&[(0, Exponents::new(1.0, 0.5).expect("valid"))])
        .to_json()
        .replace("0.5", "-1e-300");
    let messages = [
        ExplicitTree::parse(&format!("(1 {word})"))
            .map(|_| ())
            .unwrap_err()
            .to_string(),
        Position::from_fen(&format!("B:W{long}:B1"))
            .map(|_| ())
            .unwrap_err()
            .to_string(),
        Position::initial()
            .parse_move(&format!("11-{long}"))
            .map(|_| ())
            .unwrap_err()
            .to_string(),
        Position::initial()
            .parse_move(&format!("11-{word}"))
            .map(|_| ())
            .unwrap_err()
            .to_string(),
        Position::initial()
            .parse_move(&"1x2".repeat(FLOOD_CHARS / 3))
            .map(|_| ())
            .unwrap_err()
            .to_string(),
        read_pdn(&format!("[GameType \"{word}\"]\n*"))
            .map(|_| ())
            .unwrap_err()
            .to_string(),
        read_pdn(&format!("[{word} 1]"))
            .map(|_| ())
            .unwrap_err()
            .to_string(),
        read_pdn(&format!("1. {word}"))
            .map(|_| ())
            .unwrap_err()
            .to_string(),
        TicTacToe::parse_moves(&format!("1,{word}"))
            .map(|_| ())
            .unwrap_err()
            .to_string(),
        Graph::parse("g", format!("A {word}\u{7}").as_bytes())
            .map(|_| ())
            .unwrap_err()
            .to_string(),
        Graph::parse("g", b"A B")
            .expect("valid")
            .node(&word)
            .map(|_| ())
            .unwrap_err()
            .to_string(),
        Puzzle::new(&[word.as_str()])
            .map(|_| ())
            .unwrap_err()
            .to_string(),
        Puzzle::new(&["GBBWR\u{1}", "GGBGWR"])
            .map(|_| ())
            .unwrap_err()
            .to_string(),
        SlagleParameters::from_json(&format!("{{\"format\": \"{word}\"}}"))
            .map(|_| ())
            .unwrap_err()
            .to_string(),
        SlagleParameters::from_json(&format!("{{\"{word}\": 1}}"))
            .map(|_| ())
            .unwrap_err()
            .to_string(),
        SlagleParameters::from_json(&tiny_slope)
            .map(|_| ())
            .unwrap_err()
            .to_string(),
    ];
    for message in messages {
        let shown: String = message.chars().take(400).collect();
        assert!(message.chars().count() < 200, "{shown}");
        assert!(!message.contains('\n'), "{shown}");
    }
}
