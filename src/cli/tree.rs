//! `gametree tree`: minimax, alpha-beta (value, line, proof), aspiration search and
//! Slagle's m&n minimaxing and m&n alpha-beta on an explicit game tree written as an
//! S-expression.

use std::f64::consts::LN_2;
use std::fmt::Write as _;
use std::io::Read as _;
use std::path::PathBuf;

use clap::{Args, ValueEnum};

use gametree::{
    Bound, ExplicitTree, Proof, ProofId, ProofResult, ProofStep, SearchStats, Window,
    alphabeta_line, alphabeta_proof, alphabeta_value, aspiration_value, minimax,
};
use gametree::{Exponents, Player, Slagle, mn_alphabeta, mn_minimax};

use gametree::Claim;
use gametree::search::proof_number::{DfPn, DfPnOptions, DfPnOutcome};

use super::{CliError, Outcome};

/// The transposition table of `prove`, in MiB: a tree's nodes are its positions, and a
/// tree that fits in memory has its searched nodes replaced as needed beyond this.
const PROVE_TABLE_MIB: usize = 16;

/// The arguments of `gametree tree`.
#[derive(Args, Debug)]
pub struct TreeArgs {
    /// The search to run.
    algorithm: Algorithm,
    /// The tree: a file, `-` or nothing for standard input, or the tree itself when it
    /// starts with `(` (or is a number: a tree of one leaf).
    #[arg(value_name = "TREE")]
    file: Option<PathBuf>,
    /// α, the lower end of the window (alphabeta, line, proof); default −∞.
    #[arg(long, allow_hyphen_values = true)]
    alpha: Option<f64>,
    /// β, the upper end of the window (alphabeta, line, proof); default +∞.
    #[arg(long, allow_hyphen_values = true)]
    beta: Option<f64>,
    /// The estimated value aspiration search starts from.
    #[arg(long, allow_hyphen_values = true)]
    guess: Option<f64>,
    /// Half the width of aspiration search's first window; doubled on each re-search.
    #[arg(long, allow_hyphen_values = true)]
    width: Option<f64>,
    /// Print the proof as a Graphviz DOT graph (proof only).
    #[arg(long)]
    dot: bool,
    /// Print the result as one JSON object.
    #[arg(long)]
    json: bool,
    /// m&n: how many of its best successor values a MAX position backs up (default 2).
    #[arg(long)]
    m: Option<usize>,
    /// m&n: how many of its best successor values a MIN position backs up (default 2).
    #[arg(long)]
    n: Option<usize>,
    /// m&n: Slagle's x in a₁ + 2^(x − (a₁ − a₂)·y), MAX's backing up (default 3).
    #[arg(long, allow_hyphen_values = true)]
    x: Option<f64>,
    /// m&n: Slagle's y > 0 (default 1).
    #[arg(long, allow_hyphen_values = true)]
    y: Option<f64>,
    /// m&n: Slagle's r in b₁ − 2^(r − (b₂ − b₁)·s), MIN's backing up (default 3).
    #[arg(long, allow_hyphen_values = true)]
    r: Option<f64>,
    /// m&n: Slagle's s > 0 (default 1).
    #[arg(long, allow_hyphen_values = true)]
    s: Option<f64>,
    /// prove: the claim that the value is at least this (MAX proves it); the default claim
    /// is `--at-least 1`, a win for MAX in a tree whose leaves are 1 (MAX wins) and -1.
    #[arg(
        long,
        value_name = "V",
        allow_hyphen_values = true,
        conflicts_with = "at_most"
    )]
    at_least: Option<f64>,
    /// prove: the claim that the value is at most this (MIN proves it).
    #[arg(long, value_name = "V", allow_hyphen_values = true)]
    at_most: Option<f64>,
}

/// The searches `gametree tree` runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Algorithm {
    /// McCarthy's vmax with movemax: the value and the first best move.
    Minimax,
    /// McCarthy's valmax: the value in the window (α, β).
    Alphabeta,
    /// McCarthy's linemax: the value and the main line.
    Line,
    /// McCarthy's treemax: the value and the proofs pfmax and pfmin.
    Proof,
    /// Alpha-beta in the window guess ± width, re-searched until the value is known.
    Aspiration,
    /// Slagle's m&n minimaxing: MAX backs up its m best successors, MIN its n best.
    MnMinimax,
    /// Slagle's m&n alpha-beta: the move m&n minimaxing chooses, looking at less tree.
    MnAlphabeta,
    /// Depth-first proof-number search (df-pn): proves or disproves a claim on the value
    /// (`--at-least 1` by default: MAX wins), with the proof, or the refutation and what it
    /// proves instead.
    Prove,
}

/// Runs `gametree tree`.
pub fn run(args: &TreeArgs) -> Result<Outcome, CliError> {
    check_options(args)?;
    let window = window(args)?;
    let (name, text) = read_input(args.file.as_deref())?;
    let mut tree =
        ExplicitTree::parse(&text).map_err(|error| CliError::Usage(format!("{name}: {error}")))?;
    // Checked (and warned about) once the tree is known to be one.
    let slagle = slagle(args)?;
    let mut out = Output::new(args.json);
    match args.algorithm {
        Algorithm::Minimax => {
            let result = minimax(&mut tree);
            out.number("value", result.value);
            out.optional_move(result.best_move);
            out.stats(&result.stats, false);
        }
        Algorithm::Alphabeta => {
            let result = alphabeta_value(&mut tree, window);
            out.number("value", result.value);
            out.bound(result.bound);
            out.stats(&result.stats, true);
        }
        Algorithm::Line => {
            let result = alphabeta_line(&mut tree, window);
            out.number("value", result.value);
            out.bound(result.bound);
            let exact = result.bound == Bound::Exact;
            out.optional_move(result.principal_line.first().copied().filter(|_| exact));
            out.line(&result.principal_line);
            out.stats(&result.stats, true);
        }
        Algorithm::Proof => {
            let result = alphabeta_proof(&mut tree, window);
            if args.dot {
                print_out(&result.to_dot(write_move, |out, value| write_number(out, *value)))?;
                return Ok(Outcome::Found);
            }
            out.number("value", result.value);
            out.bound(result.bound);
            out.optional_move(first_move(&result));
            out.proof("pfmax", result.at_least.as_ref());
            out.proof("pfmin", result.at_most.as_ref());
            out.stats(&result.stats, true);
        }
        Algorithm::Aspiration => {
            let result = aspiration_value(
                &mut tree,
                args.guess.unwrap_or(0.0),
                args.width.unwrap_or(1.0),
            );
            out.number("value", result.value);
            out.windows(&result.windows);
            out.stats(&result.stats, true);
        }
        Algorithm::MnMinimax | Algorithm::MnAlphabeta => {
            let slagle = slagle.expect("invariant: built for the m&n algorithms");
            let result = if args.algorithm == Algorithm::MnMinimax {
                mn_minimax(&mut tree, &slagle)
            } else {
                mn_alphabeta(&mut tree, &slagle)
            };
            out.number("value", result.value);
            out.optional_move(result.best_move);
            out.stats(&result.stats, args.algorithm == Algorithm::MnAlphabeta);
        }
        Algorithm::Prove => {
            let claim = match (args.at_least, args.at_most) {
                (_, Some(bound)) => Claim::AtMost(bound),
                (bound, None) => Claim::AtLeast(bound.unwrap_or(1.0)),
            };
            let mut dfpn = DfPn::new(DfPnOptions {
                table_mib: PROVE_TABLE_MIB,
                ..DfPnOptions::default()
            });
            let result = dfpn.prove_with_proof(&mut tree, claim);
            out.claim("claim", Some(claim));
            let outcome = match result.outcome {
                DfPnOutcome::Proven => "proven",
                DfPnOutcome::Disproven => "disproven",
                DfPnOutcome::Unknown => "unknown",
            };
            out.word("outcome", outcome);
            out.claim("refutation", result.refutation);
            out.proof("proof", result.proof.as_ref());
            out.stats(&result.stats, false);
        }
    }
    print_out(&out.finish())?;
    Ok(Outcome::Found)
}

/// Writes `text` to standard output.
fn print_out(text: &str) -> Result<(), CliError> {
    super::output::write(format_args!("{text}"))
}

/// Rejects options that do not apply to the chosen search.
fn check_options(args: &TreeArgs) -> Result<(), CliError> {
    let windowed = matches!(
        args.algorithm,
        Algorithm::Alphabeta | Algorithm::Line | Algorithm::Proof
    );
    let usage = |text: &str| Err(CliError::Usage(text.to_string()));
    if !windowed && (args.alpha.is_some() || args.beta.is_some()) {
        return usage("--alpha and --beta apply to alphabeta, line and proof");
    }
    if args.algorithm != Algorithm::Aspiration && (args.guess.is_some() || args.width.is_some()) {
        return usage("--guess and --width apply to aspiration");
    }
    if args.algorithm != Algorithm::Proof && args.dot {
        return usage("--dot applies to proof");
    }
    if args.algorithm != Algorithm::Prove && (args.at_least.is_some() || args.at_most.is_some()) {
        return usage("--at-least and --at-most apply to prove");
    }
    for (name, value) in [("--at-least", args.at_least), ("--at-most", args.at_most)] {
        if value.is_some_and(f64::is_nan) {
            return Err(CliError::Usage(format!("{name} cannot be NaN")));
        }
    }
    if args.dot && args.json {
        return usage("--dot and --json cannot be used together");
    }
    let m_and_n = matches!(
        args.algorithm,
        Algorithm::MnMinimax | Algorithm::MnAlphabeta
    );
    let parameters = [args.x, args.y, args.r, args.s];
    if !m_and_n && (args.m.is_some() || args.n.is_some() || parameters.iter().any(Option::is_some))
    {
        return usage("--m, --n, --x, --y, --r and --s apply to mn-minimax and mn-alphabeta");
    }
    for (name, value) in [("--guess", args.guess), ("--width", args.width)] {
        if value.is_some_and(|value| !value.is_finite()) {
            return Err(CliError::Usage(format!("{name} must be a finite number")));
        }
    }
    if args.width.is_some_and(|width| width <= 0.0) {
        return usage("--width must be positive");
    }
    Ok(())
}

/// The most values `--m` or `--n` may back up. A position backs up every value it is given
/// room for (padded with the worst value), so a count in the billions would ask for that
/// much memory at every position; more than this many successors is no real tree.
const MOST_BACKED_UP: usize = 65_536;

/// Slagle's backing-up functions from `--m --n --x --y --r --s` (defaults 2, 2, 3, 1, 3, 1:
/// the seed's examples), for the m&n algorithms; a warning on stderr when they break
/// Slagle's monotonicity condition.
fn slagle(args: &TreeArgs) -> Result<Option<Slagle>, CliError> {
    if !matches!(
        args.algorithm,
        Algorithm::MnMinimax | Algorithm::MnAlphabeta
    ) {
        return Ok(None);
    }
    let usage = |error: gametree::BackingUpError| CliError::Usage(error.to_string());
    let max = Exponents::new(args.x.unwrap_or(3.0), args.y.unwrap_or(1.0)).map_err(usage)?;
    let min = Exponents::new(args.r.unwrap_or(3.0), args.s.unwrap_or(1.0)).map_err(usage)?;
    for (name, count) in [("--m", args.m), ("--n", args.n)] {
        if count.is_some_and(|count| count > MOST_BACKED_UP) {
            return Err(CliError::Usage(format!(
                "{name} must be at most {MOST_BACKED_UP}, got {}",
                count.unwrap_or_default()
            )));
        }
    }
    let slagle = Slagle::new(args.m.unwrap_or(2), args.n.unwrap_or(2), max, min).map_err(usage)?;
    for (player, _) in slagle.monotonicity_violations() {
        let (count, exponents, names) = match player {
            Player::Max => (args.m.unwrap_or(2), max, ("m", "x", "y")),
            Player::Min => (args.n.unwrap_or(2), min, ("n", "r", "s")),
        };
        let product = (count - 1) as f64 * exponents.slope * exponents.shift.exp2() * LN_2;
        let (count_name, shift_name, slope_name) = names;
        eprintln!(
            "gametree: warning: {player}'s backing-up function is not monotone: \
             ({count_name} − 1)·{slope_name}·2^{shift_name}·ln 2 = {product:.3} > 1 \
             (Slagle's theorem), so a better best successor can lower the backed-up value"
        );
    }
    Ok(Some(slagle))
}

/// The window from `--alpha` and `--beta`.
fn window(args: &TreeArgs) -> Result<Window<f64>, CliError> {
    let alpha = args.alpha.unwrap_or(f64::NEG_INFINITY);
    let beta = args.beta.unwrap_or(f64::INFINITY);
    if alpha.is_nan() || beta.is_nan() {
        return Err(CliError::Usage("--alpha and --beta cannot be NaN".into()));
    }
    if alpha >= beta {
        return Err(CliError::Usage(format!(
            "--alpha ({alpha}) must be less than --beta ({beta})"
        )));
    }
    Ok(Window::new(alpha, beta))
}

/// The input's name for messages, and its text.
fn read_input(file: Option<&std::path::Path>) -> Result<(String, String), CliError> {
    // The tree itself when it starts with `(`, or when it is a number (a one-leaf tree)
    // and no file has that name.
    if let Some(text) = file.and_then(|path| path.to_str()).filter(|text| {
        text.trim_start().starts_with('(')
            || (text.trim().parse::<f64>().is_ok() && !std::path::Path::new(text).exists())
    }) {
        return Ok(("the tree".to_string(), text.to_string()));
    }
    match file {
        Some(path) if path.as_os_str() != "-" => {
            let name = path.display().to_string();
            std::fs::read_to_string(path)
                .map(|text| (name.clone(), text))
                .map_err(|error| CliError::Usage(format!("cannot read {name}: {error}")))
        }
        _ => {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .map_err(|error| CliError::Usage(format!("cannot read standard input: {error}")))?;
            Ok(("<stdin>".to_string(), text))
        }
    }
}

/// The first best root child, when the value is exact: pfmax's first move.
fn first_move(result: &ProofResult<usize, f64>) -> Option<usize> {
    if result.bound != Bound::Exact {
        return None;
    }
    let proof = result.at_least.as_ref()?;
    match proof.step(proof.root()) {
        ProofStep::Choice(mv, _) => Some(*mv),
        _ => None,
    }
}

fn write_move(out: &mut String, mv: &usize) {
    let _ = write!(out, "{mv}");
}

/// A number as it reads naturally: `3` (not `3.0`), `-2.5`, `inf`.
fn write_number(out: &mut String, value: f64) {
    let _ = write!(out, "{value}");
}

/// A number in JSON: as [`write_number`], but ±∞ (never a tree's value, only a window's
/// end) as `null`, since JSON has no infinities.
fn json_number(out: &mut String, value: f64) {
    if value.is_finite() {
        write_number(out, value);
    } else {
        out.push_str("null");
    }
}

/// A proof as JSON: the seed's S-expression with its parentheses written as arrays (a
/// terminal `<v>` is `[v]`, `mv . pf` is `[mv, ...pf]`, a list of replies an array of
/// those). Iterative, so any depth prints.
fn proof_json(proof: &Proof<usize, f64>) -> String {
    enum Token {
        /// The inside of a step's array, without its brackets.
        Contents(ProofId),
        Move(usize),
        Text(&'static str),
    }
    let is_empty_list =
        |id: ProofId| matches!(proof.step(id), ProofStep::Replies(replies) if replies.is_empty());
    let mut out = String::from("[");
    let mut pending = vec![Token::Text("]"), Token::Contents(proof.root())];
    while let Some(token) = pending.pop() {
        match token {
            Token::Text(text) => out.push_str(text),
            Token::Move(mv) => write_move(&mut out, &mv),
            Token::Contents(id) => match proof.step(id) {
                ProofStep::Terminal(value) => json_number(&mut out, *value),
                ProofStep::Choice(mv, next) => {
                    write_move(&mut out, mv);
                    if !is_empty_list(*next) {
                        pending.push(Token::Contents(*next));
                        pending.push(Token::Text(","));
                    }
                }
                ProofStep::Replies(replies) => {
                    for (index, &(mv, reply)) in replies.iter().enumerate().rev() {
                        pending.push(Token::Text("]"));
                        if !is_empty_list(reply) {
                            pending.push(Token::Contents(reply));
                            pending.push(Token::Text(","));
                        }
                        pending.push(Token::Move(mv));
                        pending.push(Token::Text("["));
                        if index > 0 {
                            pending.push(Token::Text(","));
                        }
                    }
                }
            },
        }
    }
    out
}

/// The result, as `key: value` lines or as one compact JSON object (as `serde_json` writes
/// one). Written by hand rather than through `serde_json::Value`, whose drop and printing
/// recurse: a proof 100,000 levels deep must print.
struct Output {
    json: bool,
    text: String,
}

impl Output {
    fn new(json: bool) -> Self {
        Output {
            json,
            text: String::new(),
        }
    }

    fn key(&mut self, key: &str) {
        if self.json {
            self.text
                .push_str(if self.text.is_empty() { "{" } else { "," });
            let _ = write!(self.text, "\"{key}\":");
        } else {
            let _ = write!(self.text, "{key}: ");
        }
    }

    fn end_line(&mut self) {
        if !self.json {
            self.text.push('\n');
        }
    }

    fn number(&mut self, key: &str, value: f64) {
        self.key(key);
        if self.json {
            json_number(&mut self.text, value);
        } else {
            write_number(&mut self.text, value);
        }
        self.end_line();
    }

    fn word(&mut self, key: &str, word: &str) {
        self.key(key);
        if self.json {
            let _ = write!(self.text, "\"{word}\"");
        } else {
            self.text.push_str(word);
        }
        self.end_line();
    }

    /// A claim: `value ≥ 1` in text, `{"at_least":1}` in JSON; `none`/`null` when absent.
    fn claim(&mut self, key: &str, claim: Option<Claim<f64>>) {
        self.key(key);
        match claim {
            None => self.text.push_str(if self.json { "null" } else { "none" }),
            Some(claim) if self.json => {
                let (name, value) = match claim {
                    Claim::AtLeast(value) => ("at_least", value),
                    Claim::AtMost(value) => ("at_most", value),
                };
                let _ = write!(self.text, "{{\"{name}\":");
                json_number(&mut self.text, value);
                self.text.push('}');
            }
            Some(claim) => {
                let (sign, value) = match claim {
                    Claim::AtLeast(value) => ("≥", value),
                    Claim::AtMost(value) => ("≤", value),
                };
                let _ = write!(self.text, "value {sign} ");
                write_number(&mut self.text, value);
            }
        }
        self.end_line();
    }

    fn count(&mut self, key: &str, value: u64) {
        self.key(key);
        let _ = write!(self.text, "{value}");
        self.end_line();
    }

    fn bound(&mut self, bound: Bound) {
        self.key("bound");
        let (name, meaning) = match bound {
            Bound::Exact => ("exact", ""),
            Bound::Upper => ("upper", " (failed low: the value is at most this)"),
            Bound::Lower => ("lower", " (failed high: the value is at least this)"),
        };
        if self.json {
            let _ = write!(self.text, "\"{name}\"");
        } else {
            let _ = write!(self.text, "{name}{meaning}");
        }
        self.end_line();
    }

    fn optional_move(&mut self, mv: Option<usize>) {
        self.key("move");
        match mv {
            Some(mv) => write_move(&mut self.text, &mv),
            None => self.text.push_str(if self.json { "null" } else { "none" }),
        }
        self.end_line();
    }

    fn line(&mut self, line: &[usize]) {
        self.key("line");
        let separator = if self.json { "," } else { " " };
        if self.json {
            self.text.push('[');
        }
        for (index, mv) in line.iter().enumerate() {
            if index > 0 {
                self.text.push_str(separator);
            }
            write_move(&mut self.text, mv);
        }
        if self.json {
            self.text.push(']');
        }
        self.end_line();
    }

    fn proof(&mut self, key: &str, proof: Option<&Proof<usize, f64>>) {
        self.key(key);
        match proof {
            Some(proof) if self.json => self.text.push_str(&proof_json(proof)),
            Some(proof) => self
                .text
                .push_str(&proof.to_sexpr(write_move, |out, value| {
                    write_number(out, *value);
                })),
            None => self.text.push_str(if self.json { "null" } else { "NIL" }),
        }
        self.end_line();
    }

    fn windows(&mut self, windows: &[Window<f64>]) {
        self.key("windows");
        if self.json {
            self.text.push('[');
        }
        for (index, window) in windows.iter().enumerate() {
            if index > 0 {
                self.text.push_str(if self.json { "," } else { " " });
            }
            if self.json {
                self.text.push('[');
                json_number(&mut self.text, window.alpha);
                self.text.push(',');
                json_number(&mut self.text, window.beta);
                self.text.push(']');
            } else {
                let _ = write!(self.text, "({}, {})", window.alpha, window.beta);
            }
        }
        if self.json {
            self.text.push(']');
        }
        self.end_line();
    }

    fn stats(&mut self, stats: &SearchStats, with_cutoffs: bool) {
        self.count("leaves", stats.leaves);
        self.count("nodes", stats.nodes);
        if with_cutoffs {
            self.count("cutoffs", stats.cutoffs);
        }
    }

    fn finish(mut self) -> String {
        if self.json {
            self.text.push_str("}\n");
        }
        self.text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proofs_print_as_json_arrays_like_the_issue_example() {
        let mut tree = ExplicitTree::parse("((3 5) (2 9))").expect("well formed");
        let result = alphabeta_proof(&mut tree, Window::full());
        let pfmax = result.at_least.as_ref().expect("exact");
        let pfmin = result.at_most.as_ref().expect("exact");
        assert_eq!(proof_json(pfmax), "[1,[2,5],[1,3]]");
        assert_eq!(proof_json(pfmin), "[[2,1,2],[1,1,3]]");
        assert_eq!(proof_json(&Proof::terminal(2.5)), "[2.5]");
    }

    #[test]
    fn an_empty_list_of_replies_prints_as_the_move_alone() {
        let proof = Proof::from_steps(
            vec![
                ProofStep::Choice(4, ProofId::new(1)),
                ProofStep::Replies(Vec::new()),
            ],
            ProofId::new(0),
        )
        .expect("a tree");
        assert_eq!(proof_json(&proof), "[4]");
    }
}
