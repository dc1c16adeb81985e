//! A tool asking its client, across a served-and-imported hop: a registry whose tools sample
//! and elicit is served over HTTP on 127.0.0.1 and imported back; the importing side answers
//! with its own client (a call it serves, here a `Client::scope`), with the import's handlers,
//! or, with neither, refuses.
#![cfg(feature = "mcp")]
// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use serde_json::json;
use std::time::Duration;
use tool_runtime::client::{
    Client, Elicitation, IncludeContext, Role, SamplingContent, SamplingRequest, SamplingResult,
};
use tool_runtime::mcp::McpImport;
use tool_runtime::{tool, Registry, ToolContext, ToolError};

mod serving;
use serving::{bounded, serve, Scripted};

/// Asks the client's model to name a colour.
#[tool]
async fn colour(cx: ToolContext) -> Result<String, ToolError> {
    let answer = cx.sample("Name a colour.").await?;
    Ok(format!("{} ({})", answer.text(), answer.model))
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Name {
    /// Your name.
    name: String,
}

/// Asks the user's name.
#[tool]
async fn name(cx: ToolContext) -> Result<String, ToolError> {
    Ok(match cx.elicit::<Name>("Who are you?").await? {
        Elicitation::Accept(Name { name }) => format!("hello {name}"),
        other => other.action().to_owned(),
    })
}

/// Sends the user to sign in, and says when the page is done with.
#[tool]
async fn sign_in(cx: ToolContext) -> Result<String, ToolError> {
    match cx
        .elicit_url(
            "https://auth.example/sign-in?state=8d1f",
            "Sign in, please.",
        )
        .await?
    {
        Elicitation::Accept(id) => {
            cx.complete_elicitation(&id).await?;
            Ok("signed in".into())
        }
        other => Ok(format!("not signed in ({})", other.action())),
    }
}

/// Asks the client's model, with the context of this server's session.
#[tool]
async fn recap(cx: ToolContext) -> Result<String, ToolError> {
    let request =
        SamplingRequest::user("Recap our session.").include_context(IncludeContext::ThisServer);
    Ok(cx.sample(request).await?.text())
}

/// Serves the asking tools over HTTP on 127.0.0.1; gives the URL.
async fn serve_askers() -> String {
    let registry = Registry::builder()
        .without_inventory()
        .register(colour::TOOL)
        .register(name::TOOL)
        .register(sign_in::TOOL)
        .register(recap::TOOL)
        .build()
        .unwrap();
    serve(registry).await
}

async fn import(import: McpImport) -> Registry {
    let tools = bounded(30, import.named("far").connect()).await.unwrap();
    Registry::builder()
        .without_inventory()
        .mcp_tools(tools)
        .build()
        .unwrap()
}

/// The client of a call this side would serve: its model says "teal", its user is Ada.
fn upstream() -> Scripted {
    Scripted::new("teal", json!({"name": "Ada"}))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_imported_servers_questions_go_to_the_client_of_the_call() {
    let url = serve_askers().await;
    let registry = import(McpImport::http(&url)).await;
    let upstream = upstream();
    let client = Client::new(upstream.clone());
    let sampled = bounded(30, client.clone().scope(registry.call("far__colour", "{}"))).await;
    assert_eq!(sampled.to_model_text(), "teal (upstream-1)");
    let elicited = bounded(30, client.scope(registry.call("far__name", "{}"))).await;
    assert_eq!(elicited.to_model_text(), "hello Ada");
    let asked = upstream.asked.lock().unwrap();
    assert_eq!(asked[0]["messages"][0]["content"]["text"], "Name a colour.");
    assert_eq!(
        asked[1]["requestedSchema"]["properties"]["name"],
        json!({"type": "string", "description": "Your name."})
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn outside_mcp_the_imports_handlers_answer() {
    let url = serve_askers().await;
    let registry = import(
        McpImport::http(&url)
            .on_sampling(|request| async move {
                let asked = request.messages.len();
                Ok(SamplingResult {
                    role: Role::Assistant,
                    content: vec![SamplingContent::text(format!("{asked} message read"))],
                    model: "handler".into(),
                    stop_reason: None,
                })
            })
            .on_elicitation(|request| async move {
                assert_eq!(request.message, "Who are you?");
                Ok(Elicitation::Accept(json!({"name": "Grace"})))
            }),
    )
    .await;
    let sampled = bounded(30, registry.call("far__colour", "{}")).await;
    assert_eq!(sampled.to_model_text(), "1 message read (handler)");
    let elicited = bounded(30, registry.call("far__name", "{}")).await;
    assert_eq!(elicited.to_model_text(), "hello Grace");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_nobody_to_ask_sampling_fails_and_elicitation_is_declined() {
    let url = serve_askers().await;
    let registry = import(McpImport::http(&url)).await;
    let sampled = bounded(30, registry.call("far__colour", "{}")).await;
    assert!(sampled.is_error(), "{sampled:?}");
    // As a local tool's `cx.sample` outside MCP: no client to ask.
    assert!(
        sampled.to_model_text().contains("no client to ask"),
        "{}",
        sampled.to_model_text()
    );
    let elicited = bounded(30, registry.call("far__name", "{}")).await;
    assert_eq!(elicited.to_model_text(), "decline");
}

/// The agent's model answers the imported server's sampling, through
/// `ModelSampling::handler`: a scripted model (a fixture standing in for a model server) that
/// keeps what it was asked.
#[cfg(feature = "agent")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agents_model_answers_an_imported_servers_sampling() {
    use futures_util::future::BoxFuture;
    use serde_json::Value;
    use std::sync::{Arc, Mutex};
    use tool_runtime::agent::{Model, ModelError, ModelReply, ModelRequest, ModelSampling, Usage};
    use tool_runtime::{router, Provider};

    #[derive(Default)]
    struct ScriptedModel(Arc<Mutex<Vec<Value>>>);

    impl Model for ScriptedModel {
        fn provider(&self) -> Provider {
            Provider::Anthropic
        }
        fn model_name(&self) -> &str {
            "scripted-1"
        }
        fn send<'a>(
            &'a self,
            request: &'a ModelRequest<'a>,
        ) -> BoxFuture<'a, Result<ModelReply, ModelError>> {
            self.0
                .lock()
                .unwrap()
                .extend(request.messages.iter().cloned());
            Box::pin(async {
                let reply = json!({"type": "message", "role": "assistant", "stop_reason": "end_turn",
                    "content": [{"type": "text", "text": "teal"}]});
                Ok(ModelReply {
                    turn: vec![reply.clone()],
                    routed: router::route(Provider::Anthropic, &reply)?,
                    usage: Usage::default(),
                })
            })
        }
    }

    let url = serve_askers().await;
    let asked = Arc::new(Mutex::new(Vec::new()));
    let model = ScriptedModel(Arc::clone(&asked));
    let registry =
        import(McpImport::http(&url).on_sampling(ModelSampling::new(model).handler())).await;
    let sampled = bounded(30, registry.call("far__colour", "{}")).await;
    assert_eq!(sampled.to_model_text(), "teal (scripted-1)");
    assert_eq!(
        *asked.lock().unwrap(),
        [json!({"role": "user", "content": "Name a colour."})]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn url_elicitation_and_its_completion_reach_a_client_that_declared_it() {
    let url = serve_askers().await;
    let registry = import(McpImport::http(&url)).await;
    let upstream = upstream();
    let out = bounded(
        30,
        Client::new(upstream.clone()).scope(registry.call("far__sign_in", "{}")),
    )
    .await;
    assert_eq!(out.to_model_text(), "signed in");
    let asked = upstream.asked.lock().unwrap().clone();
    assert_eq!(asked.len(), 1, "{asked:?}");
    assert_eq!(asked[0]["mode"], "url");
    assert_eq!(asked[0]["url"], "https://auth.example/sign-in?state=8d1f");
    assert_eq!(asked[0]["message"], "Sign in, please.");
    // The completion is a notification: it may come a moment after the call's result.
    let ours = asked[0]["elicitationId"].as_str().unwrap().to_owned();
    bounded(10, async {
        while upstream.completed.lock().unwrap().is_empty() {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    assert_eq!(*upstream.completed.lock().unwrap(), vec![ours]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn include_context_is_forwarded_as_asked() {
    let url = serve_askers().await;
    let registry = import(McpImport::http(&url)).await;
    let upstream = upstream();
    let out = bounded(
        30,
        Client::new(upstream.clone()).scope(registry.call("far__recap", "{}")),
    )
    .await;
    assert_eq!(out.to_model_text(), "teal");
    let asked = upstream.asked.lock().unwrap();
    assert_eq!(asked[0]["includeContext"], "thisServer");
    assert_eq!(
        asked[0]["messages"][0]["content"]["text"],
        "Recap our session."
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_without_url_mode_or_context_declines_and_refuses() {
    let url = serve_askers().await;
    let registry = import(McpImport::http(&url)).await;
    let upstream = upstream().basic();
    let client = Client::new(upstream.clone());
    let signed = bounded(
        30,
        client.clone().scope(registry.call("far__sign_in", "{}")),
    )
    .await;
    assert_eq!(signed.to_model_text(), "not signed in (decline)");
    // The question fails here as it would for a local tool: the capability, named.
    let recap = bounded(30, client.scope(registry.call("far__recap", "{}"))).await;
    assert!(recap.is_error(), "{recap:?}");
    assert!(
        recap
            .to_model_text()
            .contains("does not support sampling.context"),
        "{}",
        recap.to_model_text()
    );
    assert!(upstream.asked.lock().unwrap().is_empty());
    assert!(upstream.completed.lock().unwrap().is_empty());
}
