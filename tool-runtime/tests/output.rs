//! Outputs at their edges: the content cap with short and many texts, JSON a `Value` can't hold
//! exactly or too deep to parse, pointers through panics and enum variants, a text quoting a
//! marker. Each test failed on the code before the fix it guards.

// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use serde::ser::{Serialize, Serializer};
use serde_json::{json, Value};
use tool_runtime::output::{safe_serialize, ContentBlock};
use tool_runtime::ToolOutput;

fn text_bytes(out: &ToolOutput) -> Vec<String> {
    match out {
        ToolOutput::Content(blocks) => blocks
            .iter()
            .filter_map(|b| match b {
                ContentBlock::Text { text, .. } => Some(text.clone()),
                _ => None,
            })
            .collect(),
        other => panic!("expected content, got {other:?}"),
    }
}

/// A short text block next to a long one stays whole (it was replaced by a marker longer than
/// itself), and the cap holds.
#[test]
fn content_cap_keeps_a_short_block_and_holds() {
    let out = ToolOutput::content([
        ContentBlock::text("3 tests failed"),
        ContentBlock::text("x".repeat(100_000)),
    ])
    .bounded(8192);
    let texts = text_bytes(&out);
    let total: usize = texts.iter().map(String::len).sum();
    assert_eq!(
        texts[0], "3 tests failed",
        "a 14-byte block was replaced by {:?}",
        texts[0]
    );
    assert!(
        total <= 8192,
        "content text is {total} bytes, over the 8192 cap"
    );
}

/// Many small text blocks: the cap holds (each became a marker, far over it), the first ones
/// are kept, and what went is counted.
#[test]
fn content_cap_holds_with_many_small_blocks() {
    let blocks: Vec<ContentBlock> = (0..1000)
        .map(|i| ContentBlock::text(format!("row {i:04} ok, all fine here and there\n")))
        .collect();
    let original: usize = (0..1000)
        .map(|i| format!("row {i:04} ok, all fine here and there\n").len())
        .sum();
    let out = ToolOutput::content(blocks).bounded(8192);
    let texts = text_bytes(&out);
    let total: usize = texts.iter().map(String::len).sum();
    assert!(
        total <= 8192,
        "content text is {total} bytes, over the 8192 cap"
    );
    // The first rows are kept as they were, and the cut is counted in full.
    assert_eq!(texts[0], "row 0000 ok, all fine here and there\n");
    let cut = out.truncation().expect("the cut is recorded");
    assert_eq!(cut.original_bytes, original);
    assert_eq!(
        cut.original_bytes - cut.removed_bytes,
        total - marker_bytes(&texts)
    );
}

/// The bytes of the truncation markers in `texts` (with the line breaks around them).
fn marker_bytes(texts: &[String]) -> usize {
    texts
        .iter()
        .filter_map(|t| t.find("[... truncated ").map(|at| (t, at)))
        .map(|(t, at)| {
            let end = at + t[at..].find(" lines ...]").unwrap() + " lines ...]".len();
            let before = usize::from(at > 0 && t.as_bytes()[at - 1] == b'\n');
            let after = usize::from(t.as_bytes().get(end) == Some(&b'\n'));
            end - at + before + after
        })
        .sum()
}

/// Cutting JSON keeps an integer past 64 bits exact (it was written back as a float).
#[test]
fn truncated_json_keeps_big_integers_exact() {
    #[derive(serde::Serialize)]
    struct Blob {
        id: u128,
        log: String,
    }
    let out = ToolOutput::json(&Blob {
        id: u128::MAX,
        log: "y".repeat(20_000),
    })
    .bounded(1024);
    let text = out.to_model_text();
    assert!(out.truncation().is_some());
    assert!(text.len() <= 1024);
    assert!(
        text.contains("\"id\":340282366920938463463374607431768211455"),
        "the id changed in the truncated JSON: {}",
        &text[..60]
    );
}

/// `JsonOutput::to_value` of valid JSON nested past serde_json's parse depth is its text, not
/// `null`.
#[test]
fn json_output_to_value_of_a_deep_value_is_not_null() {
    let mut value = json!(1);
    for _ in 0..200 {
        value = json!({ "next": value });
    }
    let out = safe_serialize(&value);
    let ToolOutput::Json(json) = &out else {
        panic!("expected JSON, got {out:?}");
    };
    assert!(json.as_str().len() < ToolOutput::DEFAULT_MAX_OUTPUT);
    assert_eq!(
        json.to_value(),
        Value::String(json.as_str().to_owned()),
        "to_value() of a valid {}-byte JSON text too deep to parse is not its text",
        json.as_str().len()
    );
    // As a raw value it is the text as it is.
    assert_eq!(json.as_raw().get(), json.as_str());
}

struct Panicking;
impl Serialize for Panicking {
    fn serialize<S: Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        panic!("lazy value was never loaded")
    }
}

/// A Serialize impl that panics gives an error "naming the type and the JSON pointer where it
/// failed" (README): the pointer was missing for a panic.
#[test]
fn a_panic_names_the_json_pointer() {
    #[derive(serde::Serialize)]
    struct Report {
        rows: Vec<std::collections::BTreeMap<&'static str, Panicking>>,
    }
    let report = Report {
        rows: vec![std::collections::BTreeMap::from([("lazy", Panicking)])],
    };
    let out = safe_serialize(&report);
    let message = &out.as_error().expect("an error").message;
    assert!(
        message.contains("at /rows/0/lazy"),
        "no JSON pointer in: {message}"
    );
}

struct Failing;
impl Serialize for Failing {
    fn serialize<S: Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        Err(serde::ser::Error::custom("the connection is closed"))
    }
}

/// The pointer of a failure inside a struct or tuple variant goes through the variant's key.
#[test]
fn a_failure_in_a_struct_variant_points_through_the_variant() {
    #[derive(serde::Serialize)]
    enum Status {
        Ok(u8, u8),
        Failed { reason: Failing },
        Lost(u8, Failing),
    }
    let value = vec![Status::Ok(1, 2), Status::Failed { reason: Failing }];
    let message = safe_serialize(&value)
        .as_error()
        .expect("an error")
        .message
        .clone();
    // serde_json writes it as [{"Ok": [1, 2]}, {"Failed": {"reason": ...}}]
    assert!(
        message.contains("at /1/Failed/reason:"),
        "wrong JSON pointer in: {message}"
    );
    let tuple = safe_serialize(&[Status::Lost(1, Failing)]);
    let message = &tuple.as_error().expect("an error").message;
    assert!(
        message.contains("at /0/Lost/1:"),
        "wrong JSON pointer in: {message}"
    );
}

/// `truncation()` on a text quoting a marker with a huge count doesn't overflow.
#[test]
fn truncation_of_a_text_quoting_a_huge_marker_does_not_panic() {
    let text = "[... truncated 0 of 18446744073709551615 bytes, 0 lines ...]";
    let out = ToolOutput::text(text);
    let result = std::panic::catch_unwind(|| out.truncation());
    assert!(result.is_ok(), "ToolOutput::truncation() panicked");
    assert_eq!(result.unwrap(), None);
}
