//! The agent's spans, after OpenTelemetry's GenAI conventions: an `invoke_agent` span per run,
//! a `chat {model}` span per model request inside it, the calls' `execute_tool` spans inside
//! the run too, token counts recorded when the replies are in. Against the scripted upstream
//! (a fixture, not a model).
#![cfg(feature = "agent")]
// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use tool_runtime::agent::{Agent, OpenAiChat};
use tool_runtime::{tool, Registry};
use tool_test_support::replies::*;
use tool_test_support::spans::Capture;
use tool_test_support::upstream::{Scripted, Upstream};

/// Add two numbers.
#[tool(read_only)]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

#[test]
fn a_run_is_an_invoke_agent_span_holding_its_chat_and_execute_tool_spans() {
    let upstream = Upstream::start([
        Scripted::json(chat_calls(&[("c1", "add", r#"{"a": 2, "b": 40}"#)])),
        Scripted::json(chat_text("42.")),
    ]);
    let registry = Registry::builder()
        .without_inventory()
        .register(add::TOOL)
        .build()
        .unwrap();
    let model = OpenAiChat::new(format!("{}/v1", upstream.url()), "scripted");
    let mut agent = Agent::new(model, registry);
    let capture = Capture::default();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let reply = tracing::subscriber::with_default(capture.clone(), || {
        runtime.block_on(agent.run("What is 2 + 40?")).unwrap()
    });
    assert_eq!(reply.text, "42.");

    let spans = capture.spans();
    let find = |name: &str| -> Vec<usize> {
        (0..spans.len())
            .filter(|&i| spans[i].name == name)
            .collect()
    };
    // Whether `ancestor` is `index` or above it.
    let within = |mut index: usize, ancestor: usize| loop {
        if index == ancestor {
            return true;
        }
        match spans[index].parent {
            Some(parent) => index = parent,
            None => return false,
        }
    };

    let runs = find("invoke_agent");
    assert_eq!(runs.len(), 1, "{spans:#?}");
    let run = &spans[runs[0]];
    assert_eq!(run.field("gen_ai.operation.name"), "invoke_agent");
    assert_eq!(run.field("gen_ai.provider.name"), "openai");
    assert_eq!(run.field("gen_ai.request.model"), "scripted");
    assert_eq!(
        run.field("gen_ai.usage.input_tokens"),
        reply.usage.input_tokens.to_string()
    );
    assert!(reply.usage.input_tokens > 0);

    let chats = find("chat");
    assert_eq!(chats.len(), 2, "one span per model request: {spans:#?}");
    for (turn, &chat) in chats.iter().enumerate() {
        let span = &spans[chat];
        assert!(within(chat, runs[0]), "{span:?} is inside the run");
        assert_eq!(span.field("otel.name"), "chat scripted");
        assert_eq!(span.field("gen_ai.operation.name"), "chat");
        assert_eq!(span.field("turn"), (turn + 1).to_string());
        assert!(!span.field("gen_ai.usage.output_tokens").is_empty());
    }

    let tools = find("execute_tool");
    assert_eq!(tools.len(), 1, "{spans:#?}");
    let tool = &spans[tools[0]];
    assert!(within(tools[0], runs[0]), "{tool:?} is inside the run");
    assert!(
        !chats.iter().any(|&chat| within(tools[0], chat)),
        "the call runs between requests, not inside one"
    );
    assert_eq!(tool.field("gen_ai.tool.name"), "add");
    assert_eq!(tool.field("gen_ai.tool.call.id"), "c1");
    assert_eq!(tool.field("outcome"), "ok");
}
