//! The attack corpus (`tests/attacks/*.jsonl`), replayed in-process: every hostile or broken
//! input goes through `registry.call`, and every file again as one `call_all` batch, and
//! the batches of `batches.jsonl` through a provider router and `answer_all`. Each input must
//! get its expected structured error or result, no call may panic the test, every call id
//! gets exactly one output, every output stays under the cap, and memory stays bounded.
//! (`tool-examples/tests/attacks.rs` replays a sample through the CLI and the MCP server.)

// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use tool_test_support::attacks;

use attacks::{check, AttackWorkspace, Entry, Expect};
use serde::Serialize;
use std::time::{Duration, Instant};
use tool_runtime::pipeline::{Approval, ApprovalRequest};
use tool_runtime::router;
use tool_runtime::{tool, Provider, Registry, ToolCall, ToolError, ToolOutput};

// ---- the misbehaving tools the corpus calls beside the example tools ----------------------

/// Echo a text back.
#[tool(read_only)]
fn echo(
    /// The text.
    text: String,
) -> String {
    text
}

/// Return any JSON value back.
#[tool(read_only)]
fn anything(
    /// Any JSON value.
    value: serde_json::Value,
) -> serde_json::Value {
    value
}

/// Count tags.
#[tool(read_only)]
fn list_tags(
    /// The tags.
    tags: Vec<String>,
) -> usize {
    tags.len()
}

/// Echo numbers of each width back.
#[tool(read_only)]
fn numbers(
    /// A u8.
    small: Option<u8>,
    /// An i8.
    tiny: Option<i8>,
    /// A u32.
    count: Option<u32>,
    /// A u64.
    big: Option<u64>,
    /// An i64.
    signed: Option<i64>,
    /// An f64.
    real: Option<f64>,
) -> serde_json::Value {
    serde_json::json!({"small": small, "tiny": tiny, "count": count, "big": big, "signed": signed, "real": real})
}

/// Never finish.
#[tool(read_only)]
async fn never_returns() -> String {
    std::future::pending::<()>().await;
    unreachable!()
}

/// Block the thread far longer than the timeout.
#[tool(read_only)]
fn sleeps() -> String {
    std::thread::sleep(Duration::from_secs(2));
    "woke".into()
}

/// Return a huge text.
#[tool(read_only)]
fn flood_text(
    /// How many MiB.
    mib: usize,
) -> String {
    "0123456789abcde\n".repeat(mib << 16)
}

/// Return a huge array.
#[tool(read_only)]
fn flood_json(
    /// How many items.
    items: u32,
) -> Vec<u32> {
    (0..items).collect()
}

/// Fail with a huge message.
#[tool(read_only)]
fn flood_error(
    /// How many MiB.
    mib: usize,
) -> Result<(), ToolError> {
    Err(ToolError::new("e".repeat(mib << 20)))
}

/// Panic.
#[tool(read_only)]
fn panics(
    /// The panic message.
    message: String,
) -> String {
    panic!("{message}")
}

/// Return NaN.
#[tool(read_only)]
fn not_a_number() -> f64 {
    f64::NAN
}

/// A value whose `Serialize` fails.
struct Unserializable;

impl Serialize for Unserializable {
    fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        Err(serde::ser::Error::custom("this value can't be written"))
    }
}

/// Return a value that can't be serialized.
#[tool(read_only)]
fn bad_serialize() -> Unserializable {
    Unserializable
}

/// Return JSON nested `depth` levels deep.
#[tool(read_only)]
fn deep_output(
    /// How deep.
    #[schemars(range(max = 1000))]
    depth: usize,
) -> serde_json::Value {
    (0..depth).fold(serde_json::json!("bottom"), |v, _| serde_json::json!([v]))
}

const ATTACK_TOOLS: &[tool_runtime::registry::ToolDef] = &[
    echo::TOOL,
    anything::TOOL,
    list_tags::TOOL,
    numbers::TOOL,
    never_returns::TOOL,
    sleeps::TOOL,
    flood_text::TOOL,
    flood_json::TOOL,
    flood_error::TOOL,
    panics::TOOL,
    not_a_number::TOOL,
    bad_serialize::TOOL,
    deep_output::TOOL,
];

/// The example tools on the attack workspace, plus the tools above; an approver that allows
/// everything (so `exec_command` runs, and shell metacharacters must stay literal), and short
/// timeouts on the tools that never finish.
fn registry(workspace: &AttackWorkspace) -> Registry {
    ATTACK_TOOLS
        .iter()
        .fold(
            tool_examples::builder(workspace.path().to_path_buf(), Default::default()),
            |b, &t| b.register(t),
        )
        .approver(|_: &ApprovalRequest<'_>| Approval::Allow)
        .tool_timeout("never_returns", Duration::from_millis(200))
        .tool_timeout("sleeps", Duration::from_millis(100))
        .build()
        .unwrap()
}

/// The output cap (the registry's default) and room for the retry hint beside the message.
const MAX_TEXT: usize = ToolOutput::DEFAULT_MAX_OUTPUT + 1024;

/// Checks one output against what the corpus expects; `None` when it matches.
fn verdict(expect: &Expect, output: &ToolOutput) -> Result<(), String> {
    let text = match output.as_error() {
        Some(error) => error.message.clone(),
        None => output.to_model_text(),
    };
    let code = output.as_error().map(|e| {
        serde_json::to_value(e.code)
            .unwrap()
            .as_str()
            .unwrap()
            .to_owned()
    });
    check(expect, output.is_error(), code.as_deref(), &text, true)?;
    let model_text = output.to_model_text();
    if model_text.len() > MAX_TEXT {
        return Err(format!(
            "output of {} bytes, over the cap",
            model_text.len()
        ));
    }
    Ok(())
}

/// The tests of this binary run one at a time: the peak memory one of them checks is the
/// whole process's, and tests running beside it (a thousand-call batch, 10 MB inputs) would
/// add theirs to it.
async fn alone() -> tokio::sync::MutexGuard<'static, ()> {
    static ALONE: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
    ALONE.lock().await
}

fn no_file_check(workspace: &AttackWorkspace, expect: &Expect) -> Result<(), String> {
    match &expect.no_file {
        Some(file) if workspace.path().join(file).exists() => {
            Err(format!("{file} was created: a shell ran"))
        }
        _ => Ok(()),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_attack_gets_its_expected_outcome_through_call() {
    let _alone = alone().await;
    let corpus = attacks::load();
    let singles: Vec<&(String, Entry)> = corpus.iter().filter(|(_, e)| e.batch.is_none()).collect();
    assert!(singles.len() >= 150, "only {} single inputs", singles.len());
    let workspace = AttackWorkspace::new();
    let registry = registry(&workspace);

    let mut failures = Vec::new();
    for (file, entry) in &singles {
        let expect = entry.expect.clone().unwrap_or_default();
        let started = Instant::now();
        let output = registry
            .call(&entry.tool_name(), &entry.argument_text())
            .await;
        let result = verdict(&expect, &output)
            .and_then(|()| no_file_check(&workspace, &expect))
            .and_then(|()| {
                // Nothing hangs: the slowest input is a 10 MB string or a killed program.
                let took = started.elapsed();
                if took > Duration::from_secs(20) {
                    Err(format!("took {took:?}"))
                } else {
                    Ok(())
                }
            });
        if let Err(why) = result {
            failures.push(format!("{file}: {}: {why}", entry.name));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} attacks got the wrong outcome:\n{}",
        failures.len(),
        singles.len(),
        failures.join("\n")
    );
}

/// Each file as one batch: one output per call, in order, each the outcome it gets alone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_file_as_one_batch_gets_one_output_per_call() {
    let _alone = alone().await;
    let workspace = AttackWorkspace::new();
    let registry = registry(&workspace);
    let corpus = attacks::load();
    let mut files: Vec<&str> = corpus.iter().map(|(f, _)| f.as_str()).collect();
    files.dedup();
    let mut failures = Vec::new();
    for file in files {
        let entries: Vec<&Entry> = corpus
            .iter()
            .filter(|(f, e)| f == file && e.batch.is_none())
            .map(|(_, e)| e)
            .collect();
        let calls: Vec<ToolCall> = entries
            .iter()
            .enumerate()
            .map(|(i, e)| ToolCall::new(format!("{file}_{i}"), e.tool_name(), e.argument_text()))
            .collect();
        let outputs = registry.call_all(&calls).await;
        assert_eq!(outputs.len(), calls.len(), "{file}: one output per call");
        for (entry, output) in entries.iter().zip(&outputs) {
            let expect = entry.expect.clone().unwrap_or_default();
            if let Err(why) = verdict(&expect, output) {
                failures.push(format!("{file} (batch): {}: {why}", entry.name));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `batches.jsonl`: whole model messages (1,000 calls, reused and empty ids) routed from a
/// provider's response, dispatched, and formatted back: exactly one result per call, in the
/// calls' order, each quoting its call's id.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn batches_from_a_router_get_exactly_one_result_per_call() {
    let _alone = alone().await;
    let workspace = AttackWorkspace::new();
    let registry = registry(&workspace);
    let batches: Vec<Entry> = attacks::load()
        .into_iter()
        .filter_map(|(_, e)| e.batch.is_some().then_some(e))
        .collect();
    assert!(batches.len() >= 5);
    for entry in &batches {
        let batch = entry.batch.as_ref().unwrap();
        let expected = batch.expand();
        let response = batch.response();
        let format = match batch.format.as_str() {
            "anthropic" => Provider::Anthropic,
            _ => Provider::OpenAiChat,
        };
        let turn =
            router::route(format, &response).unwrap_or_else(|e| panic!("{}: {e}", entry.name));
        assert_eq!(turn.calls.len(), expected.len(), "{}", entry.name);

        // Every call gets one output, in order, with the outcome its template expects.
        let started = Instant::now();
        let outputs = registry.call_all(&turn.calls).await;
        assert_eq!(outputs.len(), expected.len(), "{}", entry.name);
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "{}: took {:?}",
            entry.name,
            started.elapsed()
        );
        for (i, ((id, call), output)) in expected.iter().zip(&outputs).enumerate() {
            if batch.ids != "empty" {
                assert_eq!(&turn.calls[i].id, id, "{}: call {i}", entry.name);
            }
            if let Err(why) = verdict(&call.expect, output) {
                panic!("{}: call {i} ({}): {why}", entry.name, call.tool);
            }
        }

        // Formatted for the provider: exactly one result per call, in order, ids quoted back.
        let dialect = turn.provider;
        let formatted = registry.answer_all(dialect, &turn.calls).await;
        let ids: Vec<String> = match dialect {
            Provider::Anthropic => formatted.messages[0]["content"]
                .as_array()
                .unwrap()
                .iter()
                .map(|b| b["tool_use_id"].as_str().unwrap().to_owned())
                .collect(),
            _ => formatted
                .messages
                .iter()
                .map(|m| m["tool_call_id"].as_str().unwrap().to_owned())
                .collect(),
        };
        let want: Vec<&str> = turn.calls.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, want, "{}: one result per call, in order", entry.name);
        assert!(
            formatted.problems.is_empty(),
            "{}: {:?}",
            entry.name,
            formatted.problems
        );
    }
}

/// Hostile inputs cost bounded work: 300,000 wrong items give at most 100 violations, and a
/// 1 MiB tool name is not compared against every tool for suggestions (both took seconds).
#[tokio::test]
async fn hostile_inputs_cost_bounded_work() {
    let _alone = alone().await;
    let workspace = AttackWorkspace::new();
    let registry = registry(&workspace);
    let items = format!("{{\"tags\": [0{}]}}", ",1".repeat(300_000));
    let output = registry.call("list_tags", &items).await;
    let error = output.as_error().unwrap();
    assert!(
        (1..=100).contains(&error.violations.len()),
        "{}",
        error.violations.len()
    );
    let started = Instant::now();
    let output = registry.call(&"x".repeat(1 << 20), "{}").await;
    assert!(output.as_error().unwrap().suggestions.is_empty());
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
}

/// The registry is still fine after everything above, and memory stayed bounded: the largest
/// inputs are 10 MB and the largest tool result 64 MiB, so a peak far above that means
/// something was copied without bound.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn memory_stays_bounded_and_the_registry_keeps_working() {
    let _alone = alone().await;
    // The peak from here on is this test's own (Linux: "5" resets `VmHWM`).
    let _ = tool_test_support::memory::reset_peak();
    let workspace = AttackWorkspace::new();
    let registry = registry(&workspace);
    for (_, entry) in attacks::load()
        .iter()
        .filter(|(f, _)| f == "huge" || f == "execution")
    {
        let _ = registry
            .call(&entry.tool_name(), &entry.argument_text())
            .await;
    }
    let output = registry.call("echo", r#"{"text": "still here"}"#).await;
    assert_eq!(output.to_model_text(), "still here");
    if let Some(peak) = tool_test_support::memory::peak_kib() {
        eprintln!("peak resident memory: {} MiB", peak / 1024);
        assert!(peak < 512 * 1024, "peak resident memory {peak} KiB");
    }
}
