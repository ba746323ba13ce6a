//! Slagle's proposed experiment (seed 003, section 8): learn the 2&2 backing-up functions
//! on checkers from typical positions, then play 2&2 alpha-beta against 1&1 alpha-beta.
//!
//! | step | where |
//! |---|---|
//! | typical positions from self-play | [`sampling_game`], [`typical_positions`] |
//! | the data of sections 8.1 and 8.2 | [`deep_value`], [`learning_sample`] |
//! | the fit of x, y (r, s) | [`fit_backing_up`] |
//! | three families compared (offset, Slagle's, shifted) | [`compare_families`] |
//! | the same by game phase | [`phase_fits`] |
//! | the parameter file | [`SlagleParameters`] |
//! | the matches | [`play_game`], [`summarize`] |
//! | Elo with a 95% interval | [`MatchScore::elo`] |
//! | cost and strength: players against one reference, and attribution | [`play_curve_game`], [`summarize_pairing`] |
//!
//! | the same on any game | [`ExperimentGame`]: [`CheckersExperiment`], [`KalahExperiment`] |
//! | every move graded against perfect play (Kalah) | [`grade_move`], [`summarize_grades`] |
//!
//! The pieces are plain functions; `gametree experiment slagle` runs them on every core,
//! with resumable result files.

mod curves;
mod elo;
mod families;
mod fitting;
mod game;
mod grading;
mod in_order;
mod kalah;
mod learning;
mod matches;
mod parameters;
mod phases;
mod positions;

pub use curves::{
    CurveGameSpec, CurvePlayer, CurveRecord, LevelFunctions, Pairing, PairingSummary, Rule,
    RuleBook, choose_move, curve_game_specs, play_curve_game, summarize_pairing,
};
pub use elo::{EloEstimate, MatchScore, elo_difference};
pub use families::{
    Family, FamilyComparison, FamilyFit, compare_families, compare_families_by_dmax, fit_family,
    observations_by_dmax,
};
pub use fitting::{Fit, GREATEST_SHIFT, LEAST_SHIFT, Observation, fit_backing_up};
pub use game::{
    CheckersExperiment, ExperimentEvaluation, ExperimentGame, deep_value_in, search_nodes_in,
    two_best_successors_in,
};
pub use grading::{
    Estimate, GradeSummary, MoveGrade, PairedDifference, PositionGrades, Searcher,
    exact_move_values, for_mover, grade_move, paired_differences, summarize_grades,
};
pub use in_order::{InOrderLines, work_in_order};
pub use kalah::{KalahExperiment, KalahOpening, KalahPosition};
pub use learning::{
    DECIDED, LearningSample, deep_value, functions_so_far, learning_sample, position_kind,
    two_best_successors,
};
pub use matches::{
    BUDGET_MAX_DEPTH, ColourSplit, GameRecord, GameSpec, MatchKind, MatchSetup, MatchSummary,
    SideStats, colour_split, game_specs, play_game, summarize,
};
pub use parameters::{
    DepthParameters, MAX_DMAX, PARAMETERS_FORMAT, ParametersError, SlagleParameters,
};
pub use phases::{Phase, PhaseFits, phase_counts, phase_fits};
pub use positions::{
    Opening, SAMPLING_BATCH, SamplingConfig, positions_from_fen_lines, positions_to_fen_lines,
    sampling_game, typical_positions, typical_positions_by_stratum,
};

#[cfg(feature = "cli")]
mod curves_report;
#[cfg(feature = "cli")]
mod engine_strength;
#[cfg(feature = "cli")]
mod kalah_report;
#[cfg(feature = "cli")]
mod report;
#[cfg(feature = "cli")]
mod results;

#[cfg(feature = "cli")]
pub use curves_report::{
    CURVE_CHARTS, Cost, CurvePoint, curve_points, curves_answer, curves_colour_note,
    curves_conclusion, curves_markdown, draw_curve_charts, one_one_at, signed_elo, white_lean,
};
#[cfg(feature = "cli")]
pub use engine_strength::{EngineMatch, EngineStrength};
#[cfg(feature = "cli")]
pub use kalah_report::{
    GradingResults, KalahReportInput, draw_grading_charts, grading_csv, kalah_report_markdown,
    paired_csv,
};
#[cfg(feature = "cli")]
pub use report::{
    CurvesText, ReportInput, draw_fit_chart, duration_text, fits_csv, matches_csv, report_markdown,
};
#[cfg(feature = "cli")]
pub use results::{
    Appender, Calibration, DeepValue, EXPERIMENT_FORMAT, ExperimentConfig, FitRow, KalahConfig,
    ResultsDir, RunLog, as_stored,
};
