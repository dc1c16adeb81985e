//! What a task costs in each store: the same server (`McpServer`, streamable HTTP, one
//! `#[tool(task)]` tool that answers at once) with its tasks in memory and in a real Redis
//! on 127.0.0.1 (`tests/support/src/redis.rs`), driven by sessionless 2026-07-28 requests.
//!
//! `cargo bench -p tool-tests --features bench --bench task_store`
//!
//! - `sequential`: N tasks one after another, each `tools/call` (the task is created and
//!   its call runs) then `tasks/get` until `completed`: p50 and p99 of create and of read,
//!   and of the whole task. The difference between the stores is what the store costs,
//!   the HTTP round trips (a fresh connection per request) being the same in both.
//! - `concurrent`: C clients at once, 200 tasks each: tasks per second.
//! - `memory`: what 1,000 settled tasks keep: Redis's `used_memory` before and after (per
//!   task), against this process's resident memory for the memory store.
//!
//! Not a criterion bench: the figures wanted are percentiles and a memory difference. Run
//! it pinned (`taskset -c 1`) on a quiet machine; the server and client share the process.

// A benchmark: an unwrap that fails stops it, which is the report.
#![allow(clippy::unwrap_used)]

use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tool_runtime::mcp::{HttpOptions, HttpServer, McpServer, TaskStore};
use tool_runtime::{tool, Registry};
use tool_test_support::redis::RedisServer;
use tool_test_support::sessionless::post;

/// Answers at once with its label.
#[tool(read_only, parallel, task)]
fn instant(
    /// Echoed back.
    label: String,
) -> String {
    label
}

async fn serve(store: TaskStore) -> SocketAddr {
    let registry = Registry::builder()
        .without_inventory()
        .register(instant::TOOL)
        .build()
        .unwrap();
    let server = McpServer::new(registry)
        .task_store(store)
        .max_tasks(100_000)
        .max_tasks_per_client(100_000);
    let http = HttpServer::bind(server, ([127, 0, 0, 1], 0).into(), HttpOptions::default())
        .await
        .unwrap();
    let addr = http.local_addr();
    tokio::spawn(http.run());
    addr
}

fn tasks() -> Value {
    json!({"extensions": {"io.modelcontextprotocol/tasks": {}}})
}

/// One task, created and read until completed: how long each half took.
async fn one(addr: SocketAddr, label: &str) -> (Duration, Duration) {
    let start = Instant::now();
    let params = json!({"name": "instant", "arguments": {"label": label}});
    let created = post(addr, "tools/call", params, tasks()).await;
    let id = created["result"]["taskId"]
        .as_str()
        .unwrap_or_else(|| panic!("no task: {created}"))
        .to_owned();
    let made = start.elapsed();
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let got = post(addr, "tasks/get", json!({"taskId": id}), tasks()).await;
        match got["result"]["status"].as_str() {
            Some("completed") => break,
            Some("working") if Instant::now() < deadline => tokio::task::yield_now().await,
            _ => panic!("task {id}: {got}"),
        }
    }
    (made, start.elapsed() - made)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let at = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[at.min(sorted.len() - 1)]
}

fn micros(d: Duration) -> String {
    format!("{:.0} µs", d.as_secs_f64() * 1e6)
}

async fn sequential(name: &str, addr: SocketAddr, n: usize) {
    // Warm: connections, the scripts cached in Redis.
    for i in 0..50 {
        one(addr, &format!("warm-{i}")).await;
    }
    let (mut made, mut read, mut whole) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..n {
        let (m, r) = one(addr, &format!("t{i}")).await;
        made.push(m);
        read.push(r);
        whole.push(m + r);
    }
    for v in [&mut made, &mut read, &mut whole] {
        v.sort();
    }
    println!(
        "sequential/{name}: {n} tasks; create p50 {} p99 {}; read p50 {} p99 {}; task p50 {} p99 {}",
        micros(percentile(&made, 0.5)),
        micros(percentile(&made, 0.99)),
        micros(percentile(&read, 0.5)),
        micros(percentile(&read, 0.99)),
        micros(percentile(&whole, 0.5)),
        micros(percentile(&whole, 0.99)),
    );
}

async fn concurrent(name: &str, addr: SocketAddr, clients: usize) {
    let start = Instant::now();
    let runs: Vec<_> = (0..clients)
        .map(|c| {
            tokio::spawn(async move {
                for i in 0..200 {
                    one(addr, &format!("c{c}-{i}")).await;
                }
            })
        })
        .collect();
    for run in runs {
        run.await.unwrap();
    }
    let per_second = (clients * 200) as f64 / start.elapsed().as_secs_f64();
    println!("concurrent/{name}: {clients} clients: {per_second:.0} tasks/s");
}

fn used_memory(redis: &RedisServer) -> u64 {
    let info = redis.command(&["INFO", "memory"]);
    info.lines()
        .find_map(|line| line.strip_prefix("used_memory:"))
        .and_then(|n| n.trim().parse().ok())
        .unwrap()
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let Some(redis) = RedisServer::start() else {
        eprintln!("no redis-server here (scripts/install-redis.sh): nothing to compare");
        return;
    };
    runtime.block_on(async {
        let memory = serve(TaskStore::memory()).await;
        let shared = serve(TaskStore::redis(redis.url()).await.unwrap()).await;
        for (name, addr) in [("memory", memory), ("redis", shared)] {
            sequential(name, addr, 1000).await;
        }
        for (name, addr) in [("memory", memory), ("redis", shared)] {
            for clients in [1, 4, 16] {
                concurrent(name, addr, clients).await;
            }
        }

        // What settled tasks keep: fresh servers, 1,000 tasks each.
        let rss = || tool_test_support::memory::resident_kib().unwrap_or(0) * 1024;
        let memory = serve(TaskStore::memory()).await;
        let before = rss();
        for i in 0..1000 {
            one(memory, &format!("m{i}")).await;
        }
        let kept = rss().saturating_sub(before);
        println!(
            "memory/memory: 1000 settled tasks: {} bytes of this process's resident memory ({} a task)",
            kept,
            kept / 1000
        );
        redis.command(&["FLUSHALL"]);
        let shared = serve(TaskStore::redis(redis.url()).await.unwrap()).await;
        let before = used_memory(&redis);
        for i in 0..1000 {
            one(shared, &format!("r{i}")).await;
        }
        let kept = used_memory(&redis).saturating_sub(before);
        println!(
            "memory/redis: 1000 settled tasks: {kept} bytes of Redis's used_memory ({} a task)",
            kept / 1000
        );
    });
}
