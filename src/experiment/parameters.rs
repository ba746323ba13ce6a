//! The parameter file the experiment writes: Slagle's x, y (MAX) and r, s (MIN) for each
//! dmax (seed 003, section 8), the backing-up functions the 2&2 player searches with.
//!
//! ```json
//! {
//!   "format": "gametree-slagle-parameters/1",
//!   "m": 2,
//!   "n": 2,
//!   "functions": [
//!     { "dmax": 0, "x": 1.5, "y": 0.05, "r": 1.5, "s": 0.05 },
//!     { "dmax": 1, "x": 2.0, "y": 0.04, "r": 2.0, "s": 0.04 }
//!   ]
//! }
//! ```
//!
//! `dmax` is the plies left below the successors of the position backing up (Slagle's
//! dmax). A search deeper than the file covers uses the entry of the greatest dmax of the
//! same parity for the depths beyond it.

use serde::{Deserialize, Serialize};

use crate::search::m_and_n::{BackingUpError, Exponents, Slagle};
use crate::text::excerpt;

/// The `format` field of a parameter file this version writes and reads.
pub const PARAMETERS_FORMAT: &str = "gametree-slagle-parameters/1";

/// The greatest `dmax` a parameter file may give: far deeper than any search the
/// experiment runs, and small enough that the functions' tables stay small.
pub const MAX_DMAX: u32 = 255;

/// The exponents of one dmax: x and y for MAX positions, r and s for MIN positions.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DepthParameters {
    /// Plies left below each successor.
    pub dmax: u32,
    /// x: log₂ of the most a MAX position gains over its best successor.
    pub x: f64,
    /// y: how fast that gain halves as the second best falls behind (> 0).
    pub y: f64,
    /// r: log₂ of the most a MIN position takes from its best successor.
    pub r: f64,
    /// s: the MIN counterpart of y (> 0).
    pub s: f64,
}

/// A parameter file: m, n and the exponents per dmax. A field the format does not have
/// is an error, not ignored: it is most likely a misspelt one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SlagleParameters {
    /// Always [`PARAMETERS_FORMAT`].
    pub format: String,
    /// Values MAX backs up.
    pub m: usize,
    /// Values MIN backs up.
    pub n: usize,
    /// The exponents, by increasing dmax, each dmax at most once.
    pub functions: Vec<DepthParameters>,
}

/// Why a parameter file was refused. Each message is one line that names the place: the
/// line and column of a JSON error, else the field or the dmax at fault; it quotes at
/// most 40 characters of what the file says.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ParametersError {
    /// Not JSON of the expected shape.
    #[error("parameter file: line {line}, column {column}: {message}")]
    Syntax {
        /// The line of the problem, from 1.
        line: usize,
        /// The column of the problem in characters, from 1 (0 at the start of a line,
        /// where the JSON reader has not yet read a character of it).
        column: usize,
        /// What is wrong, with long quotes cut short and control characters escaped.
        message: String,
    },
    /// Another format or version.
    #[error("parameter file: format is {}, expected {PARAMETERS_FORMAT:?}", excerpt(.found))]
    Format {
        /// The format found.
        found: String,
    },
    /// No dmax given.
    #[error("parameter file: no functions (at least one dmax is needed)")]
    Empty,
    /// A dmax given twice.
    #[error("parameter file: dmax {0} is given twice")]
    Duplicate(u32),
    /// A dmax beyond [`MAX_DMAX`].
    #[error("parameter file: dmax {0} is too deep (at most {MAX_DMAX})")]
    TooDeep(u32),
    /// Exponents a backing-up function cannot have.
    #[error("parameter file: dmax {dmax}: {error}")]
    Exponents {
        /// The dmax of the bad entry.
        dmax: u32,
        /// What is wrong.
        error: BackingUpError,
    },
    /// m or n is 0.
    #[error("parameter file: {0}")]
    Counts(BackingUpError),
}

impl SlagleParameters {
    /// Parameters for 2&2 with the same exponents for MAX and MIN at each dmax: what the
    /// experiment learns, since checkers is the same game for both colours.
    #[must_use]
    pub fn symmetric(functions: &[(u32, Exponents)]) -> Self {
        SlagleParameters {
            format: PARAMETERS_FORMAT.to_string(),
            m: 2,
            n: 2,
            functions: functions
                .iter()
                .map(|&(dmax, exponents)| DepthParameters {
                    dmax,
                    x: exponents.shift,
                    y: exponents.slope,
                    r: exponents.shift,
                    s: exponents.slope,
                })
                .collect(),
        }
    }

    /// Checks the parameters: the format, at least one dmax, no dmax twice or above
    /// [`MAX_DMAX`], y and s > 0, finite numbers, m and n ≥ 1.
    ///
    /// # Errors
    /// The first problem found, naming the dmax.
    pub fn validate(&self) -> Result<(), ParametersError> {
        self.to_slagle().map(|_| ())
    }

    /// The backing-up functions: m&n with each dmax's exponents at its depth, and the
    /// greatest dmax of each parity extended to every deeper depth of that parity.
    ///
    /// # Errors
    /// As [`SlagleParameters::validate`].
    pub fn to_slagle(&self) -> Result<Slagle, ParametersError> {
        if self.format != PARAMETERS_FORMAT {
            return Err(ParametersError::Format {
                found: self.format.clone(),
            });
        }
        let mut entries = Vec::with_capacity(self.functions.len());
        for entry in &self.functions {
            if entries.iter().any(|(dmax, _, _)| *dmax == entry.dmax) {
                return Err(ParametersError::Duplicate(entry.dmax));
            }
            if entry.dmax > MAX_DMAX {
                return Err(ParametersError::TooDeep(entry.dmax));
            }
            let exponents = |shift, slope| {
                Exponents::new(shift, slope).map_err(|error| ParametersError::Exponents {
                    dmax: entry.dmax,
                    error,
                })
            };
            entries.push((
                entry.dmax,
                exponents(entry.x, entry.y)?,
                exponents(entry.r, entry.s)?,
            ));
        }
        entries.sort_by_key(|(dmax, _, _)| *dmax);
        let &(_, deepest_max, deepest_min) = entries.last().ok_or(ParametersError::Empty)?;
        let mut slagle = Slagle::new(self.m, self.n, deepest_max, deepest_min)
            .map_err(ParametersError::Counts)?;
        for &(dmax, max, min) in &entries {
            slagle = slagle.with_max_at(dmax, max).with_min_at(dmax, min);
        }
        // Beyond the file: the deepest entry of the same parity, up to a generous depth.
        let deepest = entries.last().map_or(0, |(dmax, _, _)| *dmax);
        for depth in deepest + 1..=deepest + 64 {
            if let Some(&(_, max, min)) = entries
                .iter()
                .rev()
                .find(|(dmax, _, _)| dmax % 2 == depth % 2)
            {
                slagle = slagle.with_max_at(depth, max).with_min_at(depth, min);
            }
        }
        Ok(slagle)
    }
}

#[cfg(feature = "cli")]
impl SlagleParameters {
    /// Reads and checks a parameter file's text (JSON, the format above).
    ///
    /// # Errors
    /// [`ParametersError::Syntax`] with the JSON reader's line and column (for text that
    /// is not JSON, a missing, misspelt or repeated field, a value of the wrong type), or
    /// the first problem [`SlagleParameters::validate`] finds.
    ///
    /// # Example
    /// ```
    /// use gametree::experiment::SlagleParameters;
    ///
    /// let text = r#"{"format": "gametree-slagle-parameters/1", "m": 2, "n": 2,
    ///   "functions": [{"dmax": 0, "x": 1.0, "y": 0.1, "r": 1.0, "s": 0.0}]}"#;
    /// let error = SlagleParameters::from_json(text).expect_err("s = 0");
    /// assert_eq!(error.to_string(), "parameter file: dmax 0: y and s must be greater than 0, got 0");
    /// ```
    pub fn from_json(text: &str) -> Result<Self, ParametersError> {
        let parameters: SlagleParameters =
            serde_json::from_str(text).map_err(|error| ParametersError::Syntax {
                line: error.line(),
                column: char_column(text, error.line(), error.column()),
                message: json_message(&error),
            })?;
        parameters.validate()?;
        Ok(parameters)
    }

    /// The parameter file's text, pretty-printed.
    #[must_use]
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("invariant: plain data serialises") + "\n"
    }
}

/// The character column of the JSON reader's `column`, which counts the bytes of line
/// `line` it has read (0 for none): the characters those bytes begin, a character cut in
/// two counting as read.
#[cfg(feature = "cli")]
fn char_column(text: &str, line: usize, column: usize) -> usize {
    let Some(line_text) = line
        .checked_sub(1)
        .and_then(|index| text.split('\n').nth(index))
    else {
        return column;
    };
    let read = column.min(line_text.len());
    line_text
        .char_indices()
        .take_while(|&(start, _)| start < read)
        .count()
}

/// The JSON reader's message without its ` at line L column C` (the error says where
/// itself), one line, and short: serde quotes a whole string value (`invalid type: string
/// "…", expected usize`) and a field name as it is, so control characters are escaped and
/// a long message keeps its beginning and its end (what was expected).
#[cfg(feature = "cli")]
fn json_message(error: &serde_json::Error) -> String {
    const HEAD: usize = 80;
    const TAIL: usize = 60;
    let full = error.to_string();
    let location = format!(" at line {} column {}", error.line(), error.column());
    let message = full.strip_suffix(&location).unwrap_or(&full);
    let mut escaped = Vec::new();
    for c in message.chars() {
        if c.is_control() {
            escaped.extend(c.escape_debug());
        } else {
            escaped.push(c);
        }
    }
    if escaped.len() <= HEAD + TAIL + 1 {
        return escaped.into_iter().collect();
    }
    let head: String = escaped[..HEAD].iter().collect();
    let tail: String = escaped[escaped.len() - TAIL..].iter().collect();
    format!("{head}…{tail}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Player;
    use crate::search::m_and_n::BackingUp;

    fn exponents(shift: f64, slope: f64) -> Exponents {
        Exponents::new(shift, slope).expect("valid")
    }

    #[test]
    fn each_dmax_gets_its_exponents_and_deeper_depths_the_deepest_of_their_parity() {
        let parameters =
            SlagleParameters::symmetric(&[(0, exponents(1.0, 0.5)), (1, exponents(2.0, 0.25))]);
        let slagle = parameters.to_slagle().expect("valid");
        assert_eq!(slagle.count(Player::Max), 2);
        assert_eq!(slagle.exponents(Player::Min, Some(0)), exponents(1.0, 0.5));
        assert_eq!(slagle.exponents(Player::Max, Some(1)), exponents(2.0, 0.25));
        assert_eq!(slagle.exponents(Player::Max, Some(4)), exponents(1.0, 0.5));
        assert_eq!(slagle.exponents(Player::Min, Some(7)), exponents(2.0, 0.25));
    }

    #[test]
    fn bad_parameters_are_refused_naming_the_dmax() {
        let mut parameters = SlagleParameters::symmetric(&[(3, exponents(1.0, 0.5))]);
        parameters.functions.push(parameters.functions[0]);
        assert_eq!(parameters.validate(), Err(ParametersError::Duplicate(3)));
        parameters.functions.clear();
        assert_eq!(parameters.validate(), Err(ParametersError::Empty));
        parameters.format = "other".to_string();
        assert!(matches!(
            parameters.validate(),
            Err(ParametersError::Format { .. })
        ));
    }

    #[cfg(feature = "cli")]
    #[test]
    fn the_json_form_reads_back_and_syntax_errors_say_where() {
        let parameters = SlagleParameters::symmetric(&[(0, exponents(-1.25, 0.03))]);
        let text = parameters.to_json();
        assert_eq!(SlagleParameters::from_json(&text), Ok(parameters));
        let error = SlagleParameters::from_json("{\"format\": 3").expect_err("bad JSON");
        assert_eq!(
            error.to_string(),
            "parameter file: line 1, column 12: invalid type: integer `3`, expected a string"
        );
    }

    #[cfg(feature = "cli")]
    #[test]
    fn json_errors_quote_a_long_value_only_in_part_and_on_one_line() {
        let huge = "a".repeat(100_000);
        let text = format!("{{\"format\": \"x\", \"m\": \"{huge}\"}}");
        let message = SlagleParameters::from_json(&text)
            .expect_err("m is not a number")
            .to_string();
        assert!(
            message
                .starts_with("parameter file: line 1, column 100023: invalid type: string \"aaa"),
            "{message}"
        );
        assert!(message.ends_with("aaa\", expected usize"), "{message}");
        assert!(message.chars().count() < 200, "{message}");
        // Columns count characters, not the bytes the JSON reader counts.
        let text = "{\"format\": \"x\",\n\"m\": 2, \"n\": 2, \"functions\": [{\"dmax\": 0, \"x\": 1,\n\"y\": \"éé\"}]}";
        let message = SlagleParameters::from_json(text)
            .expect_err("y is not a number")
            .to_string();
        assert_eq!(
            message,
            "parameter file: line 3, column 9: invalid type: string \"éé\", expected f64"
        );
        let other_format = SlagleParameters::symmetric(&[(0, exponents(1.0, 0.5))])
            .to_json()
            .replacen(PARAMETERS_FORMAT, "a\\nb", 1);
        let message = SlagleParameters::from_json(&other_format)
            .expect_err("format")
            .to_string();
        assert_eq!(
            message,
            "parameter file: format is \"a\\nb\", expected \"gametree-slagle-parameters/1\""
        );
        let text = r#"{"format": "x", "m\u0007\n": 1}"#;
        let message = SlagleParameters::from_json(text)
            .expect_err("unknown field")
            .to_string();
        assert!(message.contains("unknown field `m\\u{7}\\n`"), "{message}");
        assert!(!message.contains('\n'), "{message}");
    }

    #[cfg(feature = "cli")]
    #[test]
    fn exponents_read_back_to_the_very_numbers_written() {
        // serde_json's default float reader gave 1.0356320386133937 for this one.
        let parameters = SlagleParameters::symmetric(&[(0, exponents(0.0, 1.0356320386133935))]);
        let read = SlagleParameters::from_json(&parameters.to_json()).expect("valid");
        assert_eq!(read, parameters);
    }

    #[cfg(feature = "cli")]
    #[test]
    fn a_misspelt_field_or_a_dmax_too_deep_is_refused() {
        let good = SlagleParameters::symmetric(&[(0, exponents(1.0, 0.5))]).to_json();
        let misspelt = good.replacen("\"m\"", "\"mm\"", 1);
        let message = SlagleParameters::from_json(&misspelt)
            .expect_err("misspelt")
            .to_string();
        assert!(message.contains("unknown field `mm`"), "{message}");
        let deep = good.replacen("\"dmax\": 0", "\"dmax\": 4294967295", 1);
        assert_eq!(
            SlagleParameters::from_json(&deep),
            Err(ParametersError::TooDeep(u32::MAX))
        );
        let long_format = good.replacen(PARAMETERS_FORMAT, &"f".repeat(1000), 1);
        let message = SlagleParameters::from_json(&long_format)
            .expect_err("format")
            .to_string();
        assert!(message.len() < 150, "{message}");
    }
}
