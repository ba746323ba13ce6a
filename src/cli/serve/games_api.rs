//! The games of the page: tic-tac-toe against McCarthy's program, Connect Four against the
//! solver, checkers against the engine. Each endpoint takes the game so far (the page keeps
//! no state on the server), checks every move, and answers the computer's move with what
//! the search found; the searches are the command line's (`ttt play`, `connect4 play`,
//! `checkers best`).

use serde::Deserialize;
use serde_json::{Value as Json, json};

use gametree::ConnectFour;
use gametree::games::checkers::{
    Checkers, Color, GameResult, Move, PdnGame, Position, squares_of, write_pdn,
};
use gametree::games::connect_four_book::OpeningBook;
use gametree::games::kalah::{Kalah, KalahRules};
use gametree::tic_tac_toe::{Ending, Mark, TicTacToe};
use gametree::{Game, Player, StopSignal, Window, alphabeta_value, depth_limited_value_quiescent};
use gametree::{SolveOptions, Solver};

use super::api::ApiError;
use crate::cli::checkers::best::value_json;
use crate::cli::checkers::engine::{Engine, SearchArgs};
use crate::cli::{connect4, kalah, ttt};

/// The body of `POST /api/ttt/move`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TttRequest {
    moves: Vec<u32>,
}

fn ending_text(ending: Option<Ending>) -> Json {
    match ending {
        None => Json::Null,
        Some(Ending::Win(Mark::X)) => json!("X wins"),
        Some(Ending::Win(Mark::O)) => json!("O wins"),
        Some(Ending::Draw) => json!("draw"),
    }
}

/// McCarthy's program answers the moves so far.
pub fn ttt_move(request: &TttRequest) -> Result<Json, ApiError> {
    if request.moves.len() > 9 {
        return Err(ApiError::bad_request(format!(
            "{} moves: a game of tic-tac-toe has at most 9",
            request.moves.len()
        )));
    }
    let text = request
        .moves
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let mut game = TicTacToe::parse_moves(&text)
        .map_err(|error| ApiError::bad_request(format!("moves {text:?}: {error}")))?;
    let ending = game.ending();
    let mut answer = json!({"moves": request.moves, "ending": ending_text(ending)});
    if ending.is_some() {
        answer["move"] = Json::Null;
        return Ok(answer);
    }
    let window = Window::new(ttt::SEED_WINDOW.0, ttt::SEED_WINDOW.1);
    let mut values = Vec::new();
    for &square in &game.blanks().to_vec() {
        game.update(square);
        let value = alphabeta_value(&mut game, window).value;
        game.revert(square);
        values.push(json!({"square": square, "value": value}));
    }
    values.sort_by_key(|entry| entry["square"].as_u64());
    let moves = game.moves().to_vec();
    let square = ttt::computer_move(&moves)
        .ok_or_else(|| ApiError::internal("a game that is not over has a move".into()))?;
    let mut fresh = TicTacToe::from_moves(&moves)
        .map_err(|error| ApiError::internal(format!("replaying the moves: {error}")))?;
    answer["value"] = json!(alphabeta_value(&mut fresh, window).value);
    answer["move"] = json!(square);
    answer["values"] = json!(values);
    let mut after = TicTacToe::from_moves(&moves)
        .map_err(|error| ApiError::internal(format!("replaying the moves: {error}")))?;
    after
        .play(u32::from(square))
        .map_err(|error| ApiError::internal(format!("the computer's move: {error}")))?;
    answer["after"] = ending_text(after.ending());
    Ok(answer)
}

/// The body of `POST /api/connect4/move`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Connect4Request {
    moves: String,
    #[serde(default)]
    scores: bool,
}

/// Positions the solver may search for each column before it settles for bounds: the
/// answer comes in about a second, as `connect4 play`'s (whose default is 2,000,000).
pub const CONNECT4_MAX_NODES: u64 = 1_000_000;
/// The solver's table for one request, in MiB: requests run side by side.
const CONNECT4_TABLE_MIB: usize = 16;

fn connect4_ending(game: &ConnectFour) -> Json {
    match game.winner() {
        Some(Player::Max) => json!("first player wins"),
        Some(Player::Min) => json!("second player wins"),
        None if game.moves_played() == ConnectFour::WIDTH * ConnectFour::HEIGHT => json!("draw"),
        None => Json::Null,
    }
}

fn score_json(score: connect4::MoveScore) -> Json {
    if score.at_least == score.at_most {
        json!(score.at_least)
    } else {
        json!({"at_least": score.at_least, "at_most": score.at_most})
    }
}

/// The solver answers the moves so far, from the shipped book where it can.
pub fn connect4_move(request: &Connect4Request, book: &OpeningBook) -> Result<Json, ApiError> {
    let moves = request.moves.trim();
    let mut game = ConnectFour::from_moves(moves)
        .map_err(|error| ApiError::bad_request(format!("moves {moves:?}: {error}")))?;
    let ending = connect4_ending(&game);
    let mut answer = json!({"moves": moves, "ending": ending});
    if !ending.is_null() {
        answer["move"] = Json::Null;
        return Ok(answer);
    }
    let mut solver = Solver::new(SolveOptions {
        table_mib: CONNECT4_TABLE_MIB,
        ..SolveOptions::default()
    });
    let started = std::time::Instant::now();
    let scores = connect4::move_scores(&mut solver, &mut game, CONNECT4_MAX_NODES, 1, Some(book));
    let (column, score) = connect4::best_of(&game, &scores)
        .ok_or_else(|| ApiError::internal("a game that is not over has a move".into()))?;
    answer["move"] = json!(column + 1);
    answer["score"] = score_json(score);
    answer["exact"] = json!(score.at_least == score.at_most);
    answer["seconds"] = json!(started.elapsed().as_secs_f64());
    game.play(u32::from(column) + 1)
        .map_err(|error| ApiError::internal(format!("the computer's move: {error}")))?;
    answer["after"] = connect4_ending(&game);
    if request.scores {
        let mut by_column = vec![Json::Null; ConnectFour::WIDTH as usize];
        for &(column, score) in &scores {
            by_column[usize::from(column)] = score_json(score);
        }
        answer["scores"] = json!(by_column);
    }
    Ok(answer)
}

/// The body of `POST /api/checkers/state` and `POST /api/checkers/best`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckersRequest {
    fen: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
    depth: Option<u32>,
    time: Option<f64>,
}

/// The deepest search a request may ask for, and the longest.
pub const CHECKERS_MAX_DEPTH: u32 = 16;
/// Seconds.
pub const CHECKERS_MAX_TIME: f64 = 10.0;
/// The most moves a game sent may have (the 40-move rule ends games long before).
const CHECKERS_MAX_MOVES: usize = 1_000;

/// The game so far, every move checked against the position it is played in.
fn checkers_game(request: &CheckersRequest) -> Result<PdnGame, ApiError> {
    if request.moves.len() > CHECKERS_MAX_MOVES {
        return Err(ApiError::too_large(format!(
            "{} moves: a game sent may have at most {CHECKERS_MAX_MOVES}",
            request.moves.len()
        )));
    }
    let start = match request.fen.as_deref().map(str::trim) {
        None | Some("") => Position::initial(),
        Some(fen) => Position::from_fen(fen)
            .map_err(|error| ApiError::bad_request(format!("fen {fen:?}: {error}")))?,
    };
    let mut game = PdnGame::new(start);
    let mut position = start;
    for (index, text) in request.moves.iter().enumerate() {
        let mv = position.parse_move(text).map_err(|error| {
            ApiError::bad_request(format!("move {} ({text}): {error}", index + 1))
        })?;
        position = position.play(mv);
        game.moves.push(mv);
    }
    Ok(game)
}

fn move_json(mv: Move) -> Json {
    json!({"text": mv.to_string(), "path": mv.path().collect::<Vec<u8>>()})
}

/// Everything the page draws of a game: the board, whose turn, the legal moves, the
/// result, the PDN.
fn checkers_state(so_far: &PdnGame) -> Json {
    let game = Checkers::from_pdn(so_far);
    let position = *game.position();
    let mut board = vec![Json::Null; 32];
    for (color, man, king) in [(Color::Black, "b", "B"), (Color::White, "w", "W")] {
        for square in squares_of(position.men(color)) {
            board[usize::from(square) - 1] = json!(man);
        }
        for square in squares_of(position.kings(color)) {
            board[usize::from(square) - 1] = json!(king);
        }
    }
    let result = game.result();
    let mut legal = Vec::new();
    if result.is_none() {
        let mut moves = Vec::new();
        position.legal_moves(&mut moves);
        legal = moves.into_iter().map(move_json).collect();
    }
    let mut record = so_far.clone();
    if let Some(result) = result {
        record.set_result(result);
    }
    json!({
        "fen": position.to_fen(),
        "to_move": match position.side_to_move() { Color::Black => "black", Color::White => "white" },
        "board": board,
        "legal": legal,
        "result": result.map(|result| match result {
            GameResult::BlackWins => "1-0",
            GameResult::WhiteWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unfinished => "*",
        }),
        "pdn": write_pdn(std::slice::from_ref(&record)),
    })
}

/// The deepest search of each root move for the top of the tree the page shows.
const CHECKERS_TOP_DEPTH: u32 = 5;

/// The top of the tree: each legal move of the position with its value for the player to
/// move, by alpha-beta with quiescence to one ply less than the engine reached (at most
/// [`CHECKERS_TOP_DEPTH`]), so that the page can show it and open it in the inspector.
fn checkers_top(game: &mut Checkers, engine_depth: u32) -> Json {
    let depth = engine_depth.clamp(1, CHECKERS_TOP_DEPTH + 1) - 1;
    let sign = if game.to_move() == Player::Max { 1 } else { -1 };
    let mut moves = Vec::new();
    game.successors(&mut moves);
    let mut top = Vec::with_capacity(moves.len());
    for mv in moves {
        game.update(mv);
        let value = depth_limited_value_quiescent(
            game,
            depth,
            Window::full(),
            crate::cli::checkers::engine::DEFAULT_QUIESCENCE_PLIES,
        )
        .value;
        game.revert(mv);
        top.push(json!({"move": mv.to_string(), "value": sign * value}));
    }
    json!({"depth": depth + 1, "moves": top})
}

/// The position after the moves sent.
pub fn checkers_state_of(request: &CheckersRequest) -> Result<Json, ApiError> {
    if request.depth.is_some() || request.time.is_some() {
        return Err(ApiError::unprocessable(
            "depth and time apply to /api/checkers/best".into(),
        ));
    }
    Ok(checkers_state(&checkers_game(request)?))
}

/// The engine's move after the moves sent, as `checkers best` finds it; `stop` ends the
/// search early (the client has gone).
pub fn checkers_best(request: &CheckersRequest, stop: StopSignal) -> Result<Json, ApiError> {
    let mut so_far = checkers_game(request)?;
    let (depth, time) = match (request.depth, request.time) {
        (Some(_), Some(_)) => {
            return Err(ApiError::unprocessable(
                "give depth or time, not both".into(),
            ));
        }
        (None, None) => (Some(8), None),
        (Some(depth), None) if (1..=CHECKERS_MAX_DEPTH).contains(&depth) => (Some(depth), None),
        (Some(depth), None) => {
            return Err(ApiError::unprocessable(format!(
                "depth must be 1 to {CHECKERS_MAX_DEPTH}, not {depth}"
            )));
        }
        (None, Some(time)) if time > 0.0 && time <= CHECKERS_MAX_TIME => (None, Some(time)),
        (None, Some(time)) => {
            return Err(ApiError::unprocessable(format!(
                "time must be more than 0 and at most {CHECKERS_MAX_TIME} seconds, not {time}"
            )));
        }
    };
    let args = SearchArgs::alphabeta(depth, time, 16, None);
    let mut engine = Engine::from_args(&args).map_err(|error| match error {
        crate::cli::CliError::Usage(message) => ApiError::unprocessable(message),
        crate::cli::CliError::Output(error) => ApiError::internal(error.to_string()),
    })?;
    engine.stop = Some(stop);
    let mut game = engine.game(&so_far);
    if game.result().is_some() {
        let mut answer = checkers_state(&so_far);
        answer["move"] = Json::Null;
        return Ok(answer);
    }
    let report = engine.search(&mut game, |_| {});
    let top = checkers_top(
        &mut game,
        report.iterations.last().map_or(1, |last| last.depth),
    );
    let best = report
        .best_move
        .ok_or_else(|| ApiError::internal("a game that is not over has a move".into()))?;
    so_far.moves.push(best);
    let mut answer = checkers_state(&so_far);
    // The depth whose move is played (a depth cut short gives a bound): the line begins
    // with the move.
    let last = report.deciding();
    answer["move"] = move_json(best);
    // From Black's side, as `checkers best` gives it; integral for alpha-beta.
    answer["value"] = json!(last.map(|iteration| value_json(iteration.value)));
    answer["depth"] = json!(last.map_or(0, |iteration| iteration.depth));
    answer["nodes"] = json!(report.nodes);
    answer["seconds"] = json!(report.elapsed.as_secs_f64());
    answer["top"] = top;
    answer["principal_line"] = json!(last.map_or(Vec::new(), |iteration| {
        iteration
            .principal_line
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
    }));
    Ok(answer)
}

/// The body of `POST /api/kalah/move`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KalahRequest {
    #[serde(default = "six")]
    houses: usize,
    #[serde(default = "four")]
    seeds: u8,
    #[serde(default)]
    rules: KalahRulesName,
    #[serde(default)]
    moves: Vec<usize>,
}

fn six() -> usize {
    6
}

fn four() -> u8 {
    4
}

/// The capture rule: Irving, Donkers and Uiterwijk's (the published solutions) or the
/// rules as commonly stated.
#[derive(Clone, Copy, Debug, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum KalahRulesName {
    /// A last seed in an empty own house is captured even when the opposite one is empty.
    #[default]
    Irving,
    /// A capture needs seeds in the opposite house.
    Standard,
}

/// Positions the solver may search for each move before it settles for bounds.
pub const KALAH_MAX_NODES: u64 = 500_000;
/// The most seeds a house may start with here (the command line takes 20; the page is for
/// games a person plays).
const KALAH_MAX_SEEDS: u8 = 8;

fn kalah_state(game: &Kalah) -> Json {
    let side = |player: Player| match player {
        Player::Max => "south",
        Player::Min => "north",
    };
    let ending = game.is_over().then(|| {
        let margin = game.value();
        match margin.signum() {
            1 => format!("South wins by {margin}"),
            -1 => format!("North wins by {}", -margin),
            _ => "a draw".to_string(),
        }
    });
    json!({
        "pits": game.pits(),
        "to_move": side(game.player_to_move()),
        "ending": ending,
    })
}

/// The solver answers the moves so far (houses 1 to h of the player to move, who may move
/// again after a last seed in the store): one move, the mover's margin or its bounds.
pub fn kalah_move(request: &KalahRequest) -> Result<Json, ApiError> {
    if !(1..=6).contains(&request.houses) || !(1..=KALAH_MAX_SEEDS).contains(&request.seeds) {
        return Err(ApiError::unprocessable(format!(
            "Kalah here has 1 to 6 houses of 1 to {KALAH_MAX_SEEDS} seeds, not {} of {}",
            request.houses, request.seeds
        )));
    }
    if request.moves.len() > 1_000 {
        return Err(ApiError::unprocessable(format!(
            "{} moves: a game sent may have at most 1000",
            request.moves.len()
        )));
    }
    let rules = match request.rules {
        KalahRulesName::Irving => KalahRules::irving(),
        KalahRulesName::Standard => KalahRules::standard(),
    };
    let mut game = Kalah::new(request.houses, request.seeds, rules)
        .map_err(|error| ApiError::unprocessable(error.to_string()))?;
    for (index, &house) in request.moves.iter().enumerate() {
        game.play(house)
            .map_err(|error| ApiError::bad_request(format!("move {}: {error}", index + 1)))?;
    }
    let mut answer = kalah_state(&game);
    if game.is_over() {
        answer["move"] = Json::Null;
        return Ok(answer);
    }
    let mut solver = Solver::new(SolveOptions {
        table_mib: 16,
        enhanced_transposition_cutoffs: false,
        ..SolveOptions::default()
    });
    let (house, at_least, at_most) = kalah::computer_move(&mut solver, &mut game, KALAH_MAX_NODES);
    answer["move"] = json!(usize::from(house) + 1);
    answer["at_least"] = json!(at_least);
    answer["at_most"] = json!(at_most);
    answer["exact"] = json!(at_least == at_most);
    game.play(usize::from(house) + 1)
        .map_err(|error| ApiError::internal(format!("the computer's move: {error}")))?;
    answer["after"] = kalah_state(&game);
    Ok(answer)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mccarthys_program_takes_the_centre_after_a_corner_and_never_loses() {
        let answer = ttt_move(&TttRequest { moves: vec![1] }).unwrap();
        assert_eq!(answer["move"], 5);
        assert_eq!(answer["value"], 0);
        assert_eq!(answer["after"], Json::Null);
        let illegal = ttt_move(&TttRequest { moves: vec![1, 1] }).unwrap_err();
        assert!(
            illegal.message.contains("moves \"1,1\""),
            "{}",
            illegal.message
        );
    }

    #[test]
    fn checkers_states_list_multi_jumps_with_their_paths_and_refuse_illegal_moves() {
        let request = CheckersRequest {
            fen: Some("B:W14,23:B9".into()),
            moves: Vec::new(),
            depth: None,
            time: None,
        };
        let state = checkers_state_of(&request).unwrap();
        assert_eq!(state["to_move"], "black");
        assert_eq!(
            state["legal"],
            json!([{"text": "9x18x27", "path": [9, 18, 27]}])
        );
        let illegal = CheckersRequest {
            moves: vec!["9-13".into()],
            ..request
        };
        assert!(checkers_state_of(&illegal).is_err());
    }

    #[test]
    fn kalah_answers_a_move_of_the_player_to_move_and_says_who_moves_next() {
        let request = KalahRequest {
            houses: 3,
            seeds: 3,
            rules: KalahRulesName::Irving,
            moves: Vec::new(),
        };
        let answer = kalah_move(&request).unwrap();
        assert_eq!(answer["pits"], json!([3, 3, 3, 0, 3, 3, 3, 0]));
        assert_eq!(answer["to_move"], "south");
        assert_eq!(answer["exact"], true);
        let house = answer["move"].as_u64().unwrap();
        assert!((1..=3).contains(&house));
        let empty = KalahRequest {
            moves: vec![1, 1],
            ..request
        };
        let error = kalah_move(&empty).unwrap_err();
        assert!(error.message.contains("move 2"), "{}", error.message);
    }
}
