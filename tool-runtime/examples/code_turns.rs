//! A bench binary: a task that needs twenty tool calls, each depending on the one before, run
//! by the agent against the scripted upstream (a fixture that plays the model's replies) with
//! and without code mode. It prints what the model server was sent: requests, and the bytes of
//! tool lists, of history and in all (BENCHMARKS.md, code mode).
//!
//! `cargo run --release -p tool-runtime --features agent,code --example code_turns`

use serde_json::json;
use tool_runtime::agent::{Agent, OpenAiChat};
use tool_runtime::code::CodeSettings;
use tool_runtime::{tool, Registry};
use tool_test_support::replies::{chat_calls, chat_text};
use tool_test_support::upstream::{Scripted, Upstream};

/// Follow a link of the treasure hunt: returns the next link, or the treasure.
#[tool(read_only)]
fn follow(
    /// The link to follow, as the last call returned it.
    link: String,
) -> String {
    let n: u32 = link.trim_start_matches("link-").parse().unwrap_or(0);
    if n >= 19 {
        "treasure".to_owned()
    } else {
        format!("link-{}", n + 1)
    }
}

/// Read a note of the hunt.
#[tool(read_only)]
fn read_note(
    /// The note's name.
    name: String,
) -> String {
    format!("note {name}: keep following the links")
}

/// Mark a link as visited.
#[tool]
fn mark_visited(
    /// The link.
    link: String,
    /// Why it matters, for the log.
    reason: Option<String>,
) -> String {
    format!("marked {link} {}", reason.unwrap_or_default())
}

fn registry() -> Registry {
    Registry::builder()
        .without_inventory()
        .register(follow::TOOL)
        .register(read_note::TOOL)
        .register(mark_visited::TOOL)
        .build()
        .expect("the tools are valid")
}

struct Sent {
    requests: usize,
    tools: usize,
    history: usize,
    total: usize,
}

fn sent(upstream: &Upstream) -> Sent {
    let requests = upstream.requests();
    let mut tools = 0;
    let mut history = 0;
    for request in &requests {
        tools += request.body["tools"].to_string().len();
        history += request.body["messages"].to_string().len();
    }
    Sent {
        requests: requests.len(),
        tools,
        history,
        total: requests.iter().map(|r| r.bytes).sum(),
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let prompt = "Follow the links from link-0 to the treasure.";

    // Without code mode: each call needs the last one's result, so one call per turn.
    let mut script: Vec<Scripted> = (0..20)
        .map(|i| {
            let args = json!({ "link": format!("link-{i}") }).to_string();
            Scripted::json(chat_calls(&[(&format!("c{i}"), "follow", &args)]))
        })
        .collect();
    script.push(Scripted::json(chat_text("Found the treasure.")));
    let upstream = Upstream::start(script);
    let model = OpenAiChat::new(format!("{}/v1", upstream.url()), "scripted");
    let mut agent = Agent::new(model, registry()).max_turns(30);
    let reply = agent.run(prompt).await.expect("the run ends");
    assert_eq!(reply.calls, 20);
    let plain = sent(&upstream);

    // Code mode: one snippet makes the twenty calls.
    let code = "link = 'link-0'\nwhile link != 'treasure':\n    link = follow(link=link)\nlink";
    let args = json!({ "code": code }).to_string();
    let upstream = Upstream::start([
        Scripted::json(chat_calls(&[("c0", "run_python", &args)])),
        Scripted::json(chat_text("Found the treasure.")),
    ]);
    let model = OpenAiChat::new(format!("{}/v1", upstream.url()), "scripted");
    let mut agent = Agent::new(model, registry())
        .code_mode(CodeSettings::default())
        .expect("the code tool builds");
    let reply = agent.run(prompt).await.expect("the run ends");
    assert_eq!(reply.calls, 1);
    let code_mode = sent(&upstream);

    println!(
        "| | requests | tool lists sent (bytes) | history sent (bytes) | request bytes in all |"
    );
    println!("|---|---:|---:|---:|---:|");
    for (name, s) in [
        ("20 turns, one call each", &plain),
        ("code mode, one snippet", &code_mode),
    ] {
        println!(
            "| {name} | {} | {} | {} | {} |",
            s.requests, s.tools, s.history, s.total
        );
    }
    println!(
        "| ratio | {:.1}× | {:.1}× | {:.1}× | {:.1}× |",
        plain.requests as f64 / code_mode.requests as f64,
        plain.tools as f64 / code_mode.tools as f64,
        plain.history as f64 / code_mode.history as f64,
        plain.total as f64 / code_mode.total as f64
    );
}
