//! `tool-examples chat` through real gateways nobody here wrote, with the scripted upstream (a
//! fixture, not a model) behind them: TensorZero's gateway (its OpenAI-compatible endpoint)
//! and LiteLLM's proxy (its Anthropic Messages endpoint). `scripts/install-gateways.sh`
//! installs both, on first use.

// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};
use tool_test_support::gateways::{self, Gateway};
use tool_test_support::sales::{script, workspace};
use tool_test_support::upstream::{Recorded, Upstream};

fn chat(root: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tool-examples"))
        .arg("--root")
        .arg(root)
        .arg("chat")
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn tool_names(body: &Value) -> Vec<String> {
    body["tools"]
        .as_array()
        .map(|tools| {
            tools
                .iter()
                .map(|t| {
                    t["function"]["name"]
                        .as_str()
                        .unwrap_or_default()
                        .to_owned()
                })
                .collect()
        })
        .unwrap_or_default()
}

/// One `chat --prompt` run with `provider` and `model` through the gateway `start` puts in
/// front of the scripted upstream: checks the answer, the call shown, and that the real tool's
/// result reached the upstream in the second request. Returns the upstream's requests.
fn through(start: fn(&str) -> Gateway, provider: &str, model: &str, stream: bool) -> Vec<Recorded> {
    let root = workspace();
    let upstream = Upstream::start(script(stream));
    let gateway = start(&format!("{}/v1", upstream.url()));
    let mut args = vec![
        "--provider",
        provider,
        "--url",
        &gateway.url,
        "--model",
        model,
        "--prompt",
        "Summarize sales.csv",
    ];
    if !stream {
        args.push("--no-stream");
    }
    let out = chat(root.path(), &args);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(
        out.status.success(),
        "{stdout}\n{stderr}\ngateway:\n{}",
        gateway.stderr()
    );
    assert!(stdout.contains("Sales total 42."), "{stdout}");
    assert!(stderr.contains("← csv_summary"), "{stderr}");
    let requests = upstream.requests();
    assert_eq!(requests.len(), 2, "two model requests reached the upstream");
    assert!(tool_names(&requests[0].body).contains(&"csv_summary".to_owned()));
    let messages = requests[1].body["messages"].as_array().unwrap();
    let result = messages.iter().find(|m| m["role"] == "tool").unwrap();
    assert_eq!(result["tool_call_id"], "c1");
    assert!(
        result["content"].to_string().contains("south"),
        "the real tool's result went through the gateway: {result}"
    );
    requests
}

/// A multi-turn agent run through TensorZero: the call goes out, the tool runs, its result
/// comes back through the gateway, and the model's answer is printed.
fn through_tensorzero(stream: bool) {
    let requests = through(
        gateways::tensorzero,
        "openai-chat",
        "tensorzero::model_name::scripted",
        stream,
    );
    assert_eq!(requests[0].body["stream"], stream);
}

#[test]
fn chat_runs_a_multi_turn_agent_through_tensorzero_streamed() {
    through_tensorzero(true);
}

#[test]
fn chat_runs_a_multi_turn_agent_through_tensorzero_whole() {
    through_tensorzero(false);
}

/// A multi-turn agent run with the Anthropic transport through LiteLLM's proxy: the agent
/// speaks Anthropic Messages to LiteLLM, which translates each request to Chat Completions for
/// the upstream and each reply (whole or as events) back to Anthropic's shape.
fn through_litellm(stream: bool) {
    let requests = through(gateways::litellm, "anthropic", "scripted", stream);
    assert!(requests[0].path.ends_with("/chat/completions"));
    if stream {
        assert_eq!(
            requests[0].body["stream"], true,
            "LiteLLM streams from upstream too"
        );
    }
    let messages = requests[1].body["messages"].as_array().unwrap();
    let asked = messages.iter().find(|m| m["role"] == "assistant").unwrap();
    assert_eq!(asked["tool_calls"][0]["id"], "c1");
}

#[test]
fn chat_runs_a_multi_turn_agent_with_anthropic_through_litellm_streamed() {
    through_litellm(true);
}

#[test]
fn chat_runs_a_multi_turn_agent_with_anthropic_through_litellm_whole() {
    through_litellm(false);
}
