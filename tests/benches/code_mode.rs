//! Code mode's costs, in process and in worker processes (issue 35's figures).
//!
//! `cargo bench -p tool-tests --features bench --bench code_mode`
//!
//! - `call/registry_x100`: 100 calls of a small sync tool through `registry.call`, awaited
//!   one after another: the baseline;
//! - `call/from_code_x100`: one run of the code tool whose loop makes the same 100 calls;
//! - `call/loop_only_x100`: the same loop with `a + b` in place of the call, so that
//!   `(from_code - loop_only - registry) / 100` is what a call from code adds;
//! - `start/none`: one run of the code tool whose code is `None`: parsing, compiling and
//!   starting an interpreter, and the code tool's own call;
//! - `start/registry_call`: a call of a trivial tool, to take from `start/none`;
//! - `workers/…`: `from_code_x100`, `loop_only_x100` and `none` again, the code run by a pool
//!   of one warm `monty` worker process (`CodeSettings::workers`; the binary from
//!   `scripts/install-test-clients.sh`): each call from the code is a round trip over the
//!   worker's pipes, and each run a checkout, a feed and a reset of the worker's session;
//!   `workers/pool_start`: a pool of one worker started (the process spawned, its handshake
//!   read) and closed, about what a crashed worker's replacement costs.

// A benchmark: an unwrap that fails stops it, which is the report.
#![allow(clippy::unwrap_used)]

use criterion::{criterion_group, criterion_main, Criterion};
use serde_json::json;
use tool_runtime::code::{CodeMode, CodeSettings, WorkerPool};
use tool_runtime::{tool, Registry};

/// Add two numbers.
#[tool(read_only, inline)]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn bench(c: &mut Criterion) {
    let registry = Registry::builder()
        .without_inventory()
        .register(add::TOOL)
        .code_mode(CodeMode::Beside)
        .build()
        .unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let code = |text: &str| json!({ "code": text }).to_string();
    let with_calls = code("t = 0\nfor i in range(100):\n    t = add(a=t, b=i)\nt");
    let loop_only = code("t = 0\nfor i in range(100):\n    t = t + i\nt");
    let none = code("None");
    // Each must do what it says before it is timed.
    let check = |args: &str, expected: &str| {
        let out = runtime.block_on(registry.call("run_python", args));
        assert_eq!(out.to_model_text(), expected);
    };
    check(&with_calls, "4950");
    check(&loop_only, "4950");

    let mut group = c.benchmark_group("call");
    group.bench_function("registry_x100", |b| {
        b.iter(|| {
            runtime.block_on(async {
                for i in 0..100 {
                    let args = format!(r#"{{"a": {i}, "b": 1}}"#);
                    registry.call("add", &args).await;
                }
            })
        })
    });
    group.bench_function("from_code_x100", |b| {
        b.iter(|| runtime.block_on(registry.call("run_python", &with_calls)))
    });
    group.bench_function("loop_only_x100", |b| {
        b.iter(|| runtime.block_on(registry.call("run_python", &loop_only)))
    });
    group.finish();

    let mut group = c.benchmark_group("start");
    group.bench_function("none", |b| {
        b.iter(|| runtime.block_on(registry.call("run_python", &none)))
    });
    group.bench_function("registry_call", |b| {
        b.iter(|| runtime.block_on(registry.call("add", r#"{"a": 1, "b": 2}"#)))
    });
    group.finish();

    let monty = &tool_test_support::mcp_clients::clients().monty;
    let pool = runtime.block_on(WorkerPool::start(monty, 1)).unwrap();
    let workers = Registry::builder()
        .without_inventory()
        .register(add::TOOL)
        .code_mode_with(CodeMode::Beside, CodeSettings::default().workers(pool))
        .build()
        .unwrap();
    let out = runtime.block_on(workers.call("run_python", &with_calls));
    assert_eq!(out.to_model_text(), "4950");
    let mut group = c.benchmark_group("workers");
    group.bench_function("from_code_x100", |b| {
        b.iter(|| runtime.block_on(workers.call("run_python", &with_calls)))
    });
    group.bench_function("loop_only_x100", |b| {
        b.iter(|| runtime.block_on(workers.call("run_python", &loop_only)))
    });
    group.bench_function("none", |b| {
        b.iter(|| runtime.block_on(workers.call("run_python", &none)))
    });
    group.bench_function("pool_start", |b| {
        b.iter(|| {
            runtime.block_on(async {
                let pool = WorkerPool::start(monty, 1).await.unwrap();
                pool.close().await;
            })
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
