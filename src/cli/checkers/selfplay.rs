//! `gametree checkers selfplay`: games of gametree against itself, for the learned
//! evaluation to be fitted to (`checkers learn`). Each game starts from an ACF three-move
//! ballot and a few random moves, so that games of one ballot differ; every other move is
//! the search's, and its value is kept beside the move: `checkers learn --score-weight`
//! fits to those values as well as to the result, as Samuel's checkers program (1959, cited
//! by Slagle's paper, seed 003, for minimaxing) moved its evaluation towards the backed-up
//! score of its look-ahead, and as engines since learn from their search's scores.
//!
//! Games are appended to the file as JSON lines in the order of their numbers (whatever
//! order they end in), in the match records' format
//! (`examples/checkers_match.rs`: `moves` from the start and `result`, which `learn`
//! reads) with `scores` added; a rerun with the same file plays only the games it lacks,
//! so a long run can be stopped and taken up again.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde_json::{Value as Json, json};

use gametree::experiment::{InOrderLines, work_in_order};
use gametree::games::checkers::endgame::{CheckersEndgame, EndgameValue};
use gametree::games::checkers::{Checkers, Evaluation, GameResult, Move, three_move_ballots};
use gametree::{Game, Search, SplitMix64, TranspositionTable};

use super::engine::{Engine, Limit, SearchArgs};
use crate::cli::output::outln;
use crate::cli::{CliError, Outcome, limits, progress};

/// The most games one run may ask for: a bound on a mistyped count, far beyond what runs in
/// a week here (about 40 games a second at depth 6 on two cores).
const MOST_GAMES: u64 = 100_000_000;
/// The most random moves after the ballot: more than a handful makes games no checkers
/// player would reach.
const MOST_RANDOM_PLIES: usize = 20;
/// The bounds of `--max-plies`: a game still going is adjudicated a draw.
const MAX_PLIES: std::ops::RangeInclusive<usize> = 10..=10_000;

fn usage(message: impl Into<String>) -> CliError {
    CliError::Usage(message.into())
}

/// What `checkers selfplay` plays.
pub struct SelfplayOptions {
    /// Games in the file when the run is done (game `i` starts from ballot `i mod 156`).
    pub games: u64,
    /// Random moves after the ballot's three.
    pub random_plies: usize,
    /// The seed of the random moves: game `i`'s are the `i`th stream under it.
    pub seed: u64,
    /// Games played at once, each on its own thread with its own table.
    pub jobs: Option<usize>,
    /// A game this long is adjudicated a draw.
    pub max_plies: usize,
}

/// The search each move gets, checked once: what the `best` flags give (`--depth`,
/// `--time` or `--max-nodes`, `--eval`, `--quiescence`, `--table-mib`, the endgame databases, the search
/// techniques).
struct Player {
    budget: Budget,
    quiescence: u32,
    table_mib: usize,
    evaluation: Evaluation,
    endgame: Option<CheckersEndgame>,
    /// The search techniques that are off by default (`--history`, `--lmr`,
    /// `--extend-recaptures`, `--verified-pruning`).
    history: bool,
    late_move_reductions: bool,
    extend_recaptures: bool,
    verified_pruning: bool,
    /// How the games were made, as every record of the file says, so that a rerun does not
    /// mix games of other settings into the file.
    made_by: String,
}

/// How long each move is searched.
#[derive(Clone, Copy)]
enum Budget {
    Depth(u32),
    Time(Duration),
    Nodes(u64),
}

/// One finished game, as its JSON line says it.
struct Record {
    index: u64,
    ballot: u16,
    result: GameResult,
    reason: String,
    moves: Vec<Move>,
    /// The search's value of the position before each move, from Black's side; `None` for
    /// the ballot's and the random moves.
    scores: Vec<Option<i32>>,
}

impl Record {
    fn to_json(&self, made_by: &str) -> String {
        json!({
            "index": self.index,
            "ballot": self.ballot,
            "result": self.result.token(),
            "reason": self.reason,
            "plies": self.moves.len(),
            "moves": self.moves.iter().map(ToString::to_string).collect::<Vec<_>>(),
            "scores": self.scores,
            "made_by": made_by,
        })
        .to_string()
    }
}

/// Runs `checkers selfplay`.
pub fn run(
    search: &SearchArgs,
    options: &SelfplayOptions,
    out: &Path,
    json_output: bool,
) -> Result<Outcome, CliError> {
    let &SelfplayOptions {
        games,
        random_plies,
        seed,
        jobs,
        max_plies,
    } = options;
    if games == 0 || games > MOST_GAMES {
        return Err(usage(format!("--games {games}: from 1 to {MOST_GAMES}")));
    }
    if random_plies > MOST_RANDOM_PLIES {
        return Err(usage(format!(
            "--random-plies {random_plies}: at most {MOST_RANDOM_PLIES}"
        )));
    }
    if !MAX_PLIES.contains(&max_plies) {
        return Err(usage(format!(
            "--max-plies {max_plies}: from {} to {}",
            MAX_PLIES.start(),
            MAX_PLIES.end()
        )));
    }
    let jobs = limits::check_jobs(jobs.unwrap_or_else(limits::cores))?;
    limits::check_memory(
        "--table-mib",
        &format!("{jobs} tables (one a game played at once)"),
        (jobs as u64)
            .saturating_mul(search.table_mib as u64)
            .saturating_mul(limits::MIB),
        4096 * limits::MIB,
    )?;
    let player = player(search, random_plies, seed, max_plies)?;
    let done = played_games(out, &player.made_by)?;
    let to_play: Vec<u64> = (0..games).filter(|index| !done.contains(index)).collect();
    let already = games - to_play.len() as u64;
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .map_err(|error| usage(format!("--out {}: {error}", out.display())))?;
    // Games end in any order when several are played at once; the file gets them in the
    // order of their numbers all the same, so that one command writes one file on any run
    // and with any --jobs (`checkers learn` holds out every fifth game of the file). The
    // games are taken in order, so a game that ends early waits only for the few begun
    // before it: stopped, a run loses only those.
    let lines = Mutex::new(InOrderLines::new(file));
    let bar = progress::bar(to_play.len() as u64, "games");
    let started = Instant::now();
    let ballots = three_move_ballots();
    let tally = Mutex::new(Tally::default());
    work_in_order(
        vec![(); jobs],
        to_play.len(),
        |_, order| {
            let record = play(to_play[order], &ballots, &player, options);
            if let Ok(mut tally) = tally.lock() {
                tally.add(&record);
            }
            bar.inc(1);
            Ok(Some(record.to_json(&player.made_by)))
        },
        &lines,
        |error| usage(format!("--out {}: {error}", out.display())),
    )?;
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    let tally = tally.into_inner().unwrap_or_default();
    if json_output {
        outln!(
            "{}",
            json!({
                "out": out.display().to_string(),
                "made_by": player.made_by,
                "games": games,
                "played": tally.games,
                "already_played": already,
                "black_wins": tally.black_wins,
                "draws": tally.draws,
                "white_wins": tally.white_wins,
                "plies": tally.plies,
                "scored_positions": tally.scored,
                "seconds": seconds,
                "games_per_second": tally.games as f64 / seconds.max(1e-9),
            })
        )?;
    } else {
        outln!("out              {}", out.display())?;
        outln!("made by          {}", player.made_by)?;
        outln!(
            "played           {} ({already} already in the file)",
            tally.games
        )?;
        outln!(
            "results          Black {} / draws {} / White {}",
            tally.black_wins,
            tally.draws,
            tally.white_wins
        )?;
        outln!("plies            {}", tally.plies)?;
        outln!("scored positions {}", tally.scored)?;
        outln!(
            "time             {seconds:.1} s ({:.2} games/s)",
            tally.games as f64 / seconds.max(1e-9)
        )?;
    }
    Ok(Outcome::Found)
}

/// The search the flags ask for, checked as `checkers best` checks them.
fn player(
    search: &SearchArgs,
    random_plies: usize,
    seed: u64,
    max_plies: usize,
) -> Result<Player, CliError> {
    let engine = Engine::from_args(search)?;
    let (budget, limit_text) = match engine.limit {
        Limit::Depth(depth) => (Budget::Depth(depth), format!("depth {depth}")),
        Limit::Time(time) => (Budget::Time(time), format!("time {}", time.as_secs_f64())),
        Limit::Nodes(nodes) => (Budget::Nodes(nodes), format!("max-nodes {nodes}")),
        Limit::Clock(_) => {
            return Err(usage(
                "checkers selfplay takes --depth, --time or --max-nodes",
            ));
        }
    };
    // The techniques are named only when on, so that files made before they could be
    // asked for keep their `made_by` and can be resumed.
    let techniques: String = [
        (engine.history, " --history"),
        (engine.lmr, " --lmr"),
        (engine.extend_recaptures, " --extend-recaptures"),
        (engine.verified_pruning, " --verified-pruning"),
    ]
    .iter()
    .filter(|(on, _)| *on)
    .map(|(_, flag)| *flag)
    .collect();
    let made_by = format!(
        "checkers selfplay --{limit_text} --eval {} --quiescence {} --table-mib {}{}{techniques} \
         --random-plies {random_plies} --seed {seed} --max-plies {max_plies}",
        evaluation_made_by(search.eval.as_deref()),
        engine.quiescence,
        search.table_mib,
        engine
            .endgame
            .as_ref()
            .map_or(String::new(), |endgame| format!(
                " --endgame-pieces {}",
                endgame.pieces()
            )),
    );
    Ok(Player {
        budget,
        quiescence: engine.quiescence,
        table_mib: search.table_mib,
        evaluation: engine.evaluation,
        endgame: engine.endgame,
        history: engine.history,
        late_move_reductions: engine.lmr,
        extend_recaptures: engine.extend_recaptures,
        verified_pruning: engine.verified_pruning,
        made_by,
    })
}

/// How `made_by` names the evaluation: as `--eval` spelled it, but the shipped weights
/// (`learned`, `network`) with a fingerprint of their text, since they change from release
/// to release and a file's games must all be played by the same weights:
/// `learned@1a2b3c4d`. (Files made before the fingerprint say `learned`, round 3's weights:
/// resuming them is refused.)
fn evaluation_made_by(eval: Option<&str>) -> String {
    use gametree::games::checkers::LearnedWeights;
    match eval {
        None => "samuel".to_string(),
        Some(name @ ("learned" | "network")) => {
            let weights = if name == "learned" {
                LearnedWeights::shipped()
            } else {
                LearnedWeights::shipped_network()
            };
            // FNV-1a, 32 bits: stable across builds and platforms, unlike the std hasher.
            let text = weights.to_text("");
            let fingerprint = text.bytes().fold(0x811c_9dc5_u32, |hash, byte| {
                (hash ^ u32::from(byte)).wrapping_mul(0x0100_0193)
            });
            format!("{name}@{fingerprint:08x}")
        }
        Some(other) => other.to_string(),
    }
}

/// The indices of the games already in `out` (none when it does not exist). A last line
/// cut off in the middle (the run was killed while writing it) is removed; a game made with
/// other settings is refused, so that one file holds one kind of game.
fn played_games(out: &Path, made_by: &str) -> Result<BTreeSet<u64>, CliError> {
    let text = match std::fs::read_to_string(out) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(BTreeSet::new()),
        Err(error) => return Err(usage(format!("--out {}: {error}", out.display()))),
    };
    let complete = match text.rfind('\n') {
        Some(end) => &text[..=end],
        None => "",
    };
    if complete.len() < text.len() {
        eprintln!(
            "checkers selfplay: {}: removing a last line cut off in the middle",
            out.display()
        );
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(out)
            .map_err(|error| usage(format!("--out {}: {error}", out.display())))?;
        file.set_len(complete.len() as u64)
            .map_err(|error| usage(format!("--out {}: {error}", out.display())))?;
    }
    let mut done = BTreeSet::new();
    for (number, line) in complete.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let place = format!("{}:{}", out.display(), number + 1);
        let record: Json = serde_json::from_str(line)
            .map_err(|error| usage(format!("{place}: not a game record: {error}")))?;
        let index = record
            .get("index")
            .and_then(Json::as_u64)
            .ok_or_else(|| usage(format!("{place}: no \"index\"")))?;
        let theirs = record.get("made_by").and_then(Json::as_str).unwrap_or("");
        if theirs != made_by {
            return Err(usage(format!(
                "{place}: a game made by `{theirs}`, not `{made_by}`: give another --out"
            )));
        }
        done.insert(index);
    }
    Ok(done)
}

/// Game `index`: its ballot, its random moves, then the search's moves until the game ends
/// by the rules, the endgame databases know its value, or `max_plies` adjudicate a draw.
fn play(
    index: u64,
    ballots: &[gametree::games::checkers::Ballot],
    player: &Player,
    options: &SelfplayOptions,
) -> Record {
    let ballot = &ballots[(index % ballots.len() as u64) as usize];
    let mut game = Checkers::new().with_evaluation(player.evaluation.clone());
    if let Some(endgame) = &player.endgame {
        game = game.with_endgame(endgame.clone());
    }
    let mut moves = Vec::new();
    let mut scores = Vec::new();
    let mut random = SplitMix64::with_stream(options.seed, index);
    let mut legal = Vec::new();
    for &mv in &ballot.moves {
        game.update(mv);
        moves.push(mv);
        scores.push(None);
    }
    let mut table = TranspositionTable::with_mib(player.table_mib);
    let (result, reason) = loop {
        if let Some(result) = game.result() {
            let reason = match result {
                GameResult::Draw => "draw by repetition or the 40-move rule",
                _ => "no move left",
            };
            break (result, reason.to_string());
        }
        if let Some(value) = player
            .endgame
            .as_ref()
            .and_then(|endgame| endgame.probe(game.position()))
        {
            let result = match value {
                EndgameValue::Draw => GameResult::Draw,
                EndgameValue::BlackWins => GameResult::BlackWins,
                EndgameValue::WhiteWins => GameResult::WhiteWins,
            };
            break (result, "the endgame databases' value".to_string());
        }
        if moves.len() >= options.max_plies {
            break (
                GameResult::Draw,
                format!("adjudicated after {} plies", moves.len()),
            );
        }
        let (mv, score) = if moves.len() < ballot.moves.len() + options.random_plies {
            legal.clear();
            game.position().legal_moves(&mut legal);
            (legal[random.below(legal.len() as u64) as usize], None)
        } else {
            searched_move(&mut game, player, &mut table)
        };
        game.update(mv);
        moves.push(mv);
        scores.push(score);
    };
    Record {
        index,
        ballot: ballot.number,
        result,
        reason,
        moves,
        scores,
    }
}

/// The search's move at `game` and its value from Black's side (`None` when no depth was
/// completed in the time).
fn searched_move(
    game: &mut Checkers,
    player: &Player,
    table: &mut TranspositionTable<Move, i32>,
) -> (Move, Option<i32>) {
    game.mark_root();
    let search = Search::new(game)
        .quiescence(player.quiescence)
        .history(player.history)
        .late_move_reductions(player.late_move_reductions)
        .extend_recaptures(player.extend_recaptures)
        .verified_pruning(
            player
                .verified_pruning
                .then(gametree::VerifiedPruning::default),
        )
        .table(table);
    let search = match player.budget {
        Budget::Depth(depth) => search.depth(depth),
        Budget::Time(time) => search.time_limit(time),
        Budget::Nodes(nodes) => search.max_nodes(nodes),
    };
    let result = search.run();
    let mv = result
        .best_move
        .expect("invariant: a game with a result was stopped before its search");
    (mv, result.value)
}

/// The games of this run and their results.
#[derive(Default)]
struct Tally {
    games: u64,
    black_wins: u64,
    draws: u64,
    white_wins: u64,
    plies: u64,
    scored: u64,
}

impl Tally {
    fn add(&mut self, record: &Record) {
        self.games += 1;
        match record.result {
            GameResult::BlackWins => self.black_wins += 1,
            GameResult::WhiteWins => self.white_wins += 1,
            _ => self.draws += 1,
        }
        self.plies += record.moves.len() as u64;
        self.scored += record.scores.iter().flatten().count() as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cut_off_last_line_is_removed_and_other_settings_refused() {
        let directory =
            std::env::temp_dir().join(format!("gametree-selfplay-{}", std::process::id()));
        std::fs::create_dir_all(&directory).unwrap();
        let out = directory.join("games.jsonl");
        std::fs::write(
            &out,
            "{\"index\":3,\"made_by\":\"a\"}\n{\"index\":4,\"made_by\":\"a\"}\n{\"index\":5,\"ma",
        )
        .unwrap();
        let done = played_games(&out, "a").unwrap();
        assert_eq!(done.into_iter().collect::<Vec<_>>(), vec![3, 4]);
        assert!(std::fs::read_to_string(&out).unwrap().ends_with("\"a\"}\n"));
        let Err(CliError::Usage(message)) = played_games(&out, "b") else {
            panic!("games of other settings must be refused");
        };
        assert!(message.contains("give another --out"), "{message}");
        std::fs::remove_dir_all(&directory).unwrap();
    }

    #[test]
    fn the_shipped_weights_are_named_by_their_fingerprint() {
        let shipped = evaluation_made_by(Some("learned"));
        assert!(shipped.starts_with("learned@"), "{shipped}");
        assert_eq!(shipped.len(), "learned@".len() + 8, "{shipped}");
        // The same text, the same name: a run can be resumed by the same build.
        assert_eq!(evaluation_made_by(Some("learned")), shipped);
        assert_eq!(evaluation_made_by(None), "samuel");
        assert_eq!(evaluation_made_by(Some("w.txt")), "w.txt");
        let network = evaluation_made_by(Some("network"));
        assert!(network.starts_with("network@") && network[8..] != shipped[8..]);
    }
}
