//! The three search families graded against perfect play at matched costs (issue 19,
//! part 4): on positions whose every move has an exact value, the share of moves each
//! engine chooses that keep the exact value, and the share that keep the outcome (a win a
//! win, a draw a draw), against the time it takes a move.
//!
//! - **MCTS**: UCT with MCTS-Solver and uniformly random playouts (Connect Four's
//!   `RandomColumns`), 10 to 10⁶ playouts a move; on Connect Four also on two threads by
//!   root parallelism (`RootParallel`), the playouts shared out, to see whether it pays
//!   at equal time a move; on tic-tac-toe also without MCTS-Solver (plain UCT).
//! - **alpha-beta**: depth-limited alpha-beta with the game's evaluation at the horizon,
//!   1 ply and deeper (McCarthy's tic-tac-toe guess, Connect Four's
//!   [`ConnectFour::estimate`], Kalah's store difference).
//! - **2&2**: Slagle's m&n alpha-beta at the same depths, with the functions learned on
//!   Kalah (`results/kalah-slagle`) and, on tic-tac-toe and Connect Four, where none were
//!   learned, Slagle's family scaled to the evaluation (see [`CONNECT_FOUR_TWO_AND_TWO`]).
//! - **solver** (Connect Four): the null-window solver within a budget of positions a
//!   move, the move with the best proven bounds, as `gametree connect4 best` plays.
//!
//! The sets: every tenth position of the full tic-tac-toe that is not over; the first
//! positions of two of Pascal Pons' benchmark files (Test_L1_R1, the beginning of the
//! game, and Test_L2_R2, the middle game), every move solved by the solver; the first
//! positions of the Kalah(6, 4) experiment's graded set, with the solver's values that
//! experiment stored. Each budget row is appended to `results/engine-grading/grades.csv`
//! as it is done, so a run stopped part way goes on where it stopped; the charts
//! (`<set>.svg`) are drawn from the file at the end. An engine's next budget is run only
//! while its last took at most [`DEEPER_WHILE_MS`] a move.
//!
//! ```text
//! cargo run --release --example graded_engines [POSITIONS_PER_SET]
//! ```
//! (100 positions a set by default; tic-tac-toe always takes its 452.)

use std::collections::HashSet;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;
use std::time::Instant;

use gametree::experiment::{
    FitRow, KalahExperiment, KalahPosition, PositionGrades, ResultsDir, functions_so_far,
};
use gametree::games::connect_four::{EvaluatedConnectFour, RandomColumns};
use gametree::search::mcts::{Budget, MctsOptions, PlayoutPolicy, RootParallel, UniformPlayouts};
use gametree::{
    ConnectFour, Evaluate, Exponents, FloatValued, Game, Kalah, Player, SimpleTicTacToe, Slagle,
    SolveOptions, Solver, Window, depth_limited_line, minimax_value, mn_alphabeta_depth,
};
use plotters::prelude::*;

/// Where the rows and charts go.
const OUT: &str = "results/engine-grading";
/// An engine's next budget is tried while its last took at most this many ms a move.
const DEEPER_WHILE_MS: f64 = 250.0;
/// Playouts a move.
const PLAYOUTS: [u64; 6] = [10, 100, 1_000, 10_000, 100_000, 1_000_000];
/// Positions a move for the Connect Four solver.
const SOLVER_NODES: [u64; 5] = [100, 1_000, 10_000, 100_000, 1_000_000];

/// Connect Four's 2&2, where nothing was learned: Slagle's v = a₂ + 2^(x − (a₂ − α)·y)
/// with the bonus at most 2⁻³ (an eighth of the distance from an even position to the
/// latest win) and halved for every quarter of a point of gap; monotone
/// (y·2^x·ln 2 = 0.35 ≤ 1), so m&n alpha-beta keeps all of 1&1's cutoffs.
const CONNECT_FOUR_TWO_AND_TWO: (f64, f64) = (-3.0, 4.0);
/// Tic-tac-toe's 2&2: values −1, 0, 1, so a bonus of at most a quarter point, halved every
/// half point of gap (y·2^x·ln 2 = 0.35).
const TIC_TAC_TOE_TWO_AND_TWO: (f64, f64) = (-2.0, 2.0);

/// A position with every move's exact value from the side of the player to move.
struct Graded<G: Game> {
    game: G,
    exact: Vec<(G::Move, i32)>,
}

/// One budget of one engine on one set.
struct Row {
    set: String,
    engine: String,
    budget: u64,
    positions: usize,
    value_kept: f64,
    outcome_kept: f64,
    ms_per_move: f64,
    work_per_move: f64,
}

impl Row {
    const HEADER: &'static str =
        "set,engine,budget,positions,value_kept,outcome_kept,ms_per_move,work_per_move";

    fn to_csv(&self) -> String {
        format!(
            "{},{},{},{},{:.4},{:.4},{:.4},{:.1}",
            self.set,
            self.engine,
            self.budget,
            self.positions,
            self.value_kept,
            self.outcome_kept,
            self.ms_per_move,
            self.work_per_move
        )
    }

    fn from_csv(line: &str) -> Option<Row> {
        let fields: Vec<&str> = line.split(',').collect();
        if fields.len() != 8 {
            return None;
        }
        Some(Row {
            set: fields[0].to_string(),
            engine: fields[1].to_string(),
            budget: fields[2].parse().ok()?,
            positions: fields[3].parse().ok()?,
            value_kept: fields[4].parse().ok()?,
            outcome_kept: fields[5].parse().ok()?,
            ms_per_move: fields[6].parse().ok()?,
            work_per_move: fields[7].parse().ok()?,
        })
    }
}

/// The rows file: read what is done, append what is new.
struct Rows {
    path: std::path::PathBuf,
    done: Vec<Row>,
}

impl Rows {
    fn open() -> std::io::Result<Rows> {
        std::fs::create_dir_all(OUT)?;
        let path = Path::new(OUT).join("grades.csv");
        let done = match std::fs::read_to_string(&path) {
            Ok(text) => text.lines().skip(1).filter_map(Row::from_csv).collect(),
            Err(_) => {
                std::fs::write(&path, format!("{}\n", Row::HEADER))?;
                Vec::new()
            }
        };
        Ok(Rows { path, done })
    }

    fn find(&self, set: &str, engine: &str, budget: u64) -> Option<&Row> {
        self.done
            .iter()
            .find(|row| row.set == set && row.engine == engine && row.budget == budget)
    }

    fn add(&mut self, row: Row) -> std::io::Result<()> {
        let mut file = std::fs::OpenOptions::new().append(true).open(&self.path)?;
        writeln!(file, "{}", row.to_csv())?;
        println!(
            "{:<12} {:<12} {:>8}  value {:>5.1}%  outcome {:>5.1}%  {:>9.3} ms  {:>11.0} a move",
            row.set,
            row.engine,
            row.budget,
            100.0 * row.value_kept,
            100.0 * row.outcome_kept,
            row.ms_per_move,
            row.work_per_move
        );
        self.done.push(row);
        Ok(())
    }
}

/// Grades `engine` (a move and the work it did: playouts or positions) on every position
/// of `set`, for each budget in turn while the last took at most [`DEEPER_WHILE_MS`].
fn grade_engine<G: Game + Clone>(
    rows: &mut Rows,
    set: &str,
    positions: &[Graded<G>],
    engine: &str,
    budgets: &[u64],
    mut choose: impl FnMut(usize, &mut G, u64) -> (G::Move, u64),
) -> std::io::Result<()> {
    for &budget in budgets {
        let ms = match rows.find(set, engine, budget) {
            Some(row) => row.ms_per_move,
            None => {
                let (mut value_kept, mut outcome_kept, mut work) = (0usize, 0usize, 0u64);
                let started = Instant::now();
                for (index, position) in positions.iter().enumerate() {
                    let mut game = position.game.clone();
                    let (mv, did) = choose(index, &mut game, budget);
                    work += did;
                    let best = position.exact.iter().map(|&(_, v)| v).max().unwrap_or(0);
                    let value = position
                        .exact
                        .iter()
                        .find(|&&(candidate, _)| candidate == mv)
                        .map_or(i32::MIN, |&(_, v)| v);
                    value_kept += usize::from(value == best);
                    outcome_kept += usize::from(value.signum() == best.signum());
                }
                let count = positions.len().max(1) as f64;
                let row = Row {
                    set: set.to_string(),
                    engine: engine.to_string(),
                    budget,
                    positions: positions.len(),
                    value_kept: value_kept as f64 / count,
                    outcome_kept: outcome_kept as f64 / count,
                    ms_per_move: started.elapsed().as_secs_f64() * 1000.0 / count,
                    work_per_move: work as f64 / count,
                };
                let ms = row.ms_per_move;
                rows.add(row)?;
                ms
            }
        };
        if ms > DEEPER_WHILE_MS {
            break;
        }
    }
    Ok(())
}

/// MCTS's move with `playouts` playouts on `threads` threads (root parallelism; one thread
/// is the plain search), seeded by the position's index.
fn mcts_move<G, P>(
    (policy, solver, threads): (P, bool, usize),
    index: usize,
    game: &mut G,
    playouts: u64,
) -> (G::Move, u64)
where
    G: Game + Clone + Send,
    G::Move: Send,
    G::Value: Into<f64>,
    P: PlayoutPolicy<G> + Clone + Send,
{
    let options = MctsOptions {
        seed: index as u64,
        solver,
        ..MctsOptions::default()
    };
    let result = RootParallel::with_policy(options, policy, threads)
        .search(game, Budget::Playouts(playouts));
    (
        result.best_move.expect("graded positions have moves"),
        result.playouts,
    )
}

/// Depth-limited alpha-beta's move: the first of its principal line.
fn alpha_beta_move<G: Game + Evaluate>(game: &mut G, depth: u64) -> (G::Move, u64) {
    let depth = u32::try_from(depth).expect("small depths");
    let result = depth_limited_line(game, depth, Window::full());
    (
        *result
            .principal_line
            .first()
            .expect("graded positions have moves"),
        result.stats.nodes,
    )
}

/// m&n alpha-beta's move.
fn two_and_two_move<G: Game<Value = f64> + Evaluate>(
    game: &mut G,
    functions: &Slagle,
    depth: u64,
) -> (G::Move, u64) {
    let depth = u32::try_from(depth).expect("small depths");
    let result = mn_alphabeta_depth(game, functions, depth);
    (
        result.best_move.expect("graded positions have moves"),
        result.stats.nodes,
    )
}

/// Alpha-beta with the game's evaluation and 2&2 with `functions`, depths 1 to
/// `most_depth`, on a game with integer values (seen as `f64` by m&n).
fn grade_depth_limited<G>(
    rows: &mut Rows,
    name: &str,
    set: &[Graded<G>],
    most_depth: u64,
    functions: &Slagle,
) -> std::io::Result<()>
where
    G: Game<Value = i32> + Evaluate + Clone,
{
    let depths: Vec<u64> = (1..=most_depth).collect();
    grade_engine(rows, name, set, "alpha-beta", &depths, |_, game, depth| {
        alpha_beta_move(game, depth)
    })?;
    grade_engine(rows, name, set, "2&2", &depths, |_, game, depth| {
        two_and_two_move(&mut FloatValued(game), functions, depth)
    })
}

/// 2&2 with the same (x, y) for both players at every depth.
fn slagle_two_and_two((shift, slope): (f64, f64)) -> Slagle {
    let exponents = Exponents::new(shift, slope).expect("finite exponents, positive slope");
    Slagle::new(2, 2, exponents, exponents).expect("2&2")
}

/// A value to MAX seen from `player`'s side.
fn for_player(player: Player, value: i32) -> i32 {
    match player {
        Player::Max => value,
        Player::Min => -value,
    }
}

/// Every tenth position of the full tic-tac-toe that is not over (in a fixed order), with
/// each move's minimax value.
fn tic_tac_toe_set() -> Vec<Graded<SimpleTicTacToe>> {
    let mut seen = HashSet::new();
    let mut all = Vec::new();
    let mut pending = vec![SimpleTicTacToe::new()];
    let mut moves = Vec::new();
    while let Some(game) = pending.pop() {
        if game.is_terminal() || !seen.insert(game) {
            continue;
        }
        moves.clear();
        game.successors(&mut moves);
        for &mv in &moves {
            let mut next = game;
            next.update(mv);
            pending.push(next);
        }
        all.push(game);
    }
    all.into_iter()
        .step_by(10)
        .map(|game| {
            let player = game.to_move();
            let mut moves = Vec::new();
            game.successors(&mut moves);
            let exact = moves
                .into_iter()
                .map(|mv| {
                    let mut next = game;
                    next.update(mv);
                    (mv, for_player(player, minimax_value(&mut next)))
                })
                .collect();
            Graded { game, exact }
        })
        .collect()
}

/// The first `count` positions of a benchmark file, every move solved.
fn connect_four_set(file: &str, count: usize) -> Vec<Graded<ConnectFour>> {
    let text = std::fs::read_to_string(file).expect("the benchmark files are in data/");
    let mut solver = Solver::new(SolveOptions::default());
    text.lines()
        .take(count)
        .map(|line| {
            let moves = line.split_whitespace().next().unwrap_or_default();
            let mut game = ConnectFour::from_moves(moves).expect("legal benchmark moves");
            let exact = solver
                .analyze(&mut game)
                .into_iter()
                .map(|(column, solution)| (column, solution.score))
                .collect();
            Graded { game, exact }
        })
        .collect()
}

/// The first `count` positions of the Kalah experiment's graded set, with the values its
/// solver stored, and the 2&2 functions it learned.
fn kalah_set(count: usize) -> (Vec<Graded<Kalah>>, Slagle) {
    let dir = ResultsDir::new("results/kalah-slagle");
    let rules = KalahExperiment::standard().rules;
    let text = std::fs::read_to_string(dir.file("grading-positions.txt"))
        .expect("the Kalah experiment's results are in results/");
    let grades: Vec<PositionGrades> = dir.read_jsonl("grades.jsonl").expect("readable grades");
    let positions = text
        .lines()
        .zip(&grades)
        .take(count)
        .map(|(line, graded)| {
            let game = KalahPosition::from_notation(line)
                .expect("stored positions parse")
                .game(rules);
            let mut moves = Vec::new();
            game.successors(&mut moves);
            assert_eq!(
                moves.len(),
                graded.exact.len(),
                "stored values, move for move"
            );
            Graded {
                game,
                exact: moves
                    .into_iter()
                    .zip(graded.exact.iter().copied())
                    .collect(),
            }
        })
        .collect();
    let fits: Vec<FitRow> = dir
        .read_json("fits.json")
        .expect("readable fits")
        .expect("the experiment's fits");
    let fitted: Vec<(u32, Exponents)> = fits
        .iter()
        .map(|row| {
            let exponents = Exponents::new(row.fit.shift, row.fit.slope).expect("fitted");
            (row.dmax, exponents)
        })
        .collect();
    (positions, functions_so_far(&fitted))
}

/// The Connect Four solver's move within `max_nodes` positions a move considered: the
/// greater proven lower bound, then upper bound, then the earlier successor (`connect4
/// best`, whose chooser is the CLI's own, breaks that last tie towards the centre).
fn solver_move(
    solver: &mut Solver<ConnectFour>,
    game: &mut ConnectFour,
    max_nodes: u64,
) -> (u8, u64) {
    solver.clear();
    let mut moves = Vec::new();
    game.successors(&mut moves);
    let mut best: Option<(u8, (i32, i32))> = None;
    let mut nodes = 0;
    for column in moves {
        game.update(column);
        // The successor's score is the opponent's: negate and swap the bounds.
        let bounds = match solver.solve_within(game, max_nodes) {
            Ok(solution) => {
                nodes += solution.stats.nodes;
                (-solution.score, -solution.score)
            }
            Err(unsolved) => {
                nodes += unsolved.stats.nodes;
                (-unsolved.at_most, -unsolved.at_least)
            }
        };
        game.revert(column);
        if best.is_none_or(|(_, best_bounds)| bounds > best_bounds) {
            best = Some((column, bounds));
        }
    }
    (best.map_or(0, |(column, _)| column), nodes)
}

fn main() -> std::io::Result<()> {
    let per_set: usize = std::env::args()
        .nth(1)
        .and_then(|text| text.parse().ok())
        .unwrap_or(100);
    let mut rows = Rows::open()?;
    let depths = |most: u64| (1..=most).collect::<Vec<u64>>();

    let set = tic_tac_toe_set();
    let name = "tic-tac-toe";
    let functions = slagle_two_and_two(TIC_TAC_TOE_TWO_AND_TWO);
    grade_engine(
        &mut rows,
        name,
        &set,
        "mcts",
        &PLAYOUTS,
        |index, game, playouts| mcts_move((UniformPlayouts, true, 1), index, game, playouts),
    )?;
    grade_engine(
        &mut rows,
        name,
        &set,
        "uct",
        &PLAYOUTS,
        |index, game, playouts| mcts_move((UniformPlayouts, false, 1), index, game, playouts),
    )?;
    grade_depth_limited(&mut rows, name, &set, 9, &functions)?;

    let functions = slagle_two_and_two(CONNECT_FOUR_TWO_AND_TWO);
    let mut solver = Solver::new(SolveOptions {
        table_mib: 16,
        ..SolveOptions::default()
    });
    for (name, file) in [
        ("c4-L1_R1", "data/connect4/Test_L1_R1"),
        ("c4-L2_R2", "data/connect4/Test_L2_R2"),
    ] {
        let set = connect_four_set(file, per_set);
        grade_engine(
            &mut rows,
            name,
            &set,
            "mcts",
            &PLAYOUTS[1..],
            |index, game, playouts| mcts_move((RandomColumns, true, 1), index, game, playouts),
        )?;
        grade_engine(
            &mut rows,
            name,
            &set,
            "mcts-2-threads",
            &PLAYOUTS[1..],
            |index, game, playouts| mcts_move((RandomColumns, true, 2), index, game, playouts),
        )?;
        grade_engine(
            &mut rows,
            name,
            &set,
            "alpha-beta",
            &depths(16),
            |_, game, depth| alpha_beta_move(&mut EvaluatedConnectFour(*game), depth),
        )?;
        grade_engine(
            &mut rows,
            name,
            &set,
            "2&2",
            &depths(16),
            |_, game, depth| two_and_two_move(&mut EvaluatedConnectFour(*game), &functions, depth),
        )?;
        grade_engine(
            &mut rows,
            name,
            &set,
            "solver",
            &SOLVER_NODES,
            |_, game, nodes| solver_move(&mut solver, game, nodes),
        )?;
    }

    let (set, functions) = kalah_set(per_set);
    let name = "kalah-6-4";
    grade_engine(
        &mut rows,
        name,
        &set,
        "mcts",
        &PLAYOUTS[1..],
        |index, game, playouts| mcts_move((UniformPlayouts, true, 1), index, game, playouts),
    )?;
    grade_depth_limited(&mut rows, name, &set, 24, &functions)?;

    for set in ["tic-tac-toe", "c4-L1_R1", "c4-L2_R2", "kalah-6-4"] {
        let path = Path::new(OUT).join(format!("{set}.svg"));
        draw_chart(&path, set, &rows.done).map_err(std::io::Error::other)?;
    }
    Ok(())
}

/// The engines' colours, in the order of the legend.
const ENGINES: [(&str, RGBColor); 6] = [
    ("mcts", RGBColor(214, 39, 40)),
    ("uct", RGBColor(140, 86, 75)),
    ("mcts-2-threads", RGBColor(255, 127, 14)),
    ("alpha-beta", RGBColor(31, 119, 180)),
    ("2&2", RGBColor(44, 160, 44)),
    ("solver", RGBColor(148, 103, 189)),
];

/// Two panels, the share of moves keeping the exact value and the outcome, against ms a
/// move (logarithmic), one line an engine, each point labelled with its budget.
fn draw_chart(path: &Path, set: &str, rows: &[Row]) -> Result<(), String> {
    let rows: Vec<&Row> = rows.iter().filter(|row| row.set == set).collect();
    if rows.is_empty() {
        return Ok(());
    }
    let ms = |row: &Row| row.ms_per_move.max(1e-4);
    let x_low = rows.iter().map(|row| ms(row)).fold(f64::INFINITY, f64::min) / 2.0;
    let x_high = rows.iter().map(|row| ms(row)).fold(0.0, f64::max) * 2.0;
    let draw =
        || -> Result<(), Box<dyn std::error::Error>> {
            let root = SVGBackend::new(path, (1100, 460)).into_drawing_area();
            root.fill(&WHITE)?;
            let panels = root.split_evenly((1, 2));
            for (panel, (label, measure)) in panels.iter().zip([
                (
                    "moves keeping the exact value (%)",
                    (|row: &Row| row.value_kept) as fn(&Row) -> f64,
                ),
                ("moves keeping the outcome (%)", |row: &Row| {
                    row.outcome_kept
                }),
            ]) {
                let y_low = rows
                    .iter()
                    .map(|row| 100.0 * measure(row))
                    .fold(100.0, f64::min)
                    .min(90.0)
                    - 2.0;
                let mut chart = ChartBuilder::on(panel)
                    .caption(format!("{set}: {label}"), ("sans-serif", 16))
                    .margin(10)
                    .x_label_area_size(40)
                    .y_label_area_size(50)
                    .build_cartesian_2d((x_low..x_high).log_scale(), y_low.max(0.0)..101.0)?;
                chart
                    .configure_mesh()
                    .x_desc("ms a move (logarithmic); one thread but for mcts-2-threads")
                    .y_desc(label)
                    .draw()?;
                for (engine, colour) in ENGINES {
                    let line: Vec<&&Row> = rows.iter().filter(|row| row.engine == engine).collect();
                    if line.is_empty() {
                        continue;
                    }
                    chart
                        .draw_series(LineSeries::new(
                            line.iter().map(|row| (ms(row), 100.0 * measure(row))),
                            colour.stroke_width(2),
                        ))?
                        .label(engine)
                        .legend(move |(x, y)| {
                            PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
                        });
                    chart.draw_series(line.iter().map(|row| {
                        Circle::new((ms(row), 100.0 * measure(row)), 3, colour.filled())
                    }))?;
                    chart.draw_series(line.iter().map(|row| {
                        Text::new(
                            budget_label(engine, row.budget),
                            (ms(row), 100.0 * measure(row)),
                            ("sans-serif", 11).into_font().color(&colour),
                        )
                    }))?;
                }
                chart
                    .configure_series_labels()
                    .position(SeriesLabelPosition::LowerRight)
                    .background_style(WHITE.mix(0.9))
                    .border_style(BLACK)
                    .draw()?;
            }
            root.present()?;
            Ok(())
        };
    draw().map_err(|error| format!("{}: {error}", path.display()))
}

/// A point's label: the depth, or the playouts or positions as a power of ten.
fn budget_label(engine: &str, budget: u64) -> String {
    let mut label = String::new();
    if engine == "alpha-beta" || engine == "2&2" {
        let _ = write!(label, "{budget}");
    } else {
        let _ = write!(label, "1e{}", budget.max(1).ilog10());
    }
    label
}
