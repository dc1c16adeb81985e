//! The agent loop per turn, ours against rig 0.44's: each framework's whole loop (write the
//! request with the tool list, send it, read the reply, run the call, append its result, ask
//! again) against a scripted OpenAI Chat Completions server (`bench_peers::scripted_server`,
//! a fixture) running in another process, so only the client's work is counted.
//!
//! `scripts/bench-agent.sh` runs it and writes `bench-peers/results/agent.md`; by hand, from
//! `bench-peers/`: `CARGO_TARGET_DIR=../target cargo bench --bench agent_turns`.
//!
//! One run is a prompt, the model's call to `search`, the call, the model's final answer: 2
//! model requests ("turns") and 1 tool call. Per configuration and round: `AGENT_WARMUP` runs
//! (default 200), then `AGENT_RUNS` runs (default 2000) timed; CPU is the client process's
//! user + system time (`getrusage(RUSAGE_SELF)`, every thread), wall is elapsed time; both
//! are divided by the model requests made. The configurations take turns, `AGENT_ROUNDS`
//! rounds (default 5); the table gives each column's median over the rounds. Both
//! frameworks run on one current-thread tokio runtime (`bench_peers::runtime()`).
//!
//! Every run is checked: the answer must be the server's "the search tool answered; N tools
//! were offered" (the server checks the tool result it got back, and counts the tools in the
//! request), each run must make exactly 2 requests, and the tool's counter must move by one
//! per run.
//!
//! `AGENT_ONLY=rig-100` (a comma-separated list of `ours-1`, `rig-1`, `ours-100`, `rig-100`,
//! `pooled-1`, `hand-1`, `hand-100`) measures only those configurations, to profile one.
//!
//! The `hand` rows are the floor: the same two requests written by hand with reqwest and
//! serde_json (`bench_peers::agent_baseline`), no framework; CPU above them is each
//! framework's own.
//!
//! With the argument `serve` the binary is the scripted server instead (it re-executes
//! itself for that).

use bench_peers::agent_baseline;
use bench_peers::agent_ours::{self, SearchKind};
use bench_peers::scripted_server::{self, ScriptedServer};
use bench_peers::{agent_rig, runtime};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

const PROMPT: &str = "Find tools for Rust, five at most, quickly.";

/// One configuration: a framework, how many tools it offers, and our `search` kind.
#[derive(Clone, Copy)]
enum Config {
    Ours(SearchKind, usize),
    Rig(usize),
    /// The hand-written loop: reqwest and serde_json, no framework.
    Hand(usize),
}

impl Config {
    fn framework(self) -> &'static str {
        match self {
            Config::Ours(SearchKind::Inline, _) => "ours (`#[tool(inline)]` search)",
            Config::Ours(SearchKind::Pooled, _) => "ours (plain sync `#[tool]`: blocking pool)",
            Config::Rig(_) => "rig 0.44 (`PortableTool` search)",
            Config::Hand(_) => "hand-written loop (reqwest + serde_json; the floor)",
        }
    }

    fn key(self) -> String {
        match self {
            Config::Ours(SearchKind::Inline, tools) => format!("ours-{tools}"),
            Config::Ours(SearchKind::Pooled, tools) => format!("pooled-{tools}"),
            Config::Rig(tools) => format!("rig-{tools}"),
            Config::Hand(tools) => format!("hand-{tools}"),
        }
    }

    fn tools(self) -> usize {
        match self {
            Config::Ours(_, tools) | Config::Rig(tools) | Config::Hand(tools) => tools,
        }
    }
}

/// A built agent of either framework.
enum Built {
    Ours(tool_runtime::agent::Agent),
    Rig(Box<rig_agent::Agent>),
    Hand(agent_baseline::Loop),
}

/// What `runs` runs took.
#[derive(Clone, Copy)]
struct Sample {
    cpu_per_turn: Duration,
    sys_per_turn: Duration,
    wall_per_turn: Duration,
}

/// The process's (user + system, system) CPU time so far.
fn cpu_time() -> (Duration, Duration) {
    // SAFETY: getrusage writes one `rusage` into the zeroed value it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        assert_eq!(libc::getrusage(libc::RUSAGE_SELF, &mut usage), 0);
        usage
    };
    let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    let sys = time(usage.ru_stime);
    (time(usage.ru_utime) + sys, sys)
}

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .map(|v| v.parse().unwrap_or_else(|_| panic!("{name} is a number")))
        .unwrap_or(default)
}

/// `runs` runs; returns the model requests they made, each run checked.
async fn runs(built: &mut Built, tools: usize, runs: usize) -> usize {
    let expected = scripted_server::final_text(tools);
    let mut turns = 0;
    match built {
        Built::Ours(agent) => {
            let before = agent_ours::CALLS.load(Ordering::Relaxed);
            for _ in 0..runs {
                let reply = agent_ours::run(agent, PROMPT).await;
                assert_eq!(reply.text, expected, "our run's answer");
                assert_eq!((reply.turns, reply.calls), (2, 1), "our run's shape");
                turns += reply.turns;
            }
            let calls = agent_ours::CALLS.load(Ordering::Relaxed) - before;
            assert_eq!(calls, runs, "our search tool ran once per run");
        }
        Built::Rig(agent) => {
            let before = agent_rig::CALLS.load(Ordering::Relaxed);
            for _ in 0..runs {
                let reply = agent_rig::run(agent, PROMPT)
                    .await
                    .unwrap_or_else(|e| panic!("rig's run failed: {e}"));
                assert_eq!(reply.text, expected, "rig's run's answer");
                assert_eq!(reply.requests, 2, "rig's run's requests");
                turns += reply.requests;
            }
            let calls = agent_rig::CALLS.load(Ordering::Relaxed) - before;
            assert_eq!(calls, runs, "rig's search tool ran once per run");
        }
        Built::Hand(hand) => {
            let before = agent_baseline::CALLS.load(Ordering::Relaxed);
            for _ in 0..runs {
                let reply = hand.run(PROMPT).await;
                assert_eq!(reply.text, expected, "the hand-written run's answer");
                turns += reply.requests;
            }
            let calls = agent_baseline::CALLS.load(Ordering::Relaxed) - before;
            assert_eq!(calls, runs, "the hand-written loop called once per run");
        }
    }
    turns
}

fn median(mut values: Vec<Duration>) -> Duration {
    values.sort();
    values[values.len() / 2]
}

fn micros(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1e6)
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    if args.first().map(String::as_str) == Some("serve") {
        scripted_server::serve_main();
    }
    let warmup = env_number("AGENT_WARMUP", 200);
    let measured = env_number("AGENT_RUNS", 2000).max(1);
    let rounds = env_number("AGENT_ROUNDS", 5).max(1);

    let server = ScriptedServer::start();
    let url = server.base_url();
    let runtime = runtime();
    let only = std::env::var("AGENT_ONLY").unwrap_or_default();
    let configs: Vec<Config> = [
        Config::Ours(SearchKind::Inline, 1),
        Config::Rig(1),
        Config::Ours(SearchKind::Inline, 100),
        Config::Rig(100),
        Config::Ours(SearchKind::Pooled, 1),
        Config::Hand(1),
        Config::Hand(100),
    ]
    .into_iter()
    .filter(|c| only.is_empty() || only.split(',').any(|k| k.trim() == c.key()))
    .collect();
    assert!(
        !configs.is_empty(),
        "AGENT_ONLY={only} names no configuration"
    );
    let mut built: Vec<Built> = configs
        .iter()
        .map(|config| match *config {
            Config::Ours(kind, tools) => {
                Built::Ours(agent_ours::agent(&url, agent_ours::registry(kind, tools)))
            }
            Config::Rig(tools) => Built::Rig(Box::new(agent_rig::agent(&url, tools))),
            Config::Hand(tools) => Built::Hand(agent_baseline::Loop::new(&url, tools)),
        })
        .collect();
    eprintln!(
        "agent_turns: scripted server at {url}; {rounds} rounds of {warmup} warm-up + {measured} timed runs per configuration"
    );

    let mut samples: Vec<Vec<Sample>> = vec![Vec::new(); configs.len()];
    runtime.block_on(async {
        for round in 0..rounds {
            for (i, config) in configs.iter().enumerate() {
                let tools = config.tools();
                runs(&mut built[i], tools, warmup.max(1)).await;
                let ((cpu, sys), wall) = (cpu_time(), Instant::now());
                let turns = runs(&mut built[i], tools, measured).await;
                let ((cpu_end, sys_end), wall) = (cpu_time(), wall.elapsed());
                assert_eq!(turns, 2 * measured);
                let sample = Sample {
                    cpu_per_turn: (cpu_end - cpu) / turns as u32,
                    sys_per_turn: (sys_end - sys) / turns as u32,
                    wall_per_turn: wall / turns as u32,
                };
                eprintln!(
                    "round {round}: {} with {tools} tools: {} µs CPU, {} µs wall per turn",
                    config.framework(),
                    micros(sample.cpu_per_turn),
                    micros(sample.wall_per_turn)
                );
                samples[i].push(sample);
            }
        }
    });
    drop(built);
    drop(server);

    let cpu: Vec<Duration> = samples
        .iter()
        .map(|s| median(s.iter().map(|x| x.cpu_per_turn).collect()))
        .collect();
    let sys: Vec<Duration> = samples
        .iter()
        .map(|s| median(s.iter().map(|x| x.sys_per_turn).collect()))
        .collect();
    let wall: Vec<Duration> = samples
        .iter()
        .map(|s| median(s.iter().map(|x| x.wall_per_turn).collect()))
        .collect();
    let range = |i: usize| {
        let values: Vec<Duration> = samples[i].iter().map(|x| x.cpu_per_turn).collect();
        let min = values.iter().min().copied().unwrap_or_default();
        let max = values.iter().max().copied().unwrap_or_default();
        format!("{}–{}", micros(min), micros(max))
    };
    // Each rig row against our inline row with as many tools.
    let ours_row = |tools: usize| {
        configs
            .iter()
            .position(|c| matches!(c, Config::Ours(SearchKind::Inline, t) if *t == tools))
    };
    println!("| framework | tools | CPU µs/turn | CPU range of rounds | of which sys | wall µs/turn | CPU rig/ours | wall rig/ours |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for (i, config) in configs.iter().enumerate() {
        let (cpu_ratio, wall_ratio) = match config {
            Config::Rig(tools) if ours_row(*tools).is_some() => {
                let o = ours_row(*tools).expect("checked");
                (
                    format!("{:.1}×", cpu[i].as_secs_f64() / cpu[o].as_secs_f64()),
                    format!("{:.2}×", wall[i].as_secs_f64() / wall[o].as_secs_f64()),
                )
            }
            _ => (String::new(), String::new()),
        };
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            config.framework(),
            config.tools(),
            micros(cpu[i]),
            range(i),
            micros(sys[i]),
            micros(wall[i]),
            cpu_ratio,
            wall_ratio
        );
    }
    println!();
    for (i, config) in configs.iter().enumerate() {
        if let (Config::Rig(tools), Some(o)) = (config, ours_row(config.tools())) {
            let ratio = cpu[i].as_secs_f64() / cpu[o].as_secs_f64();
            println!(
                "- target (ours ≥ 5× less CPU per turn than rig), {tools} tool{}: {:.1}×, {}",
                if *tools == 1 { "" } else { "s" },
                ratio,
                if ratio >= 5.0 { "met" } else { "**not met**" }
            );
        }
    }
    let hand_row = |tools: usize| {
        configs
            .iter()
            .position(|c| matches!(c, Config::Hand(t) if *t == tools))
    };
    for tools in [1, 100] {
        let rig_row = configs
            .iter()
            .position(|c| matches!(c, Config::Rig(t) if *t == tools));
        if let (Some(h), Some(o), Some(r)) = (hand_row(tools), ours_row(tools), rig_row) {
            let above = |i: usize| cpu[i].as_secs_f64() - cpu[h].as_secs_f64();
            println!(
                "- CPU per turn above the hand-written loop, {tools} tool{}: ours {:.1} µs, rig {:.1} µs ({:.1}×)",
                if tools == 1 { "" } else { "s" },
                above(o) * 1e6,
                above(r) * 1e6,
                above(r) / above(o)
            );
        }
    }
    let sizes: Vec<String> = [1, 100]
        .iter()
        .map(|&tools| {
            let registry = agent_ours::registry(SearchKind::Inline, tools);
            let export = registry
                .export(tool_runtime::Provider::OpenAiChat)
                .raw_json();
            format!(
                "{} B with {tools} tool{}",
                export.get().len(),
                if tools == 1 { "" } else { "s" }
            )
        })
        .collect();
    println!(
        "- the `tools` array every request carries (ours, compact JSON): {}",
        sizes.join(", ")
    );
    println!();
    println!(
        "{rounds} rounds × ({warmup} warm-up + {measured} timed runs) per configuration, 2 model requests and 1 tool call per run; medians of the rounds (\"of which sys\": the rounds' median kernel time, mostly loopback TCP)."
    );
}
