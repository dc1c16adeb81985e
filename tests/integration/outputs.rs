//! Outputs seen from outside: every return value serializes (or fails with an error output,
//! never a panic), and every output fits the registry's cap, per tool where one is set.

// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use serde::ser::{Error as _, Serializer};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;
use tool_runtime::{tool, ErrorCode, Registry, ToolError, ToolOutput};

/// A log of `lines` lines, with multi-byte characters on each.
#[tool]
fn long_log(lines: usize) -> String {
    (1..=lines).map(|i| format!("line {i}: é 🦀\n")).collect()
}

/// The same log, from an async tool.
#[tool]
async fn long_log_async(lines: usize) -> String {
    long_log(lines)
}

/// One row of a report.
#[derive(Serialize)]
struct Row {
    id: usize,
    note: String,
}

/// A report with many rows.
#[derive(Serialize)]
struct Report {
    title: String,
    rows: Vec<Row>,
    status: &'static str,
}

/// A report with `count` rows.
#[tool]
fn report(count: usize) -> Report {
    Report {
        title: "nightly".into(),
        rows: (0..count)
            .map(|id| Row {
                id,
                note: format!("row {id} is fine"),
            })
            .collect(),
        status: "done",
    }
}

/// Values plain serde_json can't write faithfully.
#[derive(Serialize)]
struct Hard {
    ratio: f64,
    limits: (f32, f64),
    by_cell: BTreeMap<(u8, u8), &'static str>,
    #[serde(serialize_with = "as_bytes")]
    digest: Vec<u8>,
}

fn as_bytes<S: Serializer>(bytes: &[u8], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_bytes(bytes)
}

/// Hard values.
#[tool]
fn hard_values() -> Hard {
    Hard {
        ratio: f64::NAN,
        limits: (f32::NEG_INFINITY, f64::INFINITY),
        by_cell: BTreeMap::from([((0, 0), "a1"), ((2, 1), "c2")]),
        digest: vec![0xde, 0xad, 0xbe, 0xef],
    }
}

/// A value whose `Serialize` impl fails.
struct Unwritable;

impl Serialize for Unwritable {
    fn serialize<S: Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        Err(S::Error::custom("the handle was closed"))
    }
}

/// A value whose `Serialize` impl panics.
struct Exploding;

impl Serialize for Exploding {
    fn serialize<S: Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        panic!("boom while serializing")
    }
}

/// Returns a value that can't be written.
#[tool]
fn unwritable() -> Vec<Unwritable> {
    vec![Unwritable]
}

/// Returns a value that panics when written.
#[tool]
fn exploding() -> Result<BTreeMap<String, Exploding>, ToolError> {
    Ok(BTreeMap::from([("field".to_owned(), Exploding)]))
}

/// Fails with a very long message.
#[tool]
fn long_failure() -> Result<String, ToolError> {
    Err(ToolError::new(format!("failed: {}", "why ".repeat(10_000))))
}

/// A log with its own cap, set on the attribute.
#[tool(max_output = 300)]
fn short_log(lines: usize) -> String {
    (0..lines).map(|i| format!("line {i}\n")).collect()
}

const CAP: usize = 1024;
const REPORT_CAP: usize = 4096;

fn registry() -> Registry {
    Registry::builder()
        .without_inventory()
        .register_all([
            long_log::TOOL,
            long_log_async::TOOL,
            report::TOOL,
            hard_values::TOOL,
            unwritable::TOOL,
            exploding::TOOL,
            long_failure::TOOL,
            short_log::TOOL,
        ])
        .max_output(CAP)
        .tool_max_output("report", REPORT_CAP)
        .build()
        .unwrap()
}

fn error(output: &ToolOutput) -> &ToolError {
    output
        .as_error()
        .unwrap_or_else(|| panic!("expected an error, got {output:?}"))
}

#[test]
fn long_text_is_cut_in_the_middle_to_the_cap() {
    let out = registry().call_blocking("long_log", r#"{"lines": 5000}"#);
    let full = long_log(5000);
    let ToolOutput::Text(text) = &out else {
        panic!("expected text, got {out:?}");
    };
    assert!(text.len() <= CAP, "{}", text.len());
    assert!(text.starts_with("line 1: é 🦀\nline 2: é 🦀\n"));
    assert!(text.ends_with("line 5000: é 🦀\n"));
    let cut = out.truncation().expect("marked as truncated");
    assert_eq!(cut.original_bytes, full.len());
    let marker = format!(
        "[... truncated {} of {} bytes, {} lines ...]\n",
        cut.removed_bytes, cut.original_bytes, cut.removed_lines
    );
    let (head, tail) = text.split_once(&marker).expect("the marker");
    assert!(head.ends_with('\n'), "the marker is on its own line");
    // Whole lines went, and the counts are exact.
    assert_eq!(head.len() + cut.removed_bytes + tail.len(), full.len());
    assert_eq!(
        cut.removed_lines,
        5000 - head.lines().count() - tail.lines().count()
    );
    assert!(full.starts_with(head) && full.ends_with(tail));
}

#[tokio::test]
async fn async_calls_are_bounded_too() {
    let registry = registry();
    let out = registry.call("long_log_async", r#"{"lines": 5000}"#).await;
    assert!(out.to_model_text().len() <= CAP);
    assert!(out.truncation().is_some());
    // Within the cap, nothing changes.
    let short = registry.call("long_log_async", r#"{"lines": 3}"#).await;
    assert_eq!(short, ToolOutput::text(long_log(3)));
    assert_eq!(short.truncation(), None);
}

#[test]
fn json_stays_json_and_a_tool_cap_overrides_the_registry_cap() {
    let out = registry().call_blocking("report", r#"{"count": 2000}"#);
    let ToolOutput::Json(json) = &out else {
        panic!("expected JSON, got {out:?}");
    };
    let text = json.as_str();
    assert!(
        text.len() <= REPORT_CAP && text.len() > CAP,
        "{}",
        text.len()
    );
    let value: Value = serde_json::from_str(text).expect("still valid JSON");
    assert_eq!(value["title"], "nightly");
    assert_eq!(value["status"], "done");
    let rows = value["rows"].as_array().unwrap();
    assert_eq!(rows[0]["id"], 0);
    assert_eq!(rows[rows.len() - 1]["id"], 1999);
    assert!(rows.iter().any(|r| r
        .as_str()
        .is_some_and(|m| m.ends_with("items truncated ...]"))));
    assert!(json.truncation().unwrap().original_bytes > 50_000);
    // On the wire, the output says it was cut.
    let wire = serde_json::to_value(&out).unwrap();
    assert_eq!(wire["kind"], "json");
    assert!(wire["truncated"]["removed_bytes"].as_u64().unwrap() > 40_000);
}

#[test]
fn hard_values_get_faithful_stand_ins() {
    let out = registry().call_blocking("hard_values", "{}");
    let ToolOutput::Json(json) = &out else {
        panic!("expected JSON, got {out:?}");
    };
    assert_eq!(
        json.to_value(),
        serde_json::json!({
            "ratio": "NaN",
            "limits": ["-Infinity", "Infinity"],
            "by_cell": [[[0, 0], "a1"], [[2, 1], "c2"]],
            "digest": "3q2+7w==",
        })
    );
}

#[test]
fn unserializable_results_are_output_errors_naming_the_type() {
    let registry = registry();
    let failed = registry.call_blocking("unwritable", "{}");
    let e = error(&failed);
    assert_eq!(e.code, ErrorCode::OutputError);
    assert_eq!(e.tool.as_deref(), Some("unwritable"));
    assert!(e.message.contains("Unwritable"), "{}", e.message);
    assert!(e.message.contains("at /0"), "{}", e.message);
    assert!(e.message.contains("the handle was closed"), "{}", e.message);

    let panicked = registry.call_blocking("exploding", "{}");
    let e = error(&panicked);
    assert_eq!(e.code, ErrorCode::OutputError);
    assert!(e.message.contains("Exploding"), "{}", e.message);
    assert!(e.message.contains("panicked"), "{}", e.message);
    assert!(
        e.message.contains("boom while serializing"),
        "{}",
        e.message
    );
}

#[test]
fn error_messages_are_capped() {
    let out = registry().call_blocking("long_failure", "{}");
    let e = error(&out);
    assert_eq!(e.code, ErrorCode::ToolFailed);
    assert!(e.message.len() <= CAP, "{}", e.message.len());
    assert!(e.message.starts_with("failed: why why"));
    assert!(out.truncation().is_some());
}

#[test]
fn the_default_cap_is_8_kib_and_unknown_names_are_build_errors() {
    let registry = Registry::builder()
        .without_inventory()
        .register(long_log::TOOL)
        .build()
        .unwrap();
    let out = registry.call_blocking("long_log", r#"{"lines": 100000}"#);
    let text = out.to_model_text();
    assert!(text.len() <= ToolOutput::DEFAULT_MAX_OUTPUT);
    assert!(text.len() > ToolOutput::DEFAULT_MAX_OUTPUT - 200);

    let unknown = Registry::builder()
        .without_inventory()
        .register(long_log::TOOL)
        .tool_max_output("no_such_tool", 10)
        .build()
        .unwrap_err();
    assert!(unknown.to_string().contains("tool_max_output"), "{unknown}");
}

#[test]
fn a_cap_on_the_attribute_wins_over_the_registrys() {
    let output = registry().call_blocking("short_log", r#"{"lines": 1000}"#);
    let ToolOutput::Text(text) = &output else {
        panic!("{output:?}")
    };
    assert!(text.len() <= 300, "{} bytes", text.len());
    assert!(output.truncation().is_some());
    // The builder's setting wins over the attribute.
    let wider = Registry::builder()
        .without_inventory()
        .register(short_log::TOOL)
        .tool_max_output("short_log", 5000)
        .build()
        .unwrap();
    let text = wider
        .call_blocking("short_log", r#"{"lines": 1000}"#)
        .to_model_text();
    assert!(
        text.len() > 300 && text.len() <= 5000,
        "{} bytes",
        text.len()
    );
}
