//! What a batch keeps however its calls end: exclusive calls in the calls' order even while
//! one waits for approval, a timed-out sync tool still alone (and one that never started never
//! starting), and a dynamic tool's closure run only after approval, inside the panic guard.
//! Each test failed on the code before the fix it guards.

// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use serde_json::{json, Value};
use std::sync::atomic::{AtomicIsize, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tool_runtime::pipeline::BoxFuture;
use tool_runtime::pipeline::{Approval, ApprovalRequest, Approver};
use tool_runtime::registry::ToolFlags;
use tool_runtime::{tool, DynamicTool, ErrorCode, Registry, ToolCall, ToolOutput};

// A call waiting for its approval keeps its place at the gate: a later exclusive call of the
// same batch can't run first.

static ORDER: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());

/// Drop the table (destructive: asks first).
#[tool(destructive)]
async fn drop_table() -> &'static str {
    ORDER.lock().unwrap().push("drop_table");
    "dropped"
}

/// Create the table again (writes: runs alone).
#[tool]
async fn create_table() -> &'static str {
    ORDER.lock().unwrap().push("create_table");
    "created"
}

/// An approver that takes a moment to answer, as a human (or a UI round trip) does.
struct SlowYes;

impl Approver for SlowYes {
    fn approve<'a>(&'a self, _request: &'a ApprovalRequest<'a>) -> BoxFuture<'a, Approval> {
        Box::pin(async {
            tokio::time::sleep(Duration::from_millis(50)).await;
            Approval::Allow
        })
    }
}

#[tokio::test]
async fn exclusive_calls_run_in_the_models_order_even_when_one_needs_approval() {
    let registry = Registry::builder()
        .without_inventory()
        .register_all([drop_table::TOOL, create_table::TOOL])
        .approver(SlowYes)
        .build()
        .unwrap();
    let calls = [
        ToolCall::new("c1", "drop_table", "{}"),
        ToolCall::new("c2", "create_table", "{}"),
    ];
    let outputs = registry.call_all(&calls).await;
    assert_eq!(outputs[0], ToolOutput::text("dropped"));
    assert_eq!(outputs[1], ToolOutput::text("created"));
    assert_eq!(
        *ORDER.lock().unwrap(),
        ["drop_table", "create_table"],
        "exclusive calls ran out of the calls' order: the table was created, then dropped"
    );
}

// A sync exclusive tool past its timeout keeps running on the blocking pool (it can't be
// stopped), and keeps its pass until it returns: the next exclusive call waits for it.

static RUNNING_WRITES: AtomicIsize = AtomicIsize::new(0);
static WRITE_OVERLAPS: AtomicUsize = AtomicUsize::new(0);

/// Writes for `ms` milliseconds, counting an overlap if another write is running.
fn write_for(ms: u64) -> &'static str {
    if RUNNING_WRITES.fetch_add(1, Ordering::SeqCst) != 0 {
        WRITE_OVERLAPS.fetch_add(1, Ordering::SeqCst);
    }
    std::thread::sleep(Duration::from_millis(ms));
    RUNNING_WRITES.fetch_sub(1, Ordering::SeqCst);
    "written"
}

/// Write slowly (sync, runs alone).
#[tool]
fn slow_write() -> &'static str {
    write_for(300)
}

/// Write quickly (sync, runs alone).
#[tool]
fn quick_write() -> &'static str {
    write_for(20)
}

#[tokio::test]
async fn a_timed_out_exclusive_sync_tool_still_runs_alone() {
    let registry = Registry::builder()
        .without_inventory()
        .register_all([slow_write::TOOL, quick_write::TOOL])
        .tool_timeout("slow_write", Duration::from_millis(50))
        .build()
        .unwrap();
    let calls = [
        ToolCall::new("c1", "slow_write", "{}"),
        ToolCall::new("c2", "quick_write", "{}"),
    ];
    let outputs = registry.call_all(&calls).await;
    assert_eq!(
        outputs[0].as_error().map(|e| e.code),
        Some(ErrorCode::Timeout)
    );
    assert_eq!(outputs[1], ToolOutput::text("written"));
    // Let the timed-out call finish in the background.
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(
        WRITE_OVERLAPS.load(Ordering::SeqCst),
        0,
        "an exclusive call ran beside a timed-out exclusive sync tool still running"
    );
}

// A DynamicTool's closure is called when the call runs, not while it is prepared: after
// approval, the gate and cancellation, and inside the panic guard.

fn first_word_tool(calls: Arc<AtomicUsize>) -> DynamicTool {
    DynamicTool::new(
        "first_word",
        "The first word of a text.",
        json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}),
        move |args: Value, _cx| {
            calls.fetch_add(1, Ordering::SeqCst);
            // Fine for any text but an empty one: a bug in the tool.
            let word = args["text"]
                .as_str()
                .unwrap()
                .split_whitespace()
                .next()
                .expect("no word")
                .to_owned();
            async move { ToolOutput::text(word) }
        },
    )
}

#[tokio::test]
async fn a_dynamic_tool_that_panics_gives_a_panicked_output_not_a_crashed_batch() {
    let registry = Arc::new(
        Registry::builder()
            .without_inventory()
            .dynamic(first_word_tool(Arc::default()))
            .build()
            .unwrap(),
    );
    let calls = vec![
        ToolCall::new("c1", "first_word", r#"{"text": "hello world"}"#),
        ToolCall::new("c2", "first_word", r#"{"text": ""}"#),
    ];
    let batch = tokio::spawn({
        let registry = Arc::clone(&registry);
        async move { registry.call_all(&calls).await }
    })
    .await;
    let outputs = batch.expect("call_all panicked instead of giving a `panicked` error output");
    assert_eq!(outputs[0], ToolOutput::text("hello"));
    assert_eq!(
        outputs[1].as_error().map(|e| e.code),
        Some(ErrorCode::Panicked)
    );
}

#[tokio::test]
async fn a_denied_dynamic_tool_never_runs() {
    let ran = Arc::new(AtomicUsize::new(0));
    let tool = first_word_tool(Arc::clone(&ran)).with_flags(ToolFlags {
        destructive: true,
        ..ToolFlags::default()
    });
    // No approver: destructive calls are denied.
    let registry = Registry::builder()
        .without_inventory()
        .dynamic(tool)
        .build()
        .unwrap();
    let calls = [ToolCall::new("c1", "first_word", r#"{"text": "rm -rf"}"#)];
    let outputs = registry.call_all(&calls).await;
    assert_eq!(
        outputs[0].as_error().map(|e| e.code),
        Some(ErrorCode::Denied)
    );
    assert_eq!(
        ran.load(Ordering::SeqCst),
        0,
        "the tool's closure ran although the call was denied"
    );
}

// A sync call answered before its tool started (the blocking pool was busy) never starts.

static STARTED: AtomicUsize = AtomicUsize::new(0);

/// Hold the blocking pool's only thread for a while.
#[tool(read_only)]
fn occupy() -> &'static str {
    std::thread::sleep(Duration::from_millis(200));
    "done"
}

/// Count that it started.
#[tool(read_only)]
fn count_start() -> &'static str {
    STARTED.fetch_add(1, Ordering::SeqCst);
    "started"
}

#[test]
fn a_sync_call_answered_before_it_started_never_starts() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .max_blocking_threads(1)
        .build()
        .unwrap();
    let registry = Registry::builder()
        .without_inventory()
        .register_all([occupy::TOOL, count_start::TOOL])
        .tool_timeout("count_start", Duration::from_millis(30))
        .build()
        .unwrap();
    let calls = [
        ToolCall::new("c1", "occupy", "{}"),
        ToolCall::new("c2", "count_start", "{}"),
    ];
    runtime.block_on(async {
        let outputs = registry.call_all(&calls).await;
        assert_eq!(outputs[0], ToolOutput::text("done"));
        assert_eq!(
            outputs[1].as_error().map(|e| e.code),
            Some(ErrorCode::Timeout)
        );
        // The pool's thread is free again: a queued start would have happened by now.
        tokio::time::sleep(Duration::from_millis(100)).await;
    });
    assert_eq!(
        STARTED.load(Ordering::SeqCst),
        0,
        "a call already answered `timeout` started its tool afterwards"
    );
}
