//! `gametree insanity`: Instant Insanity by McCarthy's `search` (seeds 000 and 001) or by
//! the opposite-face multigraph.

use clap::{Args, ValueEnum};
use gametree::puzzles::instant_insanity::{
    PUZZ1, Puzzle, Repr, Tower, solutions, solve, solve_by_graph,
};
use serde_json::{Value, json};

use super::output::outln;
use super::{CliError, Outcome};

/// Arguments of `gametree insanity`.
#[derive(Args, Debug)]
pub struct InsanityArgs {
    /// The cubes, six colour letters each: the top, the four sides clockwise, the bottom.
    /// As many colours as cubes. [default: McCarthy's GBBWRG GGBGWR GWWRBR GGRBWW]
    #[arg(value_name = "CUBE")]
    cubes: Vec<String>,
    /// How the tree search represents a partial tower: lists of colours, or bit words
    /// combined with bool-and and bool-or (the seed's faster version). [default: bits]
    #[arg(long, value_enum)]
    repr: Option<ReprArg>,
    /// Search the tree of cube orientations, or use the opposite-face multigraph.
    #[arg(long, value_enum, default_value_t = Method::Tree)]
    method: Method,
    /// Print every solution (the first cube in one of its three searched orientations),
    /// then `N solutions`. Tree method only.
    #[arg(long)]
    all: bool,
    /// Print one JSON object: {"solution": [[...], ...] | null, "solutions": N (with
    /// --all), "expanded": N}.
    #[arg(long)]
    json: bool,
}

/// `--repr`: the seed's two representations.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum ReprArg {
    /// Four lists of colours, one per tower face.
    List,
    /// One bit per face and colour in a word.
    Bits,
}

/// `--method`: how to solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Method {
    /// McCarthy's depth-first search over cube orientations.
    Tree,
    /// Two edge-disjoint 2-regular subgraphs of the opposite-face multigraph.
    Graph,
}

/// Runs `gametree insanity`: prints the first solution in the seed's notation (or every
/// one with `--all`), or `no solution` with exit status 1.
pub fn run(args: InsanityArgs) -> Result<Outcome, CliError> {
    let puzzle = if args.cubes.is_empty() {
        Puzzle::new(&PUZZ1)
    } else {
        Puzzle::new(&args.cubes)
    }
    .map_err(|error| CliError::Usage(error.to_string()))?;
    if args.method == Method::Graph {
        if args.all {
            return Err(CliError::Usage(
                "--all needs --method tree: the graph method finds one solution".to_string(),
            ));
        }
        if args.repr.is_some() {
            return Err(CliError::Usage(
                "--repr needs --method tree: the graph method has no positions to represent"
                    .to_string(),
            ));
        }
    }
    let repr = match args.repr {
        Some(ReprArg::List) => Repr::List,
        Some(ReprArg::Bits) | None => Repr::Bits,
    };
    let (first, count, expanded) = if args.all {
        let mut all = solutions(&puzzle, repr);
        let mut first = None;
        let mut count: u64 = 0;
        for tower in all.by_ref() {
            count += 1;
            if !args.json {
                outln!("{tower}")?;
            }
            first.get_or_insert(tower);
        }
        (first, Some(count), all.stats().expanded)
    } else {
        let outcome = match args.method {
            Method::Tree => solve(&puzzle, repr),
            Method::Graph => solve_by_graph(&puzzle),
        };
        (outcome.solution, None, outcome.stats.expanded)
    };
    let found = first.is_some();
    if args.json {
        let mut document = json!({ "solution": first.as_ref().map_or(Value::Null, faces) });
        if let Some(count) = count {
            document["solutions"] = json!(count);
        }
        document["expanded"] = json!(expanded);
        outln!("{document}")?;
    } else if !found {
        outln!("no solution")?;
    } else if let Some(count) = count {
        outln!("{count} solutions")?;
    } else if let Some(tower) = &first {
        outln!("{tower}")?;
    }
    Ok(if found {
        Outcome::Found
    } else {
        Outcome::NotFound
    })
}

/// A tower's faces as JSON: four arrays of one-letter strings, newest cube first.
fn faces(tower: &Tower) -> Value {
    Value::Array(
        tower
            .faces()
            .iter()
            .map(|face| Value::Array(face.iter().map(|c| Value::String(c.to_string())).collect()))
            .collect(),
    )
}
