//! A bench binary: what share of a turn against a real model server is the framework's own.
//! llama.cpp's `llama-server` with SmolLM2-135M-Instruct (`scripts/install-llama-server.sh`)
//! on this machine; a text-only agent whose first reply is held to a Hermes call by a
//! grammar, so that each run is two turns (the call, then the answer to its result). Per
//! turn: the wall time, the CPU time of the runtime's thread (`/proc/thread-self/schedstat`:
//! the HTTP client, the parser, the pipeline, the tool) and of the whole process (every
//! thread, the fixture's log reader included), and their share; the rest is the server's
//! prompt processing and generation, and the wait for it.
//!
//! `cargo run --release -p tool-runtime --features agent --example llama_share [RUNS]`
//! (Linux; BENCHMARKS.md §15).

use futures_util::StreamExt;
use serde_json::json;
use std::time::Instant;
use tool_runtime::agent::{Agent, AgentEvent, OpenAiChat};
use tool_runtime::text::{self, TextFormat};
use tool_runtime::{tool, Registry};
use tool_test_support::llama::{LlamaServer, MODEL};

/// Get the current weather in a city.
#[tool(read_only)]
fn get_weather(
    /// The city, for example "Paris".
    location: String,
) -> String {
    format!("18°C in {location}")
}

/// The CPU time of this thread, the runtime's only one (the HTTP client, the parser, the
/// pipeline, the tool), in nanoseconds. The fixture's thread that reads the server's log is
/// left out.
fn thread_cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|stat| stat.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// This process's CPU time so far, in nanoseconds, summed over its threads.
fn cpu_ns() -> u64 {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return 0;
    };
    tasks
        .filter_map(Result::ok)
        .filter_map(|task| std::fs::read_to_string(task.path().join("schedstat")).ok())
        .filter_map(|stat| stat.split_whitespace().next()?.parse::<u64>().ok())
        .sum()
}

fn agent(server: &LlamaServer) -> Agent {
    let registry = Registry::builder()
        .without_inventory()
        .register(get_weather::TOOL)
        .build()
        .expect("one tool");
    let grammar = text::call_grammar(TextFormat::Hermes, registry.specs()).expect("a grammar");
    let model = OpenAiChat::new(&server.url, MODEL).body_field("max_tokens", json!(48));
    Agent::new(model, registry)
        .text_tools(TextFormat::Hermes)
        .grammar(grammar)
        .max_turns(2)
}

fn main() {
    let runs: usize = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(10);
    let server = LlamaServer::start(&[]);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    println!("{runs} runs each, two turns a run (a call, then an answer or a second call)");
    println!("| | turns | wall a turn | runtime thread's CPU a turn | share | process CPU a turn | share |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for streamed in [false, true] {
        // One run first, so that the server's prompt cache and our connection are warm.
        let mut total_wall = 0.0;
        let mut total_cpu = 0.0;
        let mut total_thread = 0.0;
        let mut turns = 0;
        for run in 0..=runs {
            let mut agent = agent(&server);
            let cpu = cpu_ns();
            let thread = thread_cpu_ns();
            let start = Instant::now();
            let taken = runtime.block_on(async {
                if streamed {
                    let events: Vec<_> = agent
                        .stream("What is the weather in Paris?")
                        .collect()
                        .await;
                    events
                        .iter()
                        .filter(|e| matches!(e, Ok(AgentEvent::TurnFinished { .. })))
                        .count()
                } else {
                    let _ = agent.run("What is the weather in Paris?").await;
                    agent
                        .history()
                        .iter()
                        .filter(|t| matches!(t, tool_runtime::agent::Turn::Model { .. }))
                        .count()
                }
            });
            if run == 0 {
                continue;
            }
            total_wall += start.elapsed().as_secs_f64();
            total_cpu += (cpu_ns() - cpu) as f64 / 1e9;
            total_thread += (thread_cpu_ns() - thread) as f64 / 1e9;
            turns += taken;
        }
        let turns_f = turns.max(1) as f64;
        println!(
            "| {} | {turns} | {:.1} ms | {:.2} ms | {:.2}% | {:.2} ms | {:.2}% |",
            if streamed { "streamed" } else { "whole" },
            total_wall / turns_f * 1e3,
            total_thread / turns_f * 1e3,
            total_thread / total_wall * 100.0,
            total_cpu / turns_f * 1e3,
            total_cpu / total_wall * 100.0
        );
    }
}
