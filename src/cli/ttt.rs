//! `gametree ttt`: McCarthy's tic-tac-toe (seed 000, "2-dimensional Tic Tac Toe") searched
//! by his alpha-beta programs, and played against a person in the terminal.

use std::fmt::Write as _;
use std::io::{self, BufRead, IsTerminal, Write};

use clap::{Args, Subcommand};
use serde_json::{Value as Json, json};

use gametree::tic_tac_toe::{Ending, Mark, Square, TicTacToe, octal};
use gametree::{Game, Proof, ProofStep, Window, alphabeta_line, alphabeta_proof, alphabeta_value};

use gametree::search::mcts::{Budget, Mcts, MctsResult};

use super::engine::{Engine, EngineArgs, mcts_text};
use super::output::outln;
use super::prompt;
use super::{CliError, Outcome, Side};

/// The seed's window: `lmax[p1, -1000, 1000]`.
pub(super) const SEED_WINDOW: (i32, i32) = (-1000, 1000);

/// Arguments of `gametree ttt`.
#[derive(Args, Debug)]
pub struct TttArgs {
    #[command(subcommand)]
    command: TttCommand,
}

#[derive(Subcommand, Debug)]
enum TttCommand {
    /// The value of the position to X (McCarthy's valmax, or valmin when O is to move)
    #[command(after_help = "Example:\n  $ gametree ttt value --moves 3,1\n  3")]
    Value(SearchArgs),
    /// The value and the main line of play, printed as the seed prints lmax:
    /// (value move move ...)
    #[command(after_help = "Example:\n  $ gametree ttt line --moves 2,1\n  (0 5 10 6 4 7 3 11)")]
    Line(SearchArgs),
    /// The value and its proof, printed as the seed prints tmax: (value pfmax pfmin)
    #[command(
        after_help = "Example:\n  $ gametree ttt proof --moves 3,1\n  (3 (11 (6 7 (5 10 3))) ((2 7 (4 11 (5 0))) [..]))"
    )]
    Proof(SearchArgs),
    /// The computer's move: by McCarthy's alpha-beta (the first move of the main line) or
    /// by Monte Carlo tree search; squares are printed 1 to 9
    #[command(after_help = "Examples:\n  \
        $ gametree ttt best --moves 5,1\n  \
        best move 8\n  \
        engine    alphabeta\n  \
        value     0\n  \
        $ gametree ttt best --moves 1,2,5 --engine mcts --playouts 2000 --seed 1 --json\n  \
        {\"moves\":[1,2,5],\"engine\":\"mcts\",\"move\":9,[..]}")]
    Best(BestArgs),
    /// Play against the computer, which searches the whole game and never loses (or, with
    /// --engine mcts, plays by Monte Carlo tree search)
    #[command(
        after_help = "Example:\n  $ printf '5\\n1\\n3\\n7\\n' | gametree ttt play --side x | tail -1\n  The computer wins."
    )]
    Play(PlayArgs),
}

/// What `best` takes.
#[derive(Args, Debug)]
struct BestArgs {
    /// The moves played so far: squares 1 to 9 (decimal, numbered left to right from the
    /// top row), in game order, X first; empty means the empty board
    #[arg(long, value_name = "SQUARES", default_value = "")]
    moves: String,
    #[command(flatten)]
    engine: EngineArgs,
    /// Print JSON: {"moves", "engine", "move", then "value" (alphabeta) or what the Monte
    /// Carlo search did: "search" with playouts, seed, each move's visits}
    #[arg(long)]
    json: bool,
}

/// What `value`, `line` and `proof` take.
#[derive(Args, Debug)]
struct SearchArgs {
    /// The moves played so far: squares 1 to 9 (decimal, numbered left to right from the
    /// top row), in game order, X first; empty means the empty board
    #[arg(
        long,
        value_name = "SQUARES",
        default_value = "",
        allow_hyphen_values = true
    )]
    moves: String,
    /// Print squares in decimal; by default they are printed in octal as in the seed
    /// (square 8 is 10, square 9 is 11)
    #[arg(long)]
    decimal: bool,
    /// The window α,β of the search
    #[arg(
        long,
        value_name = "ALPHA,BETA",
        default_value = "-1000,1000",
        allow_hyphen_values = true
    )]
    window: String,
    /// Also print the number of moves the search made (the seed's update count)
    #[arg(long)]
    count: bool,
    /// Print JSON: {"value", "line", "proof", "count"} as applicable; squares are JSON
    /// numbers 1 to 9
    #[arg(long)]
    json: bool,
}

/// What `play` takes.
#[derive(Args, Debug)]
struct PlayArgs {
    /// Your side: first (X, who moves first) or second (O); asked for when absent
    #[arg(
        long,
        alias = "as",
        value_enum,
        ignore_case = true,
        value_name = "SIDE"
    )]
    side: Option<Side>,
    /// The moves played before the game starts: squares 1 to 9 (decimal, numbered left to
    /// right from the top row), in game order, X first; empty means the empty board
    #[arg(long, value_name = "SQUARES", default_value = "")]
    moves: String,
    #[command(flatten)]
    engine: EngineArgs,
}

/// Runs `gametree ttt`.
pub fn run(args: TttArgs) -> Result<Outcome, CliError> {
    match args.command {
        TttCommand::Value(args) => search(Search::Value, &args),
        TttCommand::Line(args) => search(Search::Line, &args),
        TttCommand::Proof(args) => search(Search::Proof, &args),
        TttCommand::Best(args) => best(&args),
        TttCommand::Play(args) => play(&args),
    }
}

/// The computer's player: McCarthy's alpha-beta, or Monte Carlo tree search keeping its
/// tree from move to move.
enum Computer {
    Alphabeta,
    Mcts {
        search: Box<Mcts<TicTacToe>>,
        budget: Budget,
    },
}

impl Computer {
    fn new(args: &EngineArgs) -> Self {
        match args.engine {
            Engine::Alphabeta => Computer::Alphabeta,
            Engine::Mcts => Computer::Mcts {
                search: Box::new(Mcts::new(args.mcts_options())),
                budget: args.budget(),
            },
        }
    }

    /// The move after `moves`, and the Monte Carlo search's figures when it searched.
    fn choose(&mut self, moves: &[Square]) -> Option<(Square, Option<MctsResult<Square>>)> {
        match self {
            Computer::Alphabeta => computer_move(moves).map(|square| (square, None)),
            Computer::Mcts { search, budget } => {
                // A fresh board: a search reorders the board's blanks.
                let mut game = TicTacToe::from_moves(moves).ok()?;
                if game.ending().is_some() {
                    return None;
                }
                let result = search.search(&mut game, *budget);
                Some((result.best_move?, Some(result)))
            }
        }
    }

    /// Tells a Monte Carlo search which move was played, so it keeps that subtree.
    fn played(&mut self, square: Square) {
        if let Computer::Mcts { search, .. } = self {
            search.advance(square);
        }
    }
}

/// The game after `--moves`, refused (exit 2) when a move is wrong or the game is over.
fn unfinished_game(moves: &str) -> Result<TicTacToe, CliError> {
    let game = TicTacToe::parse_moves(moves)
        .map_err(|error| CliError::Usage(format!("--moves {moves:?}: {error}")))?;
    if let Some(ending) = game.ending() {
        return Err(CliError::Usage(format!(
            "--moves {moves:?}: the game is over ({ending}): there is no move to choose"
        )));
    }
    Ok(game)
}

fn best(args: &BestArgs) -> Result<Outcome, CliError> {
    args.engine.check()?;
    let game = unfinished_game(&args.moves)?;
    let moves = game.moves().to_vec();
    let mut computer = Computer::new(&args.engine);
    let (square, result) = computer
        .choose(&moves)
        .expect("invariant: a game that is not over has a move");
    let engine = match args.engine.engine {
        Engine::Alphabeta => "alphabeta",
        Engine::Mcts => "mcts",
    };
    let value = match result {
        Some(_) => None,
        None => {
            let mut game = TicTacToe::from_moves(&moves).expect("invariant: replayed");
            Some(alphabeta_value(&mut game, Window::new(SEED_WINDOW.0, SEED_WINDOW.1)).value)
        }
    };
    if args.json {
        let mut object = serde_json::Map::new();
        object.insert("moves".into(), json!(moves));
        object.insert("engine".into(), json!(engine));
        object.insert("move".into(), json!(square));
        match &result {
            Some(result) => {
                object.insert(
                    "search".into(),
                    args.engine.mcts_json(result, |mv| json!(mv)),
                );
            }
            None => {
                object.insert("value".into(), json!(value));
            }
        }
        outln!("{}", Json::Object(object))?;
    } else {
        outln!("best move {square}\nengine    {engine}")?;
        match &result {
            Some(result) => outln!("{}", mcts_text(result, |mv| mv.to_string()))?,
            None => outln!("value     {}", value.unwrap_or_default())?,
        }
    }
    Ok(Outcome::Found)
}

#[derive(Clone, Copy)]
enum Search {
    Value,
    Line,
    Proof,
}

/// Parses `--window A,B`: two integers, α < β (an empty window holds no value).
fn parse_window(text: &str) -> Result<Window<i32>, CliError> {
    let bad = || {
        CliError::Usage(format!(
            "--window {text:?}: expected two integers ALPHA,BETA such as -1000,1000"
        ))
    };
    let (alpha, beta) = text.split_once(',').ok_or_else(bad)?;
    let alpha: i32 = alpha.trim().parse().map_err(|_| bad())?;
    let beta: i32 = beta.trim().parse().map_err(|_| bad())?;
    if alpha >= beta {
        return Err(CliError::Usage(format!(
            "--window {text:?}: alpha ({alpha}) must be less than beta ({beta}): \
             no value lies strictly between them"
        )));
    }
    Ok(Window::new(alpha, beta))
}

/// A square as printed: octal like the seed, or decimal.
fn square_text(square: Square, decimal: bool) -> u8 {
    if decimal { square } else { octal(square) }
}

fn search(kind: Search, args: &SearchArgs) -> Result<Outcome, CliError> {
    let window = parse_window(&args.window)?;
    let mut game = TicTacToe::parse_moves(&args.moves)
        .map_err(|error| CliError::Usage(format!("--moves {:?}: {error}", args.moves)))?;
    let write_move = |out: &mut String, &square: &Square| {
        let _ = write!(out, "{}", square_text(square, args.decimal));
    };
    let write_value = |out: &mut String, value: &i32| {
        let _ = write!(out, "{value}");
    };
    let mut json = serde_json::Map::new();
    let text = match kind {
        Search::Value => {
            let result = alphabeta_value(&mut game, window);
            json.insert("value".into(), json!(result.value));
            result.value.to_string()
        }
        Search::Line => {
            let result = alphabeta_line(&mut game, window);
            json.insert("value".into(), json!(result.value));
            json.insert("line".into(), json!(result.principal_line));
            let mut text = format!("({}", result.value);
            for square in &result.principal_line {
                text.push(' ');
                write_move(&mut text, square);
            }
            text.push(')');
            text
        }
        Search::Proof => {
            let result = alphabeta_proof(&mut game, window);
            json.insert("value".into(), json!(result.value));
            json.insert(
                "proof".into(),
                json!({
                    "pfmax": result.at_least.as_ref().map(proof_json),
                    "pfmin": result.at_most.as_ref().map(proof_json),
                }),
            );
            result.to_sexpr(write_move, write_value)
        }
    };
    if args.count {
        json.insert("count".into(), json!(game.count()));
    }
    let mut out = text;
    if args.json {
        out = Json::Object(json).to_string();
    } else if args.count {
        let _ = write!(out, "\ncount {}", game.count());
    }
    outln!("{out}")?;
    Ok(Outcome::Found)
}

/// A proof in the seed's notation with parentheses as JSON arrays: `<v>` is `[v]`,
/// `mv . pf` is `[mv, ...pf]`, a list of replies an array of those.
fn proof_json(proof: &Proof<Square, i32>) -> Json {
    /// The elements of the list a step stands for (the proofs are at most 9 moves deep).
    fn contents(proof: &Proof<Square, i32>, step: &ProofStep<Square, i32>) -> Vec<Json> {
        match step {
            ProofStep::Terminal(value) => vec![json!(value)],
            ProofStep::Choice(square, next) => {
                let mut items = vec![json!(square)];
                items.extend(contents(proof, proof.step(*next)));
                items
            }
            ProofStep::Replies(replies) => replies
                .iter()
                .map(|&(square, next)| {
                    let mut items = vec![json!(square)];
                    items.extend(contents(proof, proof.step(next)));
                    Json::Array(items)
                })
                .collect(),
        }
    }
    Json::Array(contents(proof, proof.step(proof.root())))
}

/// The computer's move: the first move of the main line found by McCarthy's
/// `linemax`/`linemin` with the seed's window, searched on a freshly set up board (a search
/// reorders the board's blanks, so this keeps the computer's choice a function of the
/// moves alone). `None` when the game is over.
pub(super) fn computer_move(moves: &[Square]) -> Option<Square> {
    let mut game = TicTacToe::from_moves(moves).ok()?;
    if game.ending().is_some() {
        return None;
    }
    let (alpha, beta) = SEED_WINDOW;
    // Values lie in −9..=9, strictly inside the window: the value is exact and the line
    // starts with a best move.
    alphabeta_line(&mut game, Window::new(alpha, beta))
        .principal_line
        .first()
        .copied()
}

fn play(args: &PlayArgs) -> Result<Outcome, CliError> {
    let stdin = io::stdin();
    let stdout = io::stdout();
    let human = args.side.map(|side| match side {
        Side::First => Mark::X,
        Side::Second => Mark::O,
    });
    args.engine.check()?;
    let game = unfinished_game(&args.moves)?;
    // Piped moves are not shown by a terminal: echo them so the transcript reads well.
    let echo = !stdin.is_terminal();
    let mut computer = Computer::new(&args.engine);
    play_game(
        game,
        human,
        &mut computer,
        echo,
        &mut stdin.lock(),
        &mut stdout.lock(),
    )?;
    Ok(Outcome::Found)
}

/// A person plays the computer, reading moves line by line from `input`. Bad input is
/// answered with the reason and asked for again; the end of input ends the game quietly.
/// The game goes on from `game` (the moves of `--moves`).
fn play_game(
    mut game: TicTacToe,
    human: Option<Mark>,
    computer: &mut Computer,
    echo: bool,
    input: &mut impl BufRead,
    output: &mut impl Write,
) -> Result<(), CliError> {
    let human = match human {
        Some(mark) => mark,
        None => loop {
            write!(output, "Play X or O? (X moves first) ")?;
            output.flush()?;
            let Some(answer) = prompt::read_answer(input, echo, output)? else {
                return Ok(());
            };
            // The answers every play command takes: the side's name, its number, or the
            // game's own name for it.
            match answer.to_ascii_uppercase().as_str() {
                "X" | "1" | "FIRST" => break Mark::X,
                "O" | "2" | "SECOND" => break Mark::O,
                _ => writeln!(
                    output,
                    "{} is neither X (first) nor O (second); try again.",
                    gametree::text::excerpt(&answer)
                )?,
            }
        },
    };
    writeln!(
        output,
        "You are {human}. Squares are numbered 1 to 9, left to right from the top."
    )?;
    loop {
        writeln!(output, "\n{game}\n")?;
        if let Some(ending) = game.ending() {
            let verdict = match ending {
                Ending::Win(mark) if mark == human => "You win.",
                Ending::Win(_) => "The computer wins.",
                Ending::Draw => "A draw.",
            };
            writeln!(output, "{verdict}")?;
            return Ok(());
        }
        if game.mark_to_move() == human {
            loop {
                write!(output, "Your move ({human}): ")?;
                output.flush()?;
                let Some(answer) = prompt::read_answer(input, echo, output)? else {
                    return Ok(());
                };
                let played = match answer.parse::<u32>() {
                    Ok(square) => game.play(square).map_err(|error| error.to_string()),
                    Err(_) => Err(format!("{answer:?} is not a square number 1 to 9")),
                };
                match played {
                    Ok(()) => break,
                    Err(reason) => writeln!(output, "{reason}; try again.")?,
                }
            }
            if let Some(&square) = game.moves().last() {
                computer.played(square);
            }
        } else {
            let (square, _) = computer
                .choose(game.moves())
                .expect("invariant: a game that is not over has a move");
            writeln!(
                output,
                "The computer ({}) plays {square}.",
                game.mark_to_move()
            )?;
            game.update(square);
            computer.played(square);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays every sequence of human moves against the computer, which plays `computer`;
    /// returns how many games ended, after asserting that the computer lost none.
    fn every_game_against(computer: Mark, game: &mut TicTacToe) -> usize {
        match game.ending() {
            Some(Ending::Win(mark)) => {
                assert_eq!(mark, computer, "the computer lost: {:?}", game.moves());
                return 1;
            }
            Some(Ending::Draw) => return 1,
            None => {}
        }
        if game.mark_to_move() == computer {
            let square = computer_move(game.moves()).expect("not over");
            game.update(square);
            let games = every_game_against(computer, game);
            game.revert(square);
            games
        } else {
            let mut games = 0;
            for square in 1..=9 {
                if game.mark(square).is_none() {
                    game.update(square);
                    games += every_game_against(computer, game);
                    game.revert(square);
                }
            }
            games
        }
    }

    #[test]
    fn the_computer_never_loses_whatever_the_person_plays() {
        assert!(every_game_against(Mark::X, &mut TicTacToe::new()) > 0);
        assert!(every_game_against(Mark::O, &mut TicTacToe::new()) > 0);
    }

    #[test]
    fn windows_parse_as_two_ordered_integers() {
        assert_eq!(
            parse_window("-1000,1000").ok(),
            Some(Window::new(-1000, 1000))
        );
        assert_eq!(parse_window(" -2 , 3 ").ok(), Some(Window::new(-2, 3)));
        for bad in ["", "1", "1,2,3", "a,b", "5,3", "5,5", "1,"] {
            assert!(parse_window(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn play_reprompts_on_bad_input_and_stops_at_the_end_of_input() {
        let mut input = io::Cursor::new("maybe\nx\n0\nten\n5\n5\n");
        let mut output = Vec::new();
        play_game(
            TicTacToe::new(),
            None,
            &mut Computer::Alphabeta,
            true,
            &mut input,
            &mut output,
        )
        .expect("in memory");
        let text = String::from_utf8(output).expect("utf-8");
        assert!(
            text.contains("\"maybe\" is neither X (first) nor O (second); try again."),
            "{text}"
        );
        assert!(text.contains("square 0 is out of range: the squares are 1 to 9; try again."));
        assert!(text.contains("\"ten\" is not a square number 1 to 9; try again."));
        assert!(text.contains("square 5 is already taken by X; try again."));
        assert!(text.contains("The computer (O) plays"));
        assert!(!text.contains("wins") && !text.contains("draw"), "{text}");
    }
}
