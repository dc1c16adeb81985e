//! Text-only mode against the scripted upstream (a fixture, not a model) behind a Chat
//! Completions endpoint without tools: the tools and how to call them go in the system prompt,
//! the calls are found in the reply's text (Hermes, Qwen3 XML, Mistral), and the results go
//! back as text.
#![cfg(feature = "agent")]
// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use futures_util::StreamExt;
use serde_json::Value;
use tool_runtime::agent::{Agent, AgentError, AgentEvent, OpenAiChat, Turn};
use tool_runtime::text::TextFormat;
use tool_runtime::{tool, Registry};
use tool_test_support::replies::*;
use tool_test_support::upstream::{Scripted, Upstream};

/// Get the current weather in a city.
#[tool(read_only)]
fn get_weather(
    /// City and country, for example "Paris, France".
    location: String,
    /// Degrees in Celsius, unless false.
    #[tool(default = true)]
    celsius: bool,
) -> String {
    let unit = if celsius { "°C" } else { "°F" };
    format!("18{unit} in {location}")
}

fn agent(upstream: &Upstream, format: TextFormat) -> Agent {
    let registry = Registry::builder()
        .without_inventory()
        .register(get_weather::TOOL)
        .build()
        .unwrap();
    let model = OpenAiChat::new(format!("{}/v1", upstream.url()), "gpt4all-scripted");
    Agent::new(model, registry)
        .system("Be brief.")
        .text_tools(format)
}

/// Runs one call written in `format` and checks the requests.
async fn one_call(format: TextFormat, reply_text: &str, open: &str) {
    let upstream = Upstream::start([
        Scripted::json(chat_text(reply_text)),
        Scripted::json(chat_text("It is 18°C in Paris.")),
    ]);
    let mut agent = agent(&upstream, format);
    let reply = agent.run("Weather in Paris?").await.unwrap();
    assert_eq!(reply.text, "It is 18°C in Paris.");
    assert_eq!(reply.calls, 1);

    let requests = upstream.requests();
    let first = &requests[0].body;
    assert!(
        first.get("tools").is_none(),
        "no native tools in text-only mode"
    );
    let system = first["messages"][0]["content"].as_str().unwrap();
    assert!(system.starts_with("Be brief.\n\n"));
    assert!(system.contains("get_weather"), "{system}");
    let second = &requests[1].body;
    let messages = second["messages"].as_array().unwrap();
    // The model's reply goes back as it wrote it, calls and all; the result follows as text.
    assert_eq!(messages[2]["role"], "assistant");
    assert_eq!(messages[2]["content"], reply_text);
    assert_eq!(messages[3]["role"], "user");
    let result = messages[3]["content"].as_str().unwrap();
    assert!(result.starts_with(open), "{result}");
    assert!(result.contains(r#""content":"18°C in Paris""#), "{result}");
    assert!(matches!(&agent.history()[1], Turn::Model { calls, .. } if calls[0].id == "t1_call_0"));
}

#[tokio::test]
async fn hermes_calls_in_text_run_and_their_results_go_back_as_text() {
    one_call(
        TextFormat::Hermes,
        "Let me check.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"location\": \"Paris\"}}\n</tool_call>",
        "<tool_response>",
    )
    .await;
}

#[tokio::test]
async fn qwen3_xml_calls_in_text_run_with_values_typed_by_the_schema() {
    one_call(
        TextFormat::QwenXml,
        "<tool_call>\n<function=get_weather>\n<parameter=location>\nParis\n</parameter>\n<parameter=celsius>\ntrue\n</parameter>\n</function>\n</tool_call>",
        "<tool_response>",
    )
    .await;
}

#[tokio::test]
async fn mistral_calls_in_text_run_and_results_go_back_in_its_tags() {
    one_call(
        TextFormat::Mistral,
        "[TOOL_CALLS][{\"name\": \"get_weather\", \"arguments\": {\"location\": \"Paris\"}}]",
        "[TOOL_RESULTS]",
    )
    .await;
}

#[tokio::test]
async fn an_unreadable_call_is_sent_back_and_the_model_writes_it_again() {
    let upstream = Upstream::start([
        Scripted::json(chat_text(
            "<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"location\": }</tool_call>",
        )),
        Scripted::json(chat_text(
            "<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"location\": \"Paris\"}}</tool_call>",
        )),
        Scripted::json(chat_text("18°C.")),
    ]);
    let mut agent = agent(&upstream, TextFormat::Hermes);
    assert_eq!(agent.run("Weather?").await.unwrap().text, "18°C.");
    let second = &upstream.requests()[1].body;
    let told = second["messages"][3]["content"].as_str().unwrap();
    assert!(told.contains("could not be read"), "{told}");
    assert!(agent
        .history()
        .iter()
        .any(|t| matches!(t, Turn::Unreadable(_))));
}

#[tokio::test]
async fn a_model_that_never_writes_a_readable_call_is_stopped() {
    let bad = || Scripted::json(chat_text("<tool_call>{\"name\": </tool_call>"));
    let upstream = Upstream::start([bad(), bad(), bad()]);
    let mut agent = agent(&upstream, TextFormat::Hermes).max_repeats(2);
    let error = agent.run("Weather?").await.unwrap_err();
    assert!(
        matches!(&error, AgentError::RepeatedFailure { times: 2, .. }),
        "{error:?}"
    );
}

#[tokio::test]
async fn text_only_mode_streams_the_prose_and_announces_the_calls() {
    let call = "<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"location\": \"Paris\"}}</tool_call>";
    let (a, b) = call.split_at(20);
    let first: Vec<Value> = chat_text_chunks(&format!("Checking. {a}"), b);
    let upstream = Upstream::start([
        Scripted::sse(first),
        Scripted::sse(chat_text_chunks("18°C ", "in Paris.")),
    ]);
    let mut agent = agent(&upstream, TextFormat::Hermes);
    let events: Vec<AgentEvent> = agent.stream("Weather?").map(Result::unwrap).collect().await;
    let text: String = events
        .iter()
        .filter_map(|e| match e {
            AgentEvent::Text(t) => Some(t.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(
        text, "Checking. 18°C in Paris.",
        "the call's markup is never shown"
    );
    assert!(events
        .iter()
        .any(|e| matches!(e, AgentEvent::CallReady(c) if c.name == "get_weather")));
    assert!(events.iter().any(|e| matches!(e, AgentEvent::CallResult { output, .. } if output.to_model_text() == "18°C in Paris")));
}

#[tokio::test]
async fn a_grammar_goes_with_the_first_request_of_each_run_only() {
    let call = "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"location\": \"Paris\"}}\n</tool_call>";
    let upstream = Upstream::start([
        Scripted::json(chat_text(call)),
        Scripted::json(chat_text("It is 18°C in Paris.")),
        Scripted::json(chat_text("Nothing else.")),
    ]);
    let agent = agent(&upstream, TextFormat::Hermes);
    let grammar =
        tool_runtime::text::call_grammar(TextFormat::Hermes, agent.registry().specs()).unwrap();
    let mut agent = agent.grammar(grammar.clone());
    agent.run("Weather in Paris?").await.unwrap();
    agent.run("Anything else?").await.unwrap();
    let requests = upstream.requests();
    let sent: Vec<Option<&str>> = requests
        .iter()
        .map(|r| r.body["grammar"].as_str())
        .collect();
    assert_eq!(sent, [Some(grammar.as_str()), None, Some(grammar.as_str())]);
}
