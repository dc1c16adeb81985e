//! The Responses, Anthropic and Gemini transports against the scripted upstream (a fixture,
//! not a model): a full loop each, whole and streamed, with the fields each provider needs
//! back unchanged (Responses reasoning items and item ids, Anthropic thinking blocks and
//! their signatures, Gemini `thoughtSignature`) checked in the next request.
#![cfg(feature = "agent")]
// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use futures_util::StreamExt;
use serde_json::{json, Value};
use tool_runtime::agent::{
    Agent, AgentError, AgentEvent, Anthropic, Gemini, ModelError, OpenAiResponses,
};
use tool_runtime::{tool, Registry};
use tool_test_support::replies::*;
use tool_test_support::upstream::{Scripted, Upstream};

/// Get the current weather in a city.
#[tool(read_only)]
fn get_weather(
    /// City and country, for example "Paris, France".
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

async fn streamed(agent: &mut Agent, prompt: &str) -> Vec<AgentEvent> {
    agent.stream(prompt).map(Result::unwrap).collect().await
}

fn done_text(events: &[AgentEvent]) -> String {
    match events.last().unwrap() {
        AgentEvent::Done(reply) => reply.text.clone(),
        other => panic!("{other:?}"),
    }
}

// ---- OpenAI Responses ----

fn check_responses_second_request(second: &Value) {
    assert_eq!(second["instructions"], "Be brief.");
    let input = second["input"].as_array().unwrap();
    assert_eq!(
        input[0],
        json!({"type": "message", "role": "user", "content": "Weather?"})
    );
    // The output items go back unchanged, then one output per call.
    let kinds: Vec<&str> = input.iter().map(|i| i["type"].as_str().unwrap()).collect();
    assert_eq!(kinds.last(), Some(&"function_call_output"));
    let call = input.iter().find(|i| i["type"] == "function_call").unwrap();
    assert_eq!(call["id"], "fc_1");
    let output = input.last().unwrap();
    assert_eq!(output["call_id"], "call_9");
    assert_eq!(output["output"], "18°C in Paris");
    assert_eq!(second["tools"][0]["type"], "function");
    assert_eq!(second["tools"][0]["name"], "get_weather");
}

#[tokio::test]
async fn responses_loop_sends_reasoning_and_item_ids_back_unchanged() {
    let upstream = Upstream::start([
        Scripted::json(responses_call(
            "call_9",
            "get_weather",
            r#"{"location":"Paris"}"#,
        )),
        Scripted::json(responses_text("18°C.")),
    ]);
    let model = OpenAiResponses::new(format!("{}/v1", upstream.url()), "scripted");
    let mut agent = Agent::new(model, registry()).system("Be brief.");
    let reply = agent.run("Weather?").await.unwrap();
    assert_eq!(reply.text, "18°C.");
    assert_eq!(reply.usage.input_tokens, 75);
    let requests = upstream.requests();
    assert_eq!(requests[0].path, "/v1/responses");
    let second = &requests[1].body;
    check_responses_second_request(second);
    let reasoning = &second["input"][1];
    assert_eq!(
        reasoning,
        &json!({"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "gAAAA-opaque"})
    );
}

#[tokio::test]
async fn responses_loop_streamed() {
    let upstream = Upstream::start([
        Scripted::sse(responses_call_events(
            "call_9",
            "get_weather",
            r#"{"location":"Paris"}"#,
        )),
        Scripted::json(responses_text("18°C.")),
    ]);
    let model = OpenAiResponses::new(format!("{}/v1", upstream.url()), "scripted");
    let mut agent = Agent::new(model, registry()).system("Be brief.");
    let events = streamed(&mut agent, "Weather?").await;
    assert!(events.contains(&AgentEvent::CallStarted {
        id: "call_9".into(),
        name: "get_weather".into()
    }));
    // The second reply comes whole though a stream was asked for: it is read whole.
    assert_eq!(done_text(&events), "18°C.");
    let requests = upstream.requests();
    assert_eq!(requests[0].body["stream"], true);
    check_responses_second_request(&requests[1].body);
}

// ---- Anthropic ----

fn check_anthropic_second_request(second: &Value) {
    assert_eq!(second["system"], "Be brief.");
    assert_eq!(second["max_tokens"], 4096);
    let messages = second["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 3);
    let content = &messages[1]["content"];
    assert_eq!(messages[1]["role"], "assistant");
    assert_eq!(
        content[0],
        json!({"type": "thinking", "thinking": "The user wants the weather.", "signature": "EqQBCkYIARgCIkD"})
    );
    assert_eq!(content[2]["type"], "tool_use");
    assert_eq!(content[2]["input"], json!({"location": "Paris"}));
    assert_eq!(
        messages[2],
        json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "18°C in Paris"}]})
    );
    assert_eq!(second["tools"][0]["input_schema"]["type"], "object");
}

#[tokio::test]
async fn anthropic_loop_sends_thinking_blocks_back_unchanged() {
    let upstream = Upstream::start([
        Scripted::json(anthropic_call(
            "toolu_1",
            "get_weather",
            json!({"location": "Paris"}),
        )),
        Scripted::json(anthropic_text("18°C.")),
    ]);
    let model = Anthropic::new(format!("{}/v1", upstream.url()), "scripted").api_key("sk-ant-x");
    let mut agent = Agent::new(model, registry()).system("Be brief.");
    assert_eq!(agent.run("Weather?").await.unwrap().text, "18°C.");
    let requests = upstream.requests();
    assert_eq!(requests[0].path, "/v1/messages");
    assert_eq!(requests[0].header("x-api-key"), Some("sk-ant-x"));
    assert_eq!(requests[0].header("anthropic-version"), Some("2023-06-01"));
    assert!(requests[0].header("authorization").is_none());
    check_anthropic_second_request(&requests[1].body);
}

#[tokio::test]
async fn anthropic_loop_streamed_rebuilds_thinking_and_input_from_deltas() {
    let upstream = Upstream::start([
        Scripted::sse(anthropic_call_events(
            "toolu_1",
            "get_weather",
            r#"{"location": "Paris"}"#,
            true,
        )),
        Scripted::json(anthropic_text("18°C.")),
    ]);
    let model = Anthropic::new(format!("{}/v1", upstream.url()), "scripted");
    let mut agent = Agent::new(model, registry()).system("Be brief.");
    let events = streamed(&mut agent, "Weather?").await;
    assert_eq!(done_text(&events), "18°C.");
    assert!(events.contains(&AgentEvent::Text("Let me check.".into())));
    let usage = events.iter().find_map(|e| match e {
        AgentEvent::Usage(u) => Some(*u),
        _ => None,
    });
    assert_eq!(usage.unwrap().input_tokens, 55);
    assert_eq!(usage.unwrap().output_tokens, 25);
    check_anthropic_second_request(&upstream.requests()[1].body);
}

#[tokio::test]
async fn anthropic_stream_without_message_stop_is_cut() {
    let upstream = Upstream::start([Scripted::sse(anthropic_call_events(
        "toolu_1",
        "get_weather",
        r#"{"location": "Paris"}"#,
        false,
    ))]);
    let model = Anthropic::new(format!("{}/v1", upstream.url()), "scripted");
    let mut agent = Agent::new(model, registry());
    let last = agent
        .stream("Weather?")
        .collect::<Vec<_>>()
        .await
        .pop()
        .unwrap();
    assert!(
        matches!(last, Err(AgentError::Model(ModelError::StreamCut { .. }))),
        "{last:?}"
    );
    assert_eq!(agent.messages().len(), 1);
}

#[tokio::test]
async fn anthropic_error_event_mid_stream_is_a_typed_error() {
    let upstream = Upstream::start([Scripted::sse([
        json!({"type": "message_start", "message": {"id": "m", "type": "message", "role": "assistant", "content": [], "usage": {"input_tokens": 1, "output_tokens": 1}}}),
        json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
    ])]);
    let model = Anthropic::new(format!("{}/v1", upstream.url()), "scripted");
    let mut agent = Agent::new(model, registry());
    let last = agent.stream("hi").collect::<Vec<_>>().await.pop().unwrap();
    let Err(AgentError::Model(error)) = last else {
        panic!("{last:?}")
    };
    assert!(matches!(error, ModelError::Stream(_)), "{error:?}");
}

// ---- Gemini ----

fn check_gemini_second_request(second: &Value) {
    assert_eq!(
        second["systemInstruction"],
        json!({"parts": [{"text": "Be brief."}]})
    );
    let contents = second["contents"].as_array().unwrap();
    assert_eq!(
        contents[0],
        json!({"role": "user", "parts": [{"text": "Weather?"}]})
    );
    let call_part = contents[1]["parts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p.get("functionCall").is_some())
        .unwrap();
    assert_eq!(call_part["thoughtSignature"], "CiQBVKhc7opaque");
    let response = &contents[2]["parts"][0]["functionResponse"];
    assert_eq!(response["name"], "get_weather");
    assert_eq!(response["response"], json!({"output": "18°C in Paris"}));
    assert_eq!(
        second["tools"][0]["functionDeclarations"][0]["name"],
        "get_weather"
    );
}

#[tokio::test]
async fn gemini_loop_sends_the_thought_signature_back() {
    let upstream = Upstream::start([
        Scripted::json(gemini_call("get_weather", json!({"location": "Paris"}))),
        Scripted::json(gemini_text("18°C.")),
    ]);
    let model =
        Gemini::new(format!("{}/v1beta", upstream.url()), "gemini-scripted").api_key("g-key");
    let mut agent = Agent::new(model, registry()).system("Be brief.");
    let reply = agent.run("Weather?").await.unwrap();
    assert_eq!(reply.text, "18°C.");
    assert_eq!(reply.usage.input_tokens, 100);
    let requests = upstream.requests();
    assert_eq!(
        requests[0].path,
        "/v1beta/models/gemini-scripted:generateContent"
    );
    assert_eq!(requests[0].header("x-goog-api-key"), Some("g-key"));
    check_gemini_second_request(&requests[1].body);
}

#[tokio::test]
async fn gemini_loop_streamed() {
    let upstream = Upstream::start([
        Scripted::sse(gemini_call_events(
            "get_weather",
            json!({"location": "Paris"}),
        )),
        Scripted::sse([gemini_text("18°C.")]),
    ]);
    let model = Gemini::new(format!("{}/v1beta", upstream.url()), "gemini-scripted");
    let mut agent = Agent::new(model, registry()).system("Be brief.");
    let events = streamed(&mut agent, "Weather?").await;
    assert_eq!(done_text(&events), "18°C.");
    assert!(events
        .iter()
        .any(|e| matches!(e, AgentEvent::CallReady(c) if c.name == "get_weather")));
    let requests = upstream.requests();
    assert_eq!(
        requests[0].path,
        "/v1beta/models/gemini-scripted:streamGenerateContent?alt=sse"
    );
    check_gemini_second_request(&requests[1].body);
}

// The tools of ai.google.dev/gemini-api/docs/function-calling's examples, so the page's
// replies (tests/support `gemini_docs_*`) run against their own declarations.

/// Turns the spinning disco ball on or off.
#[tool]
fn power_disco_ball(
    /// Whether to turn the disco ball on or off.
    power: bool,
) -> String {
    format!("disco ball {}", if power { "on" } else { "off" })
}

/// Play some music matching the specified parameters.
#[tool]
fn start_music(
    /// Whether the music is energetic or not.
    energetic: bool,
    /// Whether the music is loud or not.
    loud: bool,
) -> String {
    format!("music energetic={energetic} loud={loud}")
}

/// Dim the lights.
#[tool]
fn dim_lights(
    /// The brightness of the lights, 0.0 is off, 1.0 is full.
    brightness: f64,
) -> String {
    format!("lights at {brightness}")
}

/// Schedules a meeting with specified attendees at a given time and date.
#[tool]
fn schedule_meeting(
    /// List of people attending the meeting.
    attendees: Vec<String>,
    /// Date of the meeting (e.g., '2024-07-29').
    date: String,
    /// Time of the meeting (e.g., '15:00').
    time: String,
    /// The subject or topic of the meeting.
    topic: String,
) -> String {
    format!(
        "{topic} with {} on {date} at {time}",
        attendees.join(" and ")
    )
}

#[tokio::test]
async fn gemini_documented_examples_run_through_the_loop() {
    let upstream = Upstream::start([
        Scripted::json(gemini_docs_party_calls()),
        Scripted::json(gemini_text("Let's party!")),
        Scripted::json(gemini_docs_meeting_call()),
        Scripted::json(gemini_text("Booked.")),
    ]);
    let registry = Registry::builder()
        .without_inventory()
        .register(power_disco_ball::TOOL)
        .register(start_music::TOOL)
        .register(dim_lights::TOOL)
        .register(schedule_meeting::TOOL)
        .build()
        .unwrap();
    let model = Gemini::new(format!("{}/v1beta", upstream.url()), "gemini-scripted");
    let mut agent = Agent::new(model, registry);
    let party = agent.run("Turn this place into a party!").await.unwrap();
    assert_eq!(party.text, "Let's party!");
    assert_eq!(party.calls, 3);
    let meeting = agent
        .run("Schedule a meeting with Bob and Alice for 03/14/2025 at 10:00 AM about the Q3 planning.")
        .await
        .unwrap();
    assert_eq!(meeting.text, "Booked.");

    let requests = upstream.requests();
    assert_eq!(requests.len(), 4);
    // The party: the model's content goes back as it came, then one user content answering
    // the three calls in their order, each by its name.
    let contents = requests[1].body["contents"].as_array().unwrap();
    assert_eq!(
        contents[1],
        gemini_docs_party_calls()["candidates"][0]["content"]
    );
    let responses: Vec<(&str, &str)> = contents[2]["parts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let r = &p["functionResponse"];
            (
                r["name"].as_str().unwrap(),
                r["response"]["output"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        responses,
        [
            ("power_disco_ball", "disco ball on"),
            ("start_music", "music energetic=true loud=true"),
            ("dim_lights", "lights at 0.5"),
        ]
    );
    assert_eq!(contents[2]["role"], "user");
    // The meeting, in the same conversation: every earlier turn is still there.
    let contents = requests[3].body["contents"].as_array().unwrap();
    assert_eq!(contents.len(), 7);
    let answer = &contents[6]["parts"][0]["functionResponse"];
    assert_eq!(answer["name"], "schedule_meeting");
    assert_eq!(
        answer["response"]["output"],
        "Q3 planning with Bob and Alice on 2025-03-14 at 10:00"
    );
    let declared: Vec<&str> = requests[0].body["tools"][0]["functionDeclarations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["name"].as_str().unwrap())
        .collect();
    assert_eq!(declared.len(), 4, "{declared:?}");
}
