//! `csv_summary`: a per-column profile of a CSV file, as JSON (sync).
//!
//! The showcase for safe serialization: its result holds what trips plain serde_json up.
//! Timestamps are reported as RFC 3339 strings, NaN and infinite values are counted, and a
//! sum that overflows `f64` is returned as it is: the runtime writes it as `"Infinity"`
//! rather than failing the call or writing `null`.

use crate::text::{looks_binary, truncate_chars};
use crate::timestamp::{self, Timestamp};
use crate::workspace::Workspace;
use serde::Serialize;
use serde_json::Number;
use std::collections::{HashMap, HashSet};
use std::io::{BufRead, BufReader};
use tool_runtime::{tool, State, ToolError};

/// Distinct values are counted up to this many per column; past it the count is a floor.
const DISTINCT_CAP: usize = 1000;
/// A fixed hasher for distinct values: 64-bit hashes of at most 1000 values per column
/// collide with odds near 1 in 10^13.
const DISTINCT_HASH: std::hash::BuildHasherDefault<std::hash::DefaultHasher> =
    std::hash::BuildHasherDefault::new();
/// Sample values kept per column.
const SAMPLES: usize = 3;
/// Sample values are cut to this many chars.
const SAMPLE_CHARS: usize = 60;
/// The most columns summarized in one call: the result is sized by this, never by the file.
/// Past it, the first ones are summarized and the rest counted (`columns_left_out`); `columns`
/// names others.
pub const MAX_COLUMNS: usize = 50;
/// Column names in the result (and in errors) are cut to this many chars.
const NAME_CHARS: usize = 100;

/// What a CSV file holds, column by column.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CsvSummary {
    /// The file, relative to the workspace root.
    pub path: String,
    /// Data rows (the header row not counted).
    pub rows: u64,
    /// Columns of the file not summarized because it has more than 50: name them in
    /// `columns` to see them. (Before `columns`, so the output cap never cuts it.)
    #[serde(skip_serializing_if = "is_zero")]
    pub columns_left_out: u64,
    /// One summary per column, in file order or in the order asked for.
    pub columns: Vec<ColumnSummary>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// One column's profile.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ColumnSummary {
    /// The header.
    pub name: String,
    /// The kind every non-empty value fits.
    pub kind: ValueKind,
    /// Non-empty values.
    pub count: u64,
    /// Empty (or whitespace-only, or missing) values.
    pub empty: u64,
    /// Numeric statistics, for integer and float columns.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub numeric: Option<NumericStats>,
    /// The earliest and latest value, for timestamp columns.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timestamps: Option<TimestampStats>,
    /// Distinct non-empty values, counted up to 1000.
    pub distinct: u64,
    /// Whether there were more distinct values than were counted.
    pub distinct_capped: bool,
    /// The first few distinct values.
    pub samples: Vec<String>,
}

/// The kind of values a column holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ValueKind {
    /// No non-empty values.
    Empty,
    /// Whole numbers.
    Integer,
    /// Numbers, some with a fraction, exponent, NaN or infinity.
    Float,
    /// `true` / `false`.
    Bool,
    /// Dates or date-times such as `2024-05-01` or `2024-05-01T12:30:00Z`.
    Timestamp,
    /// Anything else.
    Text,
}

/// Min, max, sum and mean of a numeric column's finite values (min, max and mean are
/// `null` when there are none).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NumericStats {
    /// The smallest finite value.
    pub min: Option<Number>,
    /// The largest finite value.
    pub max: Option<Number>,
    /// The sum of the finite values: `"Infinity"` or `"-Infinity"` when it overflows `f64`.
    pub sum: f64,
    /// The mean of the finite values (computed so that it doesn't overflow).
    pub mean: Option<f64>,
    /// `NaN` values: counted, but left out of the statistics.
    pub nan: u64,
    /// `inf` and `-inf` values: counted, but left out of the statistics.
    pub infinite: u64,
}

/// The span of a timestamp column, in RFC 3339 (UTC).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TimestampStats {
    /// The earliest value, such as `2024-05-01T10:30:00Z`.
    pub min: String,
    /// The latest value.
    pub max: String,
    /// Values with no UTC offset (`2024-05-01 10:30`): read as UTC.
    pub without_offset: u64,
}

/// Summarize a CSV file: for each column, its kind, counts, statistics and samples.
///
/// The first row is the header. Kinds are inferred from the non-empty values: integer,
/// float, bool, timestamp or text. Numeric columns get min, max, sum and mean, with NaN and
/// infinite values counted apart; timestamp columns get their earliest and latest value as
/// RFC 3339 (UTC). At most 50 columns are summarized at a time: the first 50, or those
/// named in `columns`. Returns JSON.
#[tool(read_only, idempotent)]
pub fn csv_summary(
    /// Path of the CSV file, relative to the workspace root.
    path: String,
    /// The field separator: one character, such as "," or ";" or "\t" (or "tab").
    #[tool(default = String::from(","))]
    delimiter: String,
    /// Only summarize these columns, named by their header.
    columns: Option<Vec<String>>,
    workspace: State<Workspace>,
) -> Result<CsvSummary, ToolError> {
    let delimiter = parse_delimiter(&delimiter)?;
    // Opened once, under the workspace root: what is checked is what is read.
    let (file, resolved) = workspace.open(&path)?;
    crate::workspace::require_open_file(&file, &path)?;
    let mut reader = BufReader::new(file);
    let head = reader
        .fill_buf()
        .map_err(|e| ToolError::new(format!("{path:?} can't be read: {e}")))?;
    if looks_binary(head) {
        return Err(ToolError::new(format!(
            "{path:?} is a binary file (it contains NUL bytes), not CSV"
        )));
    }
    let mut csv = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .flexible(true)
        .from_reader(reader);
    let headers: Vec<String> = csv
        .headers()
        .map_err(|e| csv_error(&path, e))?
        .iter()
        .enumerate()
        .map(|(i, h)| match h.trim() {
            "" => format!("column_{}", i + 1),
            h => h.to_owned(),
        })
        .collect();
    if headers.is_empty() {
        return Err(ToolError::new(format!(
            "{path:?} is empty; a CSV file needs a header row"
        )));
    }
    let (selected, columns_left_out) = select(&headers, columns.as_deref(), &path)?;

    let mut stats: Vec<Column> = selected.iter().map(|_| Column::default()).collect();
    let mut rows = 0u64;
    for record in csv.records() {
        let record = record.map_err(|e| csv_error(&path, e))?;
        rows += 1;
        for (column, &index) in stats.iter_mut().zip(&selected) {
            column.add(record.get(index).unwrap_or(""));
        }
    }
    Ok(CsvSummary {
        path: resolved.display(),
        rows,
        columns_left_out,
        columns: selected
            .iter()
            .zip(stats)
            .map(|(&i, column)| column.finish(truncate_chars(&headers[i], NAME_CHARS)))
            .collect(),
    })
}

fn parse_delimiter(text: &str) -> Result<u8, ToolError> {
    match text {
        "\t" | "\\t" | "tab" => return Ok(b'\t'),
        _ => {}
    }
    match text.as_bytes() {
        [b] if b.is_ascii() && !matches!(b, b'"' | b'\n' | b'\r') => Ok(*b),
        _ => Err(ToolError::new(format!(
            "delimiter must be one ASCII character such as \",\", \";\", \"|\" or \"\\t\"; got {text:?}"
        ))),
    }
}

/// The indexes of the columns to summarize (all, or those named, in the order named; at most
/// [`MAX_COLUMNS`]) and how many of the file's were left out. Names are looked up in a map,
/// so asking for many costs what they are, not their number times the file's.
fn select(
    headers: &[String],
    wanted: Option<&[String]>,
    path: &str,
) -> Result<(Vec<usize>, u64), ToolError> {
    let Some(wanted) = wanted else {
        let shown = headers.len().min(MAX_COLUMNS);
        return Ok(((0..shown).collect(), (headers.len() - shown) as u64));
    };
    if wanted.is_empty() {
        return Err(ToolError::new(
            "columns is empty: leave it out to summarize every column, or name at least one",
        ));
    }
    if wanted.len() > MAX_COLUMNS {
        return Err(ToolError::new(format!(
            "columns names {} columns; ask for at most {MAX_COLUMNS} at a time",
            wanted.len()
        )));
    }
    // The first column of each name, as `position` found it.
    let mut index: HashMap<&str, usize> = HashMap::with_capacity(headers.len());
    for (i, header) in headers.iter().enumerate() {
        index.entry(header.as_str()).or_insert(i);
    }
    let missing: Vec<String> = wanted
        .iter()
        .filter(|w| !index.contains_key(w.as_str()))
        .take(10)
        .map(|w| truncate_chars(w, NAME_CHARS))
        .collect();
    if !missing.is_empty() {
        let known: Vec<String> = headers
            .iter()
            .take(50)
            .map(|h| truncate_chars(h, NAME_CHARS))
            .collect();
        let more = headers.len().saturating_sub(known.len());
        return Err(ToolError::new(format!(
            "{path:?} has no column named {}; its columns are: {}{}",
            missing.join(", "),
            known.join(", "),
            if more > 0 {
                format!(" (and {more} more)")
            } else {
                String::new()
            }
        )));
    }
    Ok((wanted.iter().map(|w| index[w.as_str()]).collect(), 0))
}

fn csv_error(path: &str, error: csv::Error) -> ToolError {
    let at = error
        .position()
        .map(|p| format!(" at line {}", p.line()))
        .unwrap_or_default();
    match error.kind() {
        csv::ErrorKind::Utf8 { .. } => ToolError::new(format!(
            "{path:?} is not valid UTF-8{at}; csv_summary reads UTF-8 text only"
        )),
        csv::ErrorKind::Io(e) => ToolError::new(format!("{path:?} can't be read: {e}")),
        _ => ToolError::new(format!("{path:?} can't be parsed as CSV{at}: {error}")),
    }
}

/// A column's running totals.
struct Column {
    count: u64,
    empty: u64,
    all_int: bool,
    all_number: bool,
    all_bool: bool,
    all_timestamp: bool,
    int_min: i64,
    int_max: i64,
    min: f64,
    max: f64,
    sum: f64,
    mean: f64,
    finite: u64,
    nan: u64,
    infinite: u64,
    earliest: Option<Timestamp>,
    latest: Option<Timestamp>,
    without_offset: u64,
    /// Hashes of the distinct values seen (up to [`DISTINCT_CAP`]): a value's size doesn't
    /// count, only their number.
    distinct: HashSet<u64>,
    distinct_capped: bool,
    samples: Vec<String>,
}

impl Default for Column {
    fn default() -> Column {
        Column {
            count: 0,
            empty: 0,
            all_int: true,
            all_number: true,
            all_bool: true,
            all_timestamp: true,
            int_min: i64::MAX,
            int_max: i64::MIN,
            min: f64::INFINITY,
            max: f64::NEG_INFINITY,
            sum: 0.0,
            mean: 0.0,
            finite: 0,
            nan: 0,
            infinite: 0,
            earliest: None,
            latest: None,
            without_offset: 0,
            distinct: HashSet::new(),
            distinct_capped: false,
            samples: Vec::new(),
        }
    }
}

impl Column {
    fn add(&mut self, raw: &str) {
        let value = raw.trim();
        if value.is_empty() {
            self.empty += 1;
            return;
        }
        self.count += 1;
        match value.parse::<i64>() {
            Ok(n) => {
                self.int_min = self.int_min.min(n);
                self.int_max = self.int_max.max(n);
                self.add_number(n as f64);
            }
            Err(_) => {
                self.all_int = false;
                match value.parse::<f64>() {
                    Ok(x) => self.add_number(x),
                    Err(_) => self.all_number = false,
                }
            }
        }
        self.all_bool &= value.eq_ignore_ascii_case("true") || value.eq_ignore_ascii_case("false");
        if self.all_timestamp {
            match timestamp::parse(value) {
                Some(parsed) => {
                    self.earliest = Some(self.earliest.map_or(parsed.at, |t| t.min(parsed.at)));
                    self.latest = Some(self.latest.map_or(parsed.at, |t| t.max(parsed.at)));
                    self.without_offset += u64::from(!parsed.has_offset);
                }
                None => self.all_timestamp = false,
            }
        }
        let hash = {
            use std::hash::{BuildHasher, Hasher};
            let mut hasher = DISTINCT_HASH.build_hasher();
            hasher.write(value.as_bytes());
            hasher.finish()
        };
        if !self.distinct.contains(&hash) {
            if self.distinct.len() < DISTINCT_CAP {
                if self.samples.len() < SAMPLES {
                    self.samples.push(truncate_chars(value, SAMPLE_CHARS));
                }
                self.distinct.insert(hash);
            } else {
                self.distinct_capped = true;
            }
        }
    }

    fn add_number(&mut self, x: f64) {
        if x.is_nan() {
            self.nan += 1;
            return;
        }
        if x.is_infinite() {
            self.infinite += 1;
            return;
        }
        self.finite += 1;
        self.min = self.min.min(x);
        self.max = self.max.max(x);
        self.sum += x;
        // The sum gives the exact-as-can-be mean; the running mean (both terms divided
        // first) is the fallback when the sum of values near f64::MAX overflows.
        let n = self.finite as f64;
        self.mean += x / n - self.mean / n;
    }

    fn mean(&self) -> Option<f64> {
        if self.finite == 0 {
            return None;
        }
        let from_sum = self.sum / self.finite as f64;
        finite(from_sum).or(finite(self.mean))
    }

    fn finish(self, name: String) -> ColumnSummary {
        let kind = if self.count == 0 {
            ValueKind::Empty
        } else if self.all_int {
            ValueKind::Integer
        } else if self.all_number {
            ValueKind::Float
        } else if self.all_bool {
            ValueKind::Bool
        } else if self.all_timestamp {
            ValueKind::Timestamp
        } else {
            ValueKind::Text
        };
        let have = self.finite > 0;
        let mean = self.mean();
        let numeric = match kind {
            ValueKind::Integer => Some(NumericStats {
                min: have.then(|| self.int_min.into()),
                max: have.then(|| self.int_max.into()),
                sum: self.sum,
                mean,
                nan: 0,
                infinite: 0,
            }),
            ValueKind::Float => Some(NumericStats {
                min: Number::from_f64(self.min).filter(|_| have),
                max: Number::from_f64(self.max).filter(|_| have),
                sum: self.sum,
                mean,
                nan: self.nan,
                infinite: self.infinite,
            }),
            _ => None,
        };
        let timestamps = match (kind, self.earliest, self.latest) {
            (ValueKind::Timestamp, Some(earliest), Some(latest)) => Some(TimestampStats {
                min: earliest.to_rfc3339(),
                max: latest.to_rfc3339(),
                without_offset: self.without_offset,
            }),
            _ => None,
        };
        ColumnSummary {
            name,
            kind,
            count: self.count,
            empty: self.empty,
            numeric,
            timestamps,
            distinct: self.distinct.len() as u64,
            distinct_capped: self.distinct_capped,
            samples: self.samples,
        }
    }
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::fs;
    use std::sync::Arc;

    fn setup(name: &str, content: &str) -> (tempfile::TempDir, State<Workspace>) {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join(name), content).unwrap();
        let ws = State(Arc::new(Workspace::new(dir.path())));
        (dir, ws)
    }

    fn summary(
        ws: &State<Workspace>,
        path: &str,
        delimiter: &str,
        columns: Option<Vec<&str>>,
    ) -> Result<serde_json::Value, ToolError> {
        let columns = columns.map(|c| c.into_iter().map(str::to_owned).collect());
        csv_summary(path.into(), delimiter.into(), columns, ws.clone())
            // As the registry writes it: through safe serialization.
            .map(|s| match tool_runtime::output::safe_serialize(&s) {
                tool_runtime::ToolOutput::Json(json) => json.to_value(),
                other => panic!("{other:?}"),
            })
    }

    #[test]
    fn profiles_each_kind() {
        let (_dir, ws) = setup(
            "data.csv",
            "id,price,ok,when,name,blank\n\
             1,2.5,true,2024-01-02,apple,\n\
             2,NaN,FALSE,2024-01-03T10:00:00Z,pear,\n\
             3,4.5,true,2024-01-04 09:30,apple,\n\
             -7,inf,false,2024-01-05T10:00:00.123+02:00,,\n",
        );
        let out = summary(&ws, "data.csv", ",", None).unwrap();
        assert_eq!(out["rows"], 4);
        let col = |n: usize| out["columns"][n].clone();
        assert_eq!(col(0)["kind"], "integer");
        assert_eq!(
            col(0)["numeric"],
            json!({"min": -7, "max": 3, "sum": -1.0, "mean": -0.25, "nan": 0, "infinite": 0})
        );
        assert_eq!(col(1)["kind"], "float");
        assert_eq!(
            col(1)["numeric"],
            json!({"min": 2.5, "max": 4.5, "sum": 7.0, "mean": 3.5, "nan": 1, "infinite": 1})
        );
        assert_eq!(col(2)["kind"], "bool");
        assert_eq!(col(3)["kind"], "timestamp");
        assert_eq!(
            col(3)["timestamps"],
            json!({
                "min": "2024-01-02T00:00:00Z",
                "max": "2024-01-05T08:00:00.123Z",
                "without_offset": 2,
            })
        );
        assert!(col(0).get("timestamps").is_none());
        assert_eq!(col(4)["kind"], "text");
        assert_eq!(col(4)["count"], 3);
        assert_eq!(col(4)["empty"], 1);
        assert_eq!(col(4)["distinct"], 2);
        assert_eq!(col(4)["samples"], json!(["apple", "pear"]));
        assert!(col(4).get("numeric").is_none());
        assert_eq!(col(5)["kind"], "empty");
        assert_eq!(col(5)["empty"], 4);
    }

    #[test]
    fn non_finite_values_are_counted_and_an_overflowing_sum_is_infinity() {
        let (_dir, ws) = setup("n.csv", "x,y\nNaN,1e308\ninf,1e308\n-inf,-1e308\n");
        let out = summary(&ws, "n.csv", ",", None).unwrap();
        assert_eq!(
            out["columns"][0]["numeric"],
            json!({"min": null, "max": null, "sum": 0.0, "mean": null, "nan": 1, "infinite": 2})
        );
        // The sum overflows (1e308 + 1e308), and says so instead of failing or writing null;
        // the mean is computed without overflowing.
        let y = &out["columns"][1]["numeric"];
        assert_eq!(y["max"], json!(1e308));
        assert_eq!(y["sum"], "Infinity");
        let mean = y["mean"].as_f64().unwrap();
        assert!((mean - 1e308 / 3.0).abs() < 1e295, "{mean}");
    }

    #[test]
    fn timestamps_with_offsets_are_ordered_in_utc() {
        let (_dir, ws) = setup(
            "t.csv",
            "at\n2024-06-01T09:00:00+02:00\n2024-06-01T08:30:00Z\n2024-05-31T23:59:59.5-05:00\n",
        );
        let out = summary(&ws, "t.csv", ",", None).unwrap();
        assert_eq!(
            out["columns"][0]["timestamps"],
            json!({
                "min": "2024-06-01T04:59:59.5Z",
                "max": "2024-06-01T08:30:00Z",
                "without_offset": 0,
            })
        );
        // A date that isn't on the calendar makes the column text.
        let (_dir, ws) = setup("u.csv", "at\n2024-02-29\n2023-02-29\n");
        let out = summary(&ws, "u.csv", ",", None).unwrap();
        assert_eq!(out["columns"][0]["kind"], "text");
        assert!(out["columns"][0].get("timestamps").is_none());
    }

    #[test]
    fn delimiter_columns_and_ragged_rows() {
        let (_dir, ws) = setup("t.tsv", "a\tb\tc\n1\tx\n2\ty\t3\n");
        let out = summary(&ws, "t.tsv", "\t", Some(vec!["c", "a"])).unwrap();
        let names: Vec<_> = out["columns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["name"].clone())
            .collect();
        assert_eq!(names, vec![json!("c"), json!("a")]);
        assert_eq!(out["columns"][0]["empty"], 1);
        assert_eq!(out["columns"][1]["numeric"]["mean"], json!(1.5));
        assert!(summary(&ws, "t.tsv", "tab", None).is_ok());
    }

    #[test]
    fn distinct_counts_are_capped() {
        let mut content = String::from("v\n");
        for i in 0..1500 {
            content.push_str(&format!("{i}\n"));
        }
        let (_dir, ws) = setup("big.csv", &content);
        let out = summary(&ws, "big.csv", ",", None).unwrap();
        assert_eq!(out["columns"][0]["distinct"], 1000);
        assert_eq!(out["columns"][0]["distinct_capped"], true);
        assert_eq!(out["columns"][0]["count"], 1500);
        assert_eq!(out["columns"][0]["samples"], json!(["0", "1", "2"]));
    }

    #[test]
    fn bad_inputs_fail_clearly() {
        let (dir, ws) = setup("d.csv", "a,b\n1,2\n");
        fs::write(dir.path().join("empty.csv"), "").unwrap();
        fs::write(dir.path().join("bin.csv"), b"a,b\n\0\0\0").unwrap();
        fs::write(dir.path().join("latin1.csv"), b"a\ncaf\xe9\n").unwrap();
        let message = |r: Result<serde_json::Value, ToolError>| r.unwrap_err().message;
        assert!(message(summary(&ws, "d.csv", ";;", None)).contains("one ASCII character"));
        assert!(message(summary(&ws, "d.csv", "", None)).contains("one ASCII character"));
        assert!(message(summary(&ws, "d.csv", ",", Some(vec!["zz"]))).contains("columns are: a, b"));
        assert!(message(summary(&ws, "d.csv", ",", Some(vec![]))).contains("columns is empty"));
        assert!(message(summary(&ws, "nope.csv", ",", None)).contains("does not exist"));
        assert!(message(summary(&ws, "../d.csv", ",", None)).contains("above"));
        assert!(message(summary(&ws, "empty.csv", ",", None)).contains("header row"));
        assert!(message(summary(&ws, "bin.csv", ",", None)).contains("binary"));
        assert!(message(summary(&ws, "latin1.csv", ",", None)).contains("UTF-8"));
    }

    #[test]
    fn returns_json_through_the_registry() {
        let (dir, _ws) = setup("d.csv", "a,b\n1,x\n");
        let registry = crate::registry(dir.path().to_path_buf()).unwrap();
        let out = registry.call_blocking("csv_summary", r#"{"path": "d.csv", "columns": ["a"]}"#);
        let tool_runtime::ToolOutput::Json(json) = out else {
            panic!("expected JSON, got {out:?}");
        };
        assert_eq!(json.to_value()["columns"][0]["kind"], "integer");
    }
}
