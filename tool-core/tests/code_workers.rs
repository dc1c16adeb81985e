//! Code mode in worker processes (`CodeSettings::workers`): the cases of `code/cases.rs`, each
//! snippet run by Monty's `monty` worker binary through Monty's own pool, and what only
//! processes can show: a worker that dies mid-run is an error result, and the host goes on.

// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use serde_json::json;
use std::sync::Arc;
use tool_runtime::code::{CodeSettings, WorkerPool};
use tool_runtime::{tool, Registry, State};
use tool_test_support::mcp_clients::clients;

/// Where the code runs: a pool of two `monty` workers, started for the test (each test has
/// its own runtime, which the pool's pipes belong to).
async fn engine() -> CodeSettings {
    CodeSettings::default().workers(pool(2).await)
}

async fn pool(workers: usize) -> WorkerPool {
    WorkerPool::start(&clients().monty, workers).await.unwrap()
}

#[path = "code/cases.rs"]
mod cases;

/// The worker processes a test may kill.
struct Workers(Vec<u32>);

/// Kill the worker processes, as a native crash would end them.
#[tool]
fn crash_worker(workers: State<Workers>) -> String {
    for pid in &workers.0 .0 {
        // SIGKILL: the process ends at once, without a word on its pipe.
        let _ = std::process::Command::new("kill")
            .args(["-9", &pid.to_string()])
            .status();
    }
    "killed".to_owned()
}

#[tokio::test]
async fn a_worker_that_dies_mid_run_is_an_error_and_the_host_goes_on() {
    let pool = pool(1).await;
    let pids = pool.idle_worker_pids();
    assert_eq!(pids.len(), 1);
    let tools = Arc::new(
        Registry::builder()
            .without_inventory()
            .register(crash_worker::TOOL)
            .state(Workers(pids.clone()))
            .build()
            .unwrap(),
    );
    let registry = Registry::builder()
        .without_inventory()
        .dynamic(tools.code_tool_with(CodeSettings::default().workers(pool.clone())))
        .build()
        .unwrap();
    let call = |code: &str| {
        let args = json!({ "code": code }).to_string();
        let registry = &registry;
        async move { registry.call("run_python", &args).await }
    };
    let out = call("print('before')\ncrash_worker()\nprint('after')").await;
    let text = out.to_model_text();
    assert!(out.is_error(), "{text}");
    assert!(text.contains("crashed its worker process"), "{text}");
    assert!(text.contains("before"), "{text}");
    assert!(!text.contains("after"), "{text}");
    assert_eq!(pool.lost_workers(), 1);
    // The pool started another worker, and the next snippet runs in it.
    let out = call("sum(range(10))").await;
    assert_eq!(out.to_model_text(), "45");
    assert!(pool
        .idle_worker_pids()
        .iter()
        .all(|pid| !pids.contains(pid)));
}

#[tokio::test]
async fn a_missing_worker_binary_is_a_clear_error() {
    let error = WorkerPool::start("/nonexistent/monty", 1)
        .await
        .unwrap_err();
    let text = error.to_string();
    assert!(text.contains("/nonexistent/monty"), "{text}");
    assert!(text.contains("could not start"), "{text}");
}

#[tokio::test]
async fn a_worker_counts_every_live_allocation_against_the_memory_limit() {
    // The worker's global allocator is Monty's own: the total of live allocations is capped,
    // not only one allocation at a time as in process.
    let tools = Arc::new(Registry::builder().without_inventory().build().unwrap());
    let mut limits = tool_runtime::code::CodeLimits::default();
    limits.memory = 8 << 20;
    let registry = Registry::builder()
        .without_inventory()
        .dynamic(tools.code_tool_with(engine().await.limits(limits)))
        .build()
        .unwrap();
    let code = "xs = []\nwhile True:\n    xs.append('x' * 1000)";
    let out = registry
        .call("run_python", &json!({ "code": code }).to_string())
        .await;
    let text = out.to_model_text();
    assert!(out.is_error(), "{text}");
    assert!(text.contains("MemoryError"), "{text}");
}
