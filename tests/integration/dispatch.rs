//! Running calls: batches in order, the read/write gate, the blocking pool, timeouts, panics,
//! cancellation, approval and the concurrency limit. The tools live in this file, so only this
//! test binary collects them.

// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use serde_json::json;
use std::sync::atomic::{AtomicIsize, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tool_runtime::pipeline::CancellationToken;
use tool_runtime::pipeline::{Approval, ApprovalPolicy, ApprovalRequest};
use tool_runtime::{tool, ErrorCode, Registry, ToolCall, ToolOutput};
use tool_test_support::spans::{Capture, Span};

/// Running calls: each parallel call adds 1, each exclusive call adds `EXCLUSIVE`. An exclusive
/// call that starts while anything runs, or a parallel call that starts during an exclusive
/// one, is an overlap.
static RUNNING: AtomicIsize = AtomicIsize::new(0);
static OVERLAPS: AtomicUsize = AtomicUsize::new(0);
const EXCLUSIVE: isize = 1_000_000;

fn enter(weight: isize) {
    let before = RUNNING.fetch_add(weight, Ordering::SeqCst);
    if (weight == EXCLUSIVE && before != 0) || (weight == 1 && before >= EXCLUSIVE) {
        OVERLAPS.fetch_add(1, Ordering::SeqCst);
    }
}

fn leave(weight: isize) {
    RUNNING.fetch_sub(weight, Ordering::SeqCst);
}

/// Read something (parallel-safe: read-only).
#[tool(read_only)]
async fn peek(
    /// Echoed back.
    n: u64,
) -> u64 {
    enter(1);
    tokio::task::yield_now().await;
    leave(1);
    n
}

/// Write something, synchronously (runs alone).
#[tool]
fn poke(
    /// Echoed back.
    n: u64,
) -> u64 {
    enter(EXCLUSIVE);
    std::thread::yield_now();
    leave(EXCLUSIVE);
    n
}

/// Write something, asynchronously (runs alone).
#[tool]
async fn poke_async(
    /// Echoed back.
    n: u64,
) -> u64 {
    enter(EXCLUSIVE);
    tokio::task::yield_now().await;
    leave(EXCLUSIVE);
    n
}

fn gate_registry() -> Registry {
    Registry::builder()
        .only(["peek", "poke", "poke_async"])
        .build()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_thousand_mixed_calls_come_back_in_order_and_exclusive_calls_never_overlap() {
    let registry = gate_registry();
    let calls: Vec<ToolCall> = (0..10_000u64)
        .map(|i| {
            let name = match i % 10 {
                0 => "poke",
                5 => "poke_async",
                _ => "peek",
            };
            // Every 97th call is invalid: it must still get its own output, in its place.
            let args = if i % 97 == 0 {
                json!({"n": "not a number"})
            } else {
                json!({ "n": i })
            };
            ToolCall::new(format!("call_{i}"), name, args.to_string())
        })
        .collect();
    let outputs = registry.call_all(&calls).await;
    assert_eq!(outputs.len(), calls.len());
    for (i, output) in outputs.iter().enumerate() {
        if i % 97 == 0 {
            assert_eq!(
                output.as_error().map(|e| e.code),
                Some(ErrorCode::InvalidArguments),
                "call {i}"
            );
        } else {
            assert_eq!(output, &ToolOutput::json(&i), "call {i}");
        }
    }
    assert_eq!(
        OVERLAPS.load(Ordering::SeqCst),
        0,
        "an exclusive call overlapped another call"
    );
}

/// Sleep for a while, asynchronously.
#[tool(read_only)]
async fn nap(
    /// How long, in milliseconds.
    ms: u64,
) -> &'static str {
    tokio::time::sleep(Duration::from_millis(ms)).await;
    "rested"
}

/// Sleep for a while, blocking the thread.
#[tool(read_only)]
fn doze(
    /// How long, in milliseconds.
    ms: u64,
) -> &'static str {
    std::thread::sleep(Duration::from_millis(ms));
    "rested"
}

#[tokio::test]
async fn a_sleeping_tool_times_out_and_the_registry_goes_on() {
    let registry = Registry::builder()
        .only(["nap", "doze"])
        .tool_timeout("nap", Duration::from_millis(50))
        .timeout(Duration::from_millis(100))
        .build()
        .unwrap();
    let started = Instant::now();
    let output = registry.call("nap", r#"{"ms": 60000}"#).await;
    assert_eq!(
        output.as_error().map(|e| e.code),
        Some(ErrorCode::Timeout),
        "{output:?}"
    );
    assert!(
        output.to_model_text().contains("timed out after 50 ms"),
        "{output:?}"
    );
    // A sync tool can't be interrupted, but the call still ends on time.
    let output = registry.call("doze", r#"{"ms": 2000}"#).await;
    assert_eq!(output.as_error().map(|e| e.code), Some(ErrorCode::Timeout));
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(
        registry.call("nap", r#"{"ms": 1}"#).await,
        ToolOutput::text("rested")
    );
}

/// Fail in the worst way.
#[tool(read_only)]
fn explode(
    /// What to say while failing.
    why: String,
) -> String {
    panic!("boom: {why}")
}

/// Fail in the worst way, asynchronously.
#[tool(read_only)]
async fn explode_async(
    /// What to say while failing.
    why: String,
) -> String {
    tokio::task::yield_now().await;
    panic!("async boom: {why}")
}

#[tokio::test]
async fn a_panicking_tool_gives_an_error_output_and_the_registry_keeps_working() {
    let registry = Registry::builder()
        .only(["explode", "explode_async", "peek"])
        .build()
        .unwrap();
    let calls = [
        ToolCall::new("a", "explode", r#"{"why": "sync"}"#),
        ToolCall::new("b", "explode_async", r#"{"why": "async"}"#),
        ToolCall::new("c", "peek", r#"{"n": 7}"#),
    ];
    let outputs = registry.call_all(&calls).await;
    let first = outputs[0].as_error().unwrap();
    assert_eq!(first.code, ErrorCode::Panicked);
    assert!(first.message.contains("boom: sync"), "{}", first.message);
    assert!(outputs[1]
        .as_error()
        .unwrap()
        .message
        .contains("async boom: async"));
    assert_eq!(outputs[2], ToolOutput::json(&7));
    // call_blocking catches it too.
    assert_eq!(
        registry
            .call("explode", r#"{"why": "again"}"#)
            .await
            .as_error()
            .unwrap()
            .code,
        ErrorCode::Panicked
    );
    let blocking =
        std::thread::spawn(move || registry.call_blocking("explode", r#"{"why": "blocking"}"#))
            .join()
            .unwrap();
    assert_eq!(blocking.as_error().unwrap().code, ErrorCode::Panicked);
}

/// Which thread ran this tool.
#[tool(read_only)]
fn which_thread() -> String {
    format!("{:?}", std::thread::current().id())
}

/// Which thread ran this async tool.
#[tool(read_only)]
async fn which_thread_async() -> String {
    format!("{:?}", std::thread::current().id())
}

#[tokio::test]
async fn sync_tools_run_on_the_blocking_pool_not_the_executor() {
    let registry = Registry::builder()
        .only(["which_thread", "which_thread_async"])
        .build()
        .unwrap();
    let here = format!("{:?}", std::thread::current().id());
    assert_eq!(
        registry
            .call("which_thread_async", "{}")
            .await
            .to_model_text(),
        here
    );
    assert_ne!(
        registry.call("which_thread", "{}").await.to_model_text(),
        here
    );
}

/// Delete everything (destructive).
#[tool(destructive)]
fn wipe(
    /// What to wipe.
    target: String,
) -> String {
    format!("wiped {target}")
}

#[tokio::test]
async fn destructive_tools_need_approval() {
    let output = Registry::builder()
        .only(["wipe"])
        .build()
        .unwrap()
        .call("wipe", r#"{"target": "disk"}"#)
        .await;
    let error = output.as_error().unwrap();
    assert_eq!(error.code, ErrorCode::Denied);
    assert!(error.message.contains("no approver"), "{}", error.message);

    let asked = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&asked);
    let registry = Registry::builder()
        .only(["wipe", "peek"])
        .approver(move |request: &ApprovalRequest<'_>| {
            log.lock().unwrap().push(request.arguments.to_owned());
            if request.arguments.contains("disk") {
                Approval::deny("the disk holds the only copy")
            } else {
                Approval::Allow
            }
        })
        .build()
        .unwrap();
    let denied = registry.call("wipe", r#"{"target": "disk"}"#).await;
    assert_eq!(
        denied.to_model_text(),
        "The call to wipe was denied: the disk holds the only copy"
    );
    assert_eq!(
        registry.call("wipe", r#"{"target": "tmp"}"#).await,
        ToolOutput::text("wiped tmp")
    );
    // Read-only tools don't ask; a call that fails validation never reaches the approver.
    assert_eq!(
        registry.call("peek", r#"{"n": 1}"#).await,
        ToolOutput::json(&1)
    );
    assert!(registry.call("wipe", "{}").await.is_error());
    assert_eq!(asked.lock().unwrap().len(), 2);
    // call_blocking asks too.
    let registry = Arc::new(registry);
    let blocking = std::thread::spawn({
        let registry = Arc::clone(&registry);
        move || registry.call_blocking("wipe", r#"{"target": "disk"}"#)
    })
    .join()
    .unwrap();
    assert_eq!(blocking.as_error().unwrap().code, ErrorCode::Denied);
}

#[tokio::test]
async fn approval_policies() {
    let never = Registry::builder()
        .only(["wipe"])
        .approval(ApprovalPolicy::Never)
        .build()
        .unwrap();
    assert_eq!(
        never.call("wipe", r#"{"target": "x"}"#).await,
        ToolOutput::text("wiped x")
    );
    let every = Registry::builder()
        .only(["peek"])
        .approval(ApprovalPolicy::Every)
        .approver(|_: &ApprovalRequest<'_>| Approval::deny("read-only mode is off"))
        .build()
        .unwrap();
    assert_eq!(
        every
            .call("peek", r#"{"n": 1}"#)
            .await
            .as_error()
            .unwrap()
            .code,
        ErrorCode::Denied
    );
}

#[tokio::test]
async fn cancelling_a_batch_ends_every_unfinished_call() {
    let registry = Registry::builder().only(["nap", "peek"]).build().unwrap();
    let cancel = CancellationToken::new();
    let trigger = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(50)).await;
        trigger.cancel();
    });
    let calls = [
        ToolCall::new("quick", "peek", r#"{"n": 1}"#),
        ToolCall::new("slow", "nap", r#"{"ms": 60000}"#),
        ToolCall::new("slow2", "nap", r#"{"ms": 60000}"#),
    ];
    let started = Instant::now();
    let outputs = registry.call_all(&calls).until(&cancel).await;
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(outputs[0], ToolOutput::json(&1));
    assert_eq!(outputs[1].as_error().unwrap().code, ErrorCode::Cancelled);
    assert_eq!(outputs[2].as_error().unwrap().code, ErrorCode::Cancelled);
}

static IN_FLIGHT: AtomicUsize = AtomicUsize::new(0);
static MOST_IN_FLIGHT: AtomicUsize = AtomicUsize::new(0);

/// Take a little time, counting how many run at once.
#[tool(read_only)]
async fn crowd() -> &'static str {
    let now = IN_FLIGHT.fetch_add(1, Ordering::SeqCst) + 1;
    MOST_IN_FLIGHT.fetch_max(now, Ordering::SeqCst);
    tokio::time::sleep(Duration::from_millis(10)).await;
    IN_FLIGHT.fetch_sub(1, Ordering::SeqCst);
    "done"
}

#[tokio::test]
async fn the_concurrency_limit_holds() {
    let registry = Registry::builder()
        .only(["crowd"])
        .concurrency_limit(3)
        .build()
        .unwrap();
    let calls: Vec<ToolCall> = (0..20)
        .map(|i| ToolCall::new(format!("c{i}"), "crowd", "{}"))
        .collect();
    let outputs = registry.call_all(calls).await;
    assert!(outputs.iter().all(|o| o == &ToolOutput::text("done")));
    let most = MOST_IN_FLIGHT.load(Ordering::SeqCst);
    assert!((2..=3).contains(&most), "{most} ran at once");
}

#[test]
fn a_timeout_or_parallel_setting_for_an_unknown_tool_is_a_build_error() {
    let error = Registry::builder()
        .only(["nap"])
        .tool_timeout("napp", Duration::from_secs(1))
        .build()
        .unwrap_err();
    assert!(
        error.to_string().contains("`.timeout(...)` names `napp`"),
        "{error}"
    );
}

#[test]
fn each_call_has_an_execute_tool_span_named_after_opentelemetry() {
    let registry = Registry::builder()
        .only(["peek", "explode"])
        .build()
        .unwrap();
    let capture = Capture::default();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    tracing::subscriber::with_default(capture.clone(), || {
        runtime.block_on(async {
            registry
                .call_all([ToolCall::new("call_9", "peek", r#"{"n": 3}"#)])
                .await;
            registry
                .call_all([ToolCall::new("call_10", "explode", r#"{"why": "x"}"#)])
                .await;
        });
        // `call_blocking` too: a sync tool run inline, an async one, an unknown name.
        registry.call_blocking("explode", r#"{"why": "y"}"#);
        registry.call_blocking("peek", r#"{"n": 4}"#);
        registry.call_blocking("no_such_tool", "{}");
    });
    let spans = capture.spans();
    let tool_spans: Vec<&Span> = spans
        .iter()
        .filter(|span| span.name == "execute_tool")
        .collect();
    assert_eq!(tool_spans.len(), 5, "{tool_spans:?}");
    let field = |span: &Span, key: &str| span.field(key);
    let ok = tool_spans[0];
    assert_eq!(field(ok, "otel.name"), "execute_tool peek");
    assert_eq!(field(ok, "gen_ai.operation.name"), "execute_tool");
    assert_eq!(field(ok, "gen_ai.tool.name"), "peek");
    assert_eq!(field(ok, "gen_ai.tool.call.id"), "call_9");
    assert_eq!(field(ok, "outcome"), "ok");
    assert!(!field(ok, "duration_ms").is_empty());
    let failed = tool_spans[1];
    assert_eq!(field(failed, "outcome"), "error");
    assert_eq!(field(failed, "error.type"), "panicked");
    let blocking: Vec<(String, String, String)> = tool_spans[2..]
        .iter()
        .map(|span| {
            (
                field(span, "otel.name"),
                field(span, "outcome"),
                field(span, "error.type"),
            )
        })
        .collect();
    assert_eq!(
        blocking,
        [
            (
                "execute_tool explode".into(),
                "error".into(),
                "panicked".into()
            ),
            ("execute_tool peek".into(), "ok".into(), String::new()),
            (
                "execute_tool no_such_tool".into(),
                "error".into(),
                "unknown_tool".into()
            ),
        ]
    );
    assert!(tool_spans[2..]
        .iter()
        .all(|span| !field(span, "duration_ms").is_empty()));
}

/// Two calls meet here: they finish only if they run at the same time.
#[tool(parallel)]
async fn rendezvous(meeting: tool_runtime::State<tokio::sync::Barrier>) -> &'static str {
    meeting.wait().await;
    "met"
}

/// The same, but read-only tools marked to run alone can never meet.
#[tool(read_only, parallel = false)]
async fn lonely_rendezvous(meeting: tool_runtime::State<tokio::sync::Barrier>) -> &'static str {
    meeting.wait().await;
    "met"
}

/// Sleep past the timeout set on the attribute.
#[tool(read_only, timeout = "50ms")]
async fn impatient(
    /// How long, in milliseconds.
    ms: u64,
) -> &'static str {
    tokio::time::sleep(Duration::from_millis(ms)).await;
    "rested"
}

#[tokio::test]
async fn parallel_and_timeout_on_the_attribute() {
    let registry = Registry::builder()
        .only(["rendezvous", "lonely_rendezvous", "impatient"])
        .state(tokio::sync::Barrier::new(2))
        .timeout(Duration::from_millis(300))
        .build()
        .unwrap();
    let together = [
        ToolCall::new("a", "rendezvous", "{}"),
        ToolCall::new("b", "rendezvous", "{}"),
    ];
    assert_eq!(
        registry.call_all(&together).await,
        [ToolOutput::text("met"), ToolOutput::text("met")]
    );
    let apart = [
        ToolCall::new("a", "lonely_rendezvous", "{}"),
        ToolCall::new("b", "lonely_rendezvous", "{}"),
    ];
    // Run one after the other, the first waits alone until its timeout. (Tokio's barrier
    // still counts that arrival, so the second then gets through.)
    let outputs = registry.call_all(&apart).await;
    assert_eq!(
        outputs[0].as_error().map(|e| e.code),
        Some(ErrorCode::Timeout),
        "{outputs:?}"
    );
    let output = registry.call("impatient", r#"{"ms": 5000}"#).await;
    assert!(
        output.to_model_text().contains("timed out after 50 ms"),
        "{output:?}"
    );
}

/// How many times `refuse_odd` has run.
static REFUSALS_RUN: AtomicUsize = AtomicUsize::new(0);

/// Refuses an odd number with the error code a bad call gets, as a tool may.
#[tool]
fn refuse_odd(
    /// Must be even.
    n: u64,
) -> Result<u64, tool_runtime::ToolError> {
    REFUSALS_RUN.fetch_add(1, Ordering::SeqCst);
    if n % 2 == 1 {
        return Err(tool_runtime::ToolError::with_code(
            ErrorCode::InvalidArguments,
            "n must be even",
        ));
    }
    Ok(n)
}

#[test]
fn a_tool_refusing_its_arguments_runs_once() {
    // The error looks like the one a call refused before running gets; the tool must not be
    // run again on the path that repairs or explains refused calls.
    let registry = Registry::builder().only(["refuse_odd"]).build().unwrap();
    for slow_path in [false, true] {
        REFUSALS_RUN.store(0, Ordering::SeqCst);
        // A name in another case is looked up past the common case, on the slow path.
        let name = if slow_path {
            "Refuse_Odd"
        } else {
            "refuse_odd"
        };
        let output = registry.call_blocking(name, r#"{"n": 3}"#);
        let error = output.as_error().expect("an error output");
        assert_eq!(error.code, ErrorCode::InvalidArguments);
        assert!(
            error.message.contains("n must be even"),
            "{}",
            error.message
        );
        assert_eq!(
            REFUSALS_RUN.load(Ordering::SeqCst),
            1,
            "slow path: {slow_path}"
        );
    }
}

#[test]
fn call_blocking_keeps_a_sync_tools_timeout() {
    let registry = Registry::builder()
        .only(["doze"])
        .tool_timeout("doze", Duration::from_millis(100))
        .build()
        .unwrap();
    let started = Instant::now();
    let output = registry.call_blocking("doze", r#"{"ms": 2000}"#);
    assert_eq!(
        output.as_error().map(|e| e.code),
        Some(ErrorCode::Timeout),
        "{output:?}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(
        registry.call_blocking("doze", r#"{"ms": 1}"#),
        ToolOutput::text("rested")
    );
}
