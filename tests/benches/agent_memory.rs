//! The agent's memory under a model server that floods it with calls: each size runs in a
//! fresh process of this binary against the scripted upstream (in its sizes-only mode, which
//! keeps no copy of what it receives), and reports the process's peak resident memory
//! (`VmHWM`), the largest request body the agent sent and the sum of all of them.
//!
//! `cargo bench -p tool-tests --features bench --bench agent_memory`
//!
//! - `whole/N`: N calls in each of 8 whole replies, then an answer
//!   (`tests/attacks/agent/call_floods.jsonl` `thousand_calls_a_turn`, at N = 250 … 2,000);
//! - `streamed/N`: N calls in one streamed reply, then an answer (`forty_thousand_streamed`,
//!   at N = 5,000 … 40,000).
//!
//! Every call names `page`, which returns 8,000 bytes (under the default output cap). The
//! agent runs with its defaults (and `max_turns(9)`). `AGENT_MEMORY_MAX_CALLS=N` skips the
//! sizes over N calls a reply (for a build without the bounds, where they cost gigabytes).

// A benchmark: an unwrap that fails stops it, which is the report.
#![allow(clippy::unwrap_used)]

use std::process::Command;
use tool_runtime::agent::{Agent, OpenAiChat};
use tool_runtime::{tool, Registry};
use tool_test_support::floods::Flood;
use tool_test_support::memory;
use tool_test_support::upstream::Upstream;

/// 8,000 bytes of page.
#[tool(read_only)]
fn page(
    /// How long.
    bytes: usize,
) -> String {
    "x".repeat(bytes.min(8000))
}

const SIZES: [(&str, [usize; 4]); 2] = [
    ("whole", [250, 500, 1000, 2000]),
    ("streamed", [5000, 10_000, 20_000, 40_000]),
];

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let [_, mode, calls, ..] = args.as_slice() {
        if mode == "whole" || mode == "streamed" {
            measure(mode, calls.parse().unwrap());
            return;
        }
    }
    let max: usize = std::env::var("AGENT_MEMORY_MAX_CALLS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(usize::MAX);
    println!("| flood | turns | outcome | largest request | all requests | peak RSS |");
    println!("|---|---|---|---|---|---|");
    for (mode, sizes) in SIZES {
        for calls in sizes.into_iter().filter(|&n| n <= max) {
            let out = Command::new(std::env::current_exe().unwrap())
                .args([mode, &calls.to_string()])
                .output()
                .unwrap();
            let line = String::from_utf8_lossy(&out.stdout);
            let line = line.lines().last().unwrap_or_default().to_owned();
            if line.is_empty() {
                println!(
                    "| {mode}/{calls} | failed: {} |",
                    String::from_utf8_lossy(&out.stderr).trim()
                );
            } else {
                println!("{line}");
            }
        }
    }
}

/// One size, in this process: prints its table row.
fn measure(mode: &str, calls: usize) {
    let flood = match mode {
        "whole" => Flood::load("thousand_calls_a_turn"),
        _ => Flood::load("forty_thousand_streamed"),
    }
    .with_calls(calls);
    let upstream = Upstream::sizes_only(flood.script());
    let registry = Registry::builder()
        .without_inventory()
        .register(page::TOOL)
        .build()
        .unwrap();
    let model = OpenAiChat::new(format!("{}/v1", upstream.url()), "scripted");
    let mut agent = Agent::new(model, registry).max_turns(flood.turns + 1);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let outcome = runtime.block_on(async {
        if flood.stream {
            let mut events = agent.stream("Read every page.");
            let mut outcome = "answered".to_owned();
            while let Some(event) = events.next().await {
                if let Err(error) = event {
                    outcome = short(&error.to_string());
                }
            }
            outcome
        } else {
            match agent.run("Read every page.").await {
                Ok(_) => "answered".to_owned(),
                Err(error) => short(&error.to_string()),
            }
        }
    });
    let sizes: Vec<usize> = upstream
        .requests()
        .iter()
        .map(|r| {
            r.header("content-length")
                .and_then(|v| v.parse().ok())
                .unwrap_or(r.bytes)
        })
        .collect();
    let peak = memory::peak_kib().unwrap_or(0);
    println!(
        "| {mode}/{calls} | {} | {outcome} | {} | {} | {:.1} MiB |",
        sizes.len(),
        mb(sizes.iter().copied().max().unwrap_or(0)),
        mb(sizes.iter().sum()),
        peak as f64 / 1024.0,
    );
}

fn mb(bytes: usize) -> String {
    format!("{:.2} MB", bytes as f64 / 1e6)
}

/// An error's text, to its first clause.
fn short(text: &str) -> String {
    text.split(';').next().unwrap_or(text).to_owned()
}
