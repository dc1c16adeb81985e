//! The call pipeline's stages at their edges: the depth limit through text it didn't see
//! whole (double-encoded, a string holding JSON, lenient quoting) and without a stack
//! overflow, duplicate keys inside nested and lenient JSON, defaults and repairs in the
//! branch a value is written for, `patternProperties` under `Lenient`. Each test failed on
//! the code before the fix it guards.

// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use serde_json::{json, Value};
use std::sync::{Arc, Mutex};
use tool_runtime::pipeline::RepairKind;
use tool_runtime::pipeline::RepairPolicy;
use tool_runtime::{DynamicTool, ErrorCode, Registry, ToolOutput};

fn depth(value: &Value) -> usize {
    match value {
        Value::Array(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
        Value::Object(map) => 1 + map.values().map(depth).max().unwrap_or(0),
        _ => 0,
    }
}

/// The arguments a recording tool ran with, one entry per run.
type Seen = Arc<Mutex<Vec<Value>>>;

/// A registry under `policy` holding one dynamic tool, `name`, that records the arguments it
/// ran with.
fn recording(name: &str, schema: Value, policy: RepairPolicy) -> (Registry, Seen) {
    let seen = Seen::default();
    let record = Arc::clone(&seen);
    let tool = DynamicTool::new(name, "Records its arguments.", schema, move |args, _cx| {
        let record = Arc::clone(&record);
        async move {
            record.lock().unwrap().push(args);
            ToolOutput::text("ran")
        }
    });
    let registry = Registry::builder()
        .without_inventory()
        .repair(policy)
        .dynamic(tool)
        .build()
        .unwrap();
    (registry, seen)
}

/// A value nested `levels` arrays deep, as text.
fn nested(levels: usize) -> String {
    format!("{}1{}", "[".repeat(levels), "]".repeat(levels))
}

// ---------------------------------------------------------------------------------------------
// Depth limit through string-encoded JSON

fn any_value_schema() -> Value {
    json!({"type": "object", "properties": {"data": {}, "obj": {"type": "object"}}})
}

#[tokio::test]
async fn double_encoded_arguments_keep_the_depth_limit() {
    let (registry, seen) = recording("t", any_value_schema(), RepairPolicy::Safe);
    let inner = format!(r#"{{"data": {}}}"#, nested(100));
    let text = Value::String(inner).to_string();
    let output = registry.call("t", &text).await;
    let ran = seen.lock().unwrap().first().map(depth);
    assert!(
        output.as_error().map(|e| e.code) == Some(ErrorCode::LimitExceeded),
        "arguments 101 levels deep (limit 64) reached the tool with depth {ran:?}: {output:?}"
    );
}

#[tokio::test]
async fn a_string_holding_json_keeps_the_depth_limit() {
    let (registry, seen) = recording("t", any_value_schema(), RepairPolicy::Safe);
    let inner = format!(r#"{{"a": {}}}"#, nested(100));
    let text = json!({ "obj": inner }).to_string();
    let output = registry.call("t", &text).await;
    let ran = seen.lock().unwrap().first().map(depth);
    assert!(
        output.as_error().map(|e| e.code) == Some(ErrorCode::LimitExceeded),
        "arguments 102 levels deep (limit 64) reached the tool with depth {ran:?}: {output:?}"
    );
}

#[tokio::test]
async fn lenient_single_quotes_keep_the_depth_limit() {
    let (registry, seen) = recording("t", any_value_schema(), RepairPolicy::Lenient);
    let text = format!(r#"{{'note': 'say "hi', 'data': {}}}"#, nested(100));
    let output = registry.call("t", &text).await;
    let ran = seen.lock().unwrap().first().cloned();
    assert!(
        output.as_error().map(|e| e.code) == Some(ErrorCode::LimitExceeded),
        "arguments 101 levels deep (limit 64) reached the tool with depth {:?}: {output:?}",
        ran.as_ref().map(depth)
    );
}

// ---------------------------------------------------------------------------------------------
// Duplicate keys

#[tokio::test]
async fn a_duplicate_key_inside_a_string_holding_json_is_refused() {
    let schema = json!({"type": "object", "properties": {"opts": {
        "type": "object", "properties": {"path": {"type": "string"}}}}});
    let (registry, seen) = recording("t", schema, RepairPolicy::Safe);
    let text = json!({"opts": r#"{"path": "/safe", "path": "/etc/passwd"}"#}).to_string();
    let output = registry.call("t", &text).await;
    let ran = seen.lock().unwrap().first().cloned();
    assert!(
        output.is_error(),
        "a key written twice was resolved, the tool ran with {ran:?}"
    );
}

#[tokio::test]
async fn lenient_json_with_a_duplicate_key_is_refused() {
    let schema = json!({"type": "object", "properties": {"path": {"type": "string"}}});
    let (registry, seen) = recording("t", schema, RepairPolicy::Lenient);
    let output = registry
        .call("t", r#"{'path': '/safe', 'path': '/etc/passwd'}"#)
        .await;
    let ran = seen.lock().unwrap().first().cloned();
    assert!(
        output.is_error(),
        "a key written twice was resolved, the tool ran with {ran:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// Defaults in the branch of a tagged union

fn shapes() -> Value {
    json!({
        "type": "object",
        "properties": {"shape": {"oneOf": [
            {"type": "object",
             "properties": {"kind": {"type": "string", "const": "circle"},
                            "radius": {"type": "number", "default": 1}},
             "required": ["kind"], "additionalProperties": false},
            {"type": "object",
             "properties": {"kind": {"type": "string", "const": "square"},
                            "side": {"type": "number"}},
             "required": ["kind", "side"], "additionalProperties": false}
        ]}},
        "required": ["shape"],
        "additionalProperties": false
    })
}

#[tokio::test]
async fn a_default_is_filled_only_in_the_branch_the_value_is_written_for() {
    let (registry, _) = recording("draw", shapes(), RepairPolicy::Safe);
    let (output, report) = registry
        .call_with_report("draw", r#"{"shape": {"kind": "square", "side": 2}}"#)
        .await;
    assert!(
        !output.is_error(),
        "a valid square was refused after {:?} was filled: {}",
        report.filled,
        output.to_model_text()
    );
}

// ---------------------------------------------------------------------------------------------
// Coercion following the wrong branch

#[tokio::test]
async fn a_valid_value_is_not_coerced_for_another_branch() {
    let schema = json!({
        "type": "object",
        "properties": {"target": {"anyOf": [
            {"type": "object", "properties": {"id": {"type": "integer"}},
             "required": ["id"], "additionalProperties": false},
            {"type": "object", "properties": {"id": {"type": "string"}, "scope": {"type": "string"}},
             "required": ["id", "scope"], "additionalProperties": false}
        ]}},
        "required": ["target"]
    });
    let (registry, seen) = recording("t", schema, RepairPolicy::Safe);
    let (output, report) = registry
        .call_with_report("t", r#"{"target": {"id": "007", "scope": "user"}}"#)
        .await;
    let ran = seen.lock().unwrap().first().cloned();
    assert_eq!(
        ran,
        Some(json!({"target": {"id": "007", "scope": "user"}})),
        "a valid call was changed by {:?}: {output:?}",
        report.repairs
    );
}

// ---------------------------------------------------------------------------------------------
// Lenient drops properties the schema allows by pattern

#[tokio::test]
async fn lenient_keeps_properties_allowed_by_a_pattern() {
    let schema = json!({
        "type": "object",
        "properties": {"name": {"type": "string"}},
        "patternProperties": {"^x-": {"type": "string"}},
        "additionalProperties": false
    });
    let (registry, seen) = recording("t", schema, RepairPolicy::Lenient);
    let (_, report) = registry
        .call_with_report("t", r#"{"name": "a", "x-trace": "b"}"#)
        .await;
    let ran = seen.lock().unwrap().first().cloned();
    assert!(
        !report
            .repairs
            .iter()
            .any(|r| r.kind == RepairKind::DroppedUnknown),
        "a valid property was dropped: {:?}; the tool ran with {ran:?}",
        report.repairs
    );
}

// ---------------------------------------------------------------------------------------------
// Lenient text the depth scan misreads, deep enough to matter

const CRASH_CHILD: &str = "PIPELINE_EDGES_CRASH_CHILD";

#[test]
fn lenient_deep_input_is_refused_without_crashing_the_process() {
    if std::env::var_os(CRASH_CHILD).is_some() {
        // In the child: the call a hostile model sends.
        let schema = json!({"type": "object", "properties": {"data": {}}});
        let (registry, _) = recording("t", schema, RepairPolicy::Lenient);
        let text = format!(r#"{{'note': '"', 'data': {}"#, "[".repeat(500_000));
        let output = std::thread::Builder::new()
            .stack_size(8 << 20)
            .spawn(move || registry.call_blocking("t", &text))
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(
            output.as_error().map(|e| e.code),
            Some(ErrorCode::LimitExceeded)
        );
        return;
    }
    let status = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "lenient_deep_input_is_refused_without_crashing_the_process",
            "--exact",
            "--nocapture",
        ])
        .env(CRASH_CHILD, "1")
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "a 500,000-deep lenient call (1 MiB limit not reached) ended the process: {:?}\n{}",
        status.status,
        String::from_utf8_lossy(&status.stderr)
            .lines()
            .filter(|l| l.contains("overflow") || l.contains("panicked"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// Issue 17 item 12: a number is an integer by its JSON text, not by the float it rounds to.
/// `2.9999999999999999` parses to 3.0, which JSON Schema's `integer` accepted: the tool got 3.
#[test]
fn an_integer_is_decided_by_its_text() {
    let tool = DynamicTool::new(
        "page",
        "A page of results.",
        json!({"type": "object", "properties": {
            "n": {"type": "integer"},
            "x": {"type": "number"},
            "filter": {"type": "object", "properties": {"limit": {"type": "integer"}}}
        }}),
        |args, _cx| async move { ToolOutput::json(&args) },
    );
    let registry = Registry::builder()
        .without_inventory()
        .dynamic(tool)
        .build()
        .unwrap();
    for refused in [
        r#"{"n": 2.9999999999999999}"#,
        r#"{"n": 1e-400}"#,
        r#"{"n": "2.9999999999999999"}"#,
        // Inside a string holding JSON, repaired into the object it holds.
        r#"{"filter": "{\"limit\": 2.9999999999999999}"}"#,
    ] {
        let output = registry.call_blocking("page", refused);
        let error = output
            .as_error()
            .unwrap_or_else(|| panic!("{refused}: {output:?}"));
        assert!(
            error.message.contains("expected integer"),
            "{refused}: {}",
            error.message
        );
    }
    for (accepted, seen) in [
        (r#"{"n": 3.0}"#, r#"{"n":3}"#),
        (r#"{"n": 30e-1}"#, r#"{"n":3}"#),
        (r#"{"x": 2.9999999999999999}"#, r#"{"x":3.0}"#),
    ] {
        assert_eq!(
            registry.call_blocking("page", accepted).to_model_text(),
            seen
        );
    }
}
