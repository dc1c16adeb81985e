//! Imported prompts, resources and tools that ask, at both protocols: a registry whose
//! prompt elicits, whose template samples and whose tool samples is served over HTTP on
//! 127.0.0.1 and imported back, under the handshake (its questions are requests to the
//! import's client) and under 2026-07-28 (input-required results, retried with the
//! answers). Either way the questions reach the reader's client, and with no client the
//! read fails as a local one would.
#![cfg(feature = "mcp")]
// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use serde_json::json;
use tool_runtime::client::{AskError, Client, Elicitation};
use tool_runtime::mcp::{McpImport, McpProtocol};
use tool_runtime::output::ResourceBody;
use tool_runtime::resources::{
    Contents, Prompt, PromptArgs, PromptMessage, ResourceError, ResourceTemplate,
};
use tool_runtime::{tool, Registry, ToolContext, ToolError};

mod serving;
use serving::{bounded, serve, Scripted};

/// What the briefing should assume.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Background {
    /// The context.
    context: String,
}

/// Asks the client's model to name a colour.
#[tool]
async fn colour(cx: ToolContext) -> Result<String, ToolError> {
    Ok(cx.ask("shade").sample("Name a colour.").await?.text())
}

/// Serves a prompt that elicits, a template that samples and a tool that samples, over HTTP
/// on 127.0.0.1; gives the URL.
async fn serve_askers() -> String {
    let registry = Registry::builder()
        .without_inventory()
        .register(colour::TOOL)
        .prompt(
            Prompt::asking("briefing", |args, cx| async move {
                let context = match cx
                    .ask("user_context")
                    .elicit::<Background>("What context should the prompt use?")
                    .await?
                {
                    Elicitation::Accept(answer) => answer.context,
                    other => other.action().to_owned(),
                };
                let text = format!("Brief me on {} ({context}).", &args["topic"]);
                Ok(vec![PromptMessage::user(text)])
            })
            .argument("topic", "What to brief on.", true),
        )
        .resource_template(ResourceTemplate::asking(
            "summary://{topic}",
            "summary",
            |vars, cx| async move {
                let prompt = format!("Summarize {} in a line.", &vars["topic"]);
                Ok(Contents::text(cx.sample(prompt).await?.text()))
            },
        ))
        .build()
        .unwrap();
    serve(registry).await
}

async fn import(url: &str, protocol: McpProtocol) -> Registry {
    let import = McpImport::http(url).named("far").protocol(protocol);
    let tools = bounded(30, import.connect()).await.unwrap();
    // The protocol asked for is the one spoken: the two paths are both tested.
    let spoken = match protocol {
        McpProtocol::V2026_07_28 => "2026-07-28",
        _ => "2025-11-25",
    };
    assert_eq!(tools.protocol_version(), Some(spoken));
    Registry::builder()
        .without_inventory()
        .mcp_tools(tools)
        .build()
        .unwrap()
}

async fn questions_reach_the_readers_client(protocol: McpProtocol) {
    let url = serve_askers().await;
    let registry = import(&url, protocol).await;
    let resources = registry.resources();
    let reader = Scripted::new("Water rises.", json!({"context": "a sailing club"}));
    let client = Client::new(reader.clone());

    let args = PromptArgs::new([("topic", "tides")]);
    let got = client
        .clone()
        .scope(resources.get_prompt("far__briefing", args));
    let messages = bounded(30, got).await.unwrap();
    assert_eq!(
        messages[0].content.to_model_text(),
        "Brief me on tides (a sailing club)."
    );

    let read = client.clone().scope(resources.read("summary://tides"));
    let contents = bounded(30, read).await.unwrap();
    let text = ResourceBody::Text {
        text: "Water rises.".into(),
    };
    assert_eq!(contents[0].body, text);

    let called = bounded(30, client.scope(registry.call("far__colour", "{}"))).await;
    assert_eq!(called.to_model_text(), "Water rises.");

    // Each question asked once, with what the server asked.
    let asked = reader.asked.lock().unwrap();
    assert_eq!(asked.len(), 3, "{asked:?}");
    assert_eq!(asked[0]["message"], "What context should the prompt use?");
    assert_eq!(
        asked[1]["messages"][0]["content"]["text"],
        "Summarize tides in a line."
    );
    assert_eq!(asked[2]["messages"][0]["content"]["text"], "Name a colour.");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn under_the_handshake_questions_reach_the_readers_client() {
    questions_reach_the_readers_client(McpProtocol::Handshake).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn under_2026_07_28_input_required_rounds_reach_the_readers_client() {
    questions_reach_the_readers_client(McpProtocol::V2026_07_28).await;
}

async fn without_a_client_the_read_fails_as_a_local_one(protocol: McpProtocol) {
    let url = serve_askers().await;
    let registry = import(&url, protocol).await;
    let read = bounded(30, registry.resources().read("summary://tides")).await;
    assert!(
        matches!(
            read,
            Err(ResourceError::Ask(AskError::NoClient {
                capability: "sampling"
            }))
        ),
        "{read:?}"
    );
    // An elicitation nobody can answer is declined, as for an imported tool's.
    let args = PromptArgs::new([("topic", "tides")]);
    let got = bounded(30, registry.resources().get_prompt("far__briefing", args)).await;
    assert_eq!(
        got.unwrap()[0].content.to_model_text(),
        "Brief me on tides (decline)."
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn under_the_handshake_without_a_client_the_read_fails_as_a_local_one() {
    without_a_client_the_read_fails_as_a_local_one(McpProtocol::Handshake).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn under_2026_07_28_without_a_client_the_read_fails_as_a_local_one() {
    without_a_client_the_read_fails_as_a_local_one(McpProtocol::V2026_07_28).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_question_crosses_two_imports_at_2026_07_28() {
    // The asking server, imported and served again by a middle registry, imported here: the
    // middle's client speaks 2026-07-28 too, so the question goes back to us in its
    // input-required result, under the far server's key, and our answer comes down again.
    let far = serve_askers().await;
    let middle = serve(import(&far, McpProtocol::V2026_07_28).await).await;
    let near = McpImport::http(&middle)
        .named("near")
        .protocol(McpProtocol::V2026_07_28);
    let tools = bounded(30, near.connect()).await.unwrap();
    let registry = Registry::builder()
        .without_inventory()
        .mcp_tools(tools)
        .build()
        .unwrap();
    let reader = Scripted::new("Water rises.", json!({"context": "a sailing club"}));
    let client = Client::new(reader.clone());

    let called = client
        .clone()
        .scope(registry.call("near__far__colour", "{}"));
    assert_eq!(bounded(30, called).await.to_model_text(), "Water rises.");
    let args = PromptArgs::new([("topic", "tides")]);
    let got = client.scope(registry.resources().get_prompt("near__far__briefing", args));
    let messages = bounded(30, got).await.unwrap();
    assert_eq!(
        messages[0].content.to_model_text(),
        "Brief me on tides (a sailing club)."
    );
    let asked = reader.asked.lock().unwrap();
    assert_eq!(asked.len(), 2, "{asked:?}");
}
