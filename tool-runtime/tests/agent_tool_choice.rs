//! `Agent::tool_choice` against the scripted upstream (a fixture, not a model): the choice
//! goes with the first request of a run only, in each provider's own shape, and the OpenAI
//! bodies still fit OpenAI's OpenAPI spec, Gemini's its documented request rules.
#![cfg(feature = "agent")]
// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use serde_json::{json, Value};
use tool_runtime::agent::{
    Agent, Anthropic, Gemini, Model, Ollama, OpenAiChat, OpenAiResponses, TensorZero, ToolChoice,
};
use tool_runtime::text::TextFormat;
use tool_runtime::{tool, Registry};
use tool_test_support::openapi;
use tool_test_support::replies::*;
use tool_test_support::rules::gemini_request;
use tool_test_support::upstream::{Recorded, Scripted, Upstream};

/// Get the current weather in a city.
#[tool(read_only)]
fn get_weather(
    /// The city.
    location: String,
) -> String {
    format!("18°C in {location}")
}

fn registry() -> Registry {
    Registry::builder()
        .without_inventory()
        .register(get_weather::TOOL)
        .build()
        .unwrap()
}

fn tensorzero_text(text: &str) -> Value {
    json!({
        "inference_id": "0192e8a8-0000-7000-8000-000000000001",
        "episode_id": "0192e8a8-0000-7000-8000-000000000002",
        "variant_name": "v",
        "content": [{"type": "text", "text": text}],
        "usage": {"input_tokens": 3, "output_tokens": 2}
    })
}

fn tensorzero_call(name: &str, arguments: Value) -> Value {
    json!({
        "inference_id": "0192e8a8-0000-7000-8000-000000000003",
        "episode_id": "0192e8a8-0000-7000-8000-000000000002",
        "variant_name": "v",
        "content": [{"type": "tool_call", "id": "c1", "name": name, "raw_name": name,
                     "arguments": arguments, "raw_arguments": arguments.to_string()}],
        "usage": {"input_tokens": 3, "output_tokens": 2}
    })
}

/// One run of two requests (a call, then text) with `choice`; the two request bodies.
async fn two_requests(
    model: impl FnOnce(&str) -> Box<dyn Model>,
    replies: [Value; 2],
    choice: ToolChoice,
) -> (Recorded, Recorded) {
    let [call, text] = replies;
    let upstream = Upstream::start([Scripted::json(call), Scripted::json(text)]);
    let mut agent = Agent::new(model(&upstream.url()), registry()).tool_choice(choice);
    agent.run("Weather in Paris?").await.unwrap();
    let mut requests = upstream.requests().into_iter();
    (requests.next().unwrap(), requests.next().unwrap())
}

#[tokio::test]
async fn openai_chat_sends_its_shape_first_only_and_fits_the_spec() {
    for (choice, sent) in [
        (ToolChoice::Required, json!("required")),
        (ToolChoice::Auto, json!("auto")),
        (
            ToolChoice::Tool("get_weather".into()),
            json!({"type": "function", "function": {"name": "get_weather"}}),
        ),
    ] {
        let (first, second) = two_requests(
            |url| Box::new(OpenAiChat::new(format!("{url}/v1"), "m")),
            [
                chat_calls(&[("c1", "get_weather", r#"{"location": "Paris"}"#)]),
                chat_text("18°C."),
            ],
            choice,
        )
        .await;
        assert_eq!(first.body["tool_choice"], sent);
        assert!(second.body.get("tool_choice").is_none());
        assert_eq!(openapi::violations(&first.path, &first.body), Some(vec![]));
    }
}

#[tokio::test]
async fn openai_responses_sends_its_shape_and_fits_the_spec() {
    let (first, second) = two_requests(
        |url| Box::new(OpenAiResponses::new(format!("{url}/v1"), "m")),
        [
            responses_call("c1", "get_weather", r#"{"location": "Paris"}"#),
            responses_text("18°C."),
        ],
        ToolChoice::Tool("get_weather".into()),
    )
    .await;
    assert_eq!(
        first.body["tool_choice"],
        json!({"type": "function", "name": "get_weather"})
    );
    assert!(second.body.get("tool_choice").is_none());
    assert_eq!(openapi::violations(&first.path, &first.body), Some(vec![]));
}

#[tokio::test]
async fn anthropic_sends_any_for_required_and_tool_for_a_name() {
    for (choice, sent) in [
        (ToolChoice::Required, json!({"type": "any"})),
        (ToolChoice::None, json!({"type": "none"})),
        (
            ToolChoice::Tool("get_weather".into()),
            json!({"type": "tool", "name": "get_weather"}),
        ),
    ] {
        let (first, second) = two_requests(
            |url| Box::new(Anthropic::new(format!("{url}/v1"), "m")),
            [
                anthropic_call("c1", "get_weather", json!({"location": "Paris"})),
                anthropic_text("18°C."),
            ],
            choice,
        )
        .await;
        assert_eq!(first.body["tool_choice"], sent);
        assert!(second.body.get("tool_choice").is_none());
    }
}

#[tokio::test]
async fn gemini_sends_a_function_calling_config() {
    let (first, second) = two_requests(
        |url| Box::new(Gemini::new(format!("{url}/v1beta"), "m")),
        [
            gemini_call("get_weather", json!({"location": "Paris"})),
            gemini_text("18°C."),
        ],
        ToolChoice::Tool("get_weather".into()),
    )
    .await;
    assert_eq!(
        first.body["toolConfig"],
        json!({"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["get_weather"]}})
    );
    assert!(second.body.get("toolConfig").is_none());
    assert_eq!(
        gemini_request::check_request(&first.body),
        Vec::<String>::new()
    );
}

#[tokio::test]
async fn tensorzero_sends_specific_for_a_name() {
    let (first, second) = two_requests(
        |url| Box::new(TensorZero::function(url.to_owned(), "f")),
        [
            tensorzero_call("get_weather", json!({"location": "Paris"})),
            tensorzero_text("18°C."),
        ],
        ToolChoice::Tool("get_weather".into()),
    )
    .await;
    assert_eq!(
        first.body["tool_choice"],
        json!({"specific": "get_weather"})
    );
    assert!(second.body.get("tool_choice").is_none());
}

#[tokio::test]
async fn ollama_and_text_only_mode_send_none() {
    let (first, _) = two_requests(
        |url| Box::new(Ollama::new(url, "m")),
        [
            ollama_calls(&[("c1", "get_weather", json!({"location": "Paris"}))]),
            ollama_text("18°C."),
        ],
        ToolChoice::Required,
    )
    .await;
    assert!(first.body.get("tool_choice").is_none());
    // In text-only mode no tools go out, so neither does a choice among them.
    let upstream = Upstream::start([Scripted::json(chat_text("No call."))]);
    let model = OpenAiChat::new(format!("{}/v1", upstream.url()), "m");
    let mut agent = Agent::new(model, registry())
        .text_tools(TextFormat::Hermes)
        .tool_choice(ToolChoice::Required);
    agent.run("Weather?").await.unwrap();
    assert!(upstream.requests()[0].body.get("tool_choice").is_none());
}

#[test]
fn tool_choice_reads_the_cli_spelling() {
    let read = |text: &str| text.parse::<ToolChoice>().unwrap();
    assert_eq!(read("auto"), ToolChoice::Auto);
    assert_eq!(read("required"), ToolChoice::Required);
    assert_eq!(read("none"), ToolChoice::None);
    assert_eq!(read("get_weather"), ToolChoice::Tool("get_weather".into()));
    assert_eq!(read("get_weather").to_string(), "get_weather");
}

#[tokio::test]
async fn a_prefill_ends_the_first_request_as_the_assistants_turn() {
    for anthropic in [false, true] {
        let (call, text) = if anthropic {
            (
                anthropic_call("c1", "get_weather", json!({"location": "Paris"})),
                anthropic_text("18°C."),
            )
        } else {
            (
                chat_calls(&[("c1", "get_weather", r#"{"location": "Paris"}"#)]),
                chat_text("18°C."),
            )
        };
        let upstream = Upstream::start([Scripted::json(call), Scripted::json(text)]);
        let url = format!("{}/v1", upstream.url());
        let model: Box<dyn Model> = if anthropic {
            Box::new(Anthropic::new(url, "m"))
        } else {
            Box::new(OpenAiChat::new(url, "m"))
        };
        let mut agent = Agent::new(model, registry()).prefill("<tool_call>\n");
        agent.run("Weather in Paris?").await.unwrap();
        let requests = upstream.requests();
        let last = |body: &Value| body["messages"].as_array().unwrap().last().unwrap().clone();
        assert_eq!(
            last(&requests[0].body),
            json!({"role": "assistant", "content": "<tool_call>\n"})
        );
        // Not kept: the second request ends with the call's result.
        assert_ne!(last(&requests[1].body)["role"], "assistant");
        if !anthropic {
            assert_eq!(
                openapi::violations(&requests[0].path, &requests[0].body),
                Some(vec![])
            );
        }
    }
}
