use crate::client::{
    AskError, ClientCapabilities, ClientFuture, ClientRequests, Elicitation, IncludeContext,
    NotifyFuture, SamplingRequest, SchemaErrorKind, StopReason,
};
use crate::{DynamicTool, Registry, ToolContext, ToolOutput};
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};

/// A client that answers from a script and keeps what it was asked.
#[derive(Clone)]
struct Scripted {
    capabilities: ClientCapabilities,
    answer: Value,
    asked: Arc<Mutex<Vec<Value>>>,
    /// The URL-mode elicitations it was told are complete.
    completed: Arc<Mutex<Vec<String>>>,
}

impl Scripted {
    fn new(capabilities: ClientCapabilities, answer: Value) -> Scripted {
        Scripted {
            capabilities,
            answer,
            asked: Arc::default(),
            completed: Arc::default(),
        }
    }

    fn answer(&self, params: Value) -> ClientFuture {
        self.asked.lock().unwrap().push(params);
        let answer = self.answer.clone();
        Box::pin(async move { Ok(answer) })
    }
}

impl ClientRequests for Scripted {
    fn capabilities(&self) -> ClientCapabilities {
        self.capabilities
    }
    fn create_message(&self, params: Value) -> ClientFuture {
        self.answer(params)
    }
    fn elicit(&self, params: Value) -> ClientFuture {
        self.answer(params)
    }
    fn elicitation_complete(&self, elicitation_id: &str) -> NotifyFuture {
        self.completed
            .lock()
            .unwrap()
            .push(elicitation_id.to_owned());
        Box::pin(async { Ok(()) })
    }
}

/// Runs `ask` in a call's context, inside `client`'s scope if there is one.
async fn in_call<F, Fut>(client: Option<Scripted>, ask: F) -> String
where
    F: Fn(ToolContext) -> Fut + Send + Sync + 'static,
    Fut: std::future::Future<Output = String> + Send + 'static,
{
    let ask = Arc::new(ask);
    let tool = DynamicTool::new("ask", "Asks.", json!({"type": "object"}), move |_, cx| {
        let ask = Arc::clone(&ask);
        async move { ToolOutput::text(ask(cx).await) }
    });
    let registry = Registry::builder()
        .without_inventory()
        .dynamic(tool)
        .build()
        .unwrap();
    let call = registry.call("ask", "{}");
    let output = match client {
        Some(client) => super::Client::new(client).scope(call).await,
        None => call.await,
    };
    output.to_model_text()
}

#[derive(serde::Deserialize, schemars::JsonSchema, Debug, PartialEq)]
struct Name {
    name: String,
}

#[tokio::test]
async fn outside_mcp_both_say_there_is_no_client() {
    let said = in_call(None, |cx| async move {
        let sampled = cx.sample("hi").await.unwrap_err();
        let elicited = cx.elicit::<Name>("who?").await.unwrap_err();
        assert!(matches!(
            sampled,
            AskError::NoClient {
                capability: "sampling"
            }
        ));
        assert!(matches!(elicited, AskError::NoClient { .. }));
        format!("{} {} | {sampled}", cx.can_sample(), cx.can_elicit())
    })
    .await;
    assert_eq!(
        said,
        "false false | cannot ask for sampling: this call is not served over MCP, so there is no client to ask"
    );
}

#[tokio::test]
async fn a_client_without_the_capability_is_not_asked() {
    let client = Scripted::new(ClientCapabilities::default(), json!({}));
    let asked = Arc::clone(&client.asked);
    let said = in_call(Some(client), |cx| async move {
        let sampled = cx.sample("hi").await.unwrap_err();
        let elicited = cx.elicit::<Name>("who?").await.unwrap_err();
        format!(
            "{} {} | {sampled} | {elicited}",
            cx.can_sample(),
            cx.can_elicit()
        )
    })
    .await;
    assert_eq!(said, "false false | the client does not support sampling: it did not declare the capability | the client does not support elicitation: it did not declare the capability");
    assert!(asked.lock().unwrap().is_empty());
}

#[tokio::test]
async fn sampling_sends_the_request_and_reads_the_result() {
    let client = Scripted::new(
        ClientCapabilities::all(),
        json!({"role": "assistant", "content": {"type": "text", "text": "blue"}, "model": "m1", "stopReason": "endTurn"}),
    );
    let asked = Arc::clone(&client.asked);
    let said = in_call(Some(client), |cx| async move {
        let result = cx
            .sample(SamplingRequest::user("colour?").max_tokens(5))
            .await
            .unwrap();
        assert_eq!(result.stop_reason, Some(StopReason::EndTurn));
        format!("{} from {}", result.text(), result.model)
    })
    .await;
    assert_eq!(said, "blue from m1");
    assert_eq!(
        asked.lock().unwrap()[0],
        json!({"messages": [{"role": "user", "content": {"type": "text", "text": "colour?"}}], "maxTokens": 5})
    );
}

#[tokio::test]
async fn sampling_with_tools_needs_the_tools_capability() {
    let only_sampling = ClientCapabilities {
        sampling: true,
        ..ClientCapabilities::default()
    };
    let client = Scripted::new(only_sampling, json!({}));
    let said = in_call(Some(client), |cx| async move {
        let request = SamplingRequest::user("add").tool(crate::client::SamplingTool::new(
            "add",
            "Add.",
            json!({"type": "object"}),
        ));
        cx.sample(request).await.unwrap_err().to_string()
    })
    .await;
    assert!(said.contains("sampling.tools"), "{said}");
}

#[tokio::test]
async fn elicitation_reads_accept_decline_and_cancel() {
    for (answer, expected) in [
        (
            json!({"action": "accept", "content": {"name": "Ada"}}),
            "Accept(Name { name: \"Ada\" })",
        ),
        (json!({"action": "decline"}), "Decline"),
        (json!({"action": "cancel"}), "Cancel"),
    ] {
        let client = Scripted::new(ClientCapabilities::all(), answer);
        let asked = Arc::clone(&client.asked);
        let said = in_call(Some(client), |cx| async move {
            format!("{:?}", cx.elicit::<Name>("Who?").await.unwrap())
        })
        .await;
        assert_eq!(said, expected);
        assert_eq!(
            asked.lock().unwrap()[0],
            json!({"message": "Who?", "requestedSchema": {
                "type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]
            }})
        );
    }
}

#[tokio::test]
async fn an_accepted_answer_that_does_not_fit_is_an_error() {
    let client = Scripted::new(
        ClientCapabilities::all(),
        json!({"action": "accept", "content": {"name": 5}}),
    );
    let said = in_call(Some(client), |cx| async move {
        let error = cx.elicit::<Name>("Who?").await.unwrap_err();
        assert!(matches!(error, AskError::Answer { .. }));
        error.to_string()
    })
    .await;
    assert!(
        said.starts_with("the client's answer to elicitation/create could not be read"),
        "{said}"
    );
}

#[tokio::test]
async fn a_schema_that_is_not_a_form_is_refused_before_sending() {
    let client = Scripted::new(ClientCapabilities::all(), json!({"action": "cancel"}));
    let asked = Arc::clone(&client.asked);
    let said = in_call(Some(client), |cx| async move {
        let schema = json!({"type": "object", "properties": {"a": {"type": "object"}}});
        match cx.elicit_json("nested", &schema).await {
            Err(AskError::Schema(error)) => {
                assert_eq!(error.kind, SchemaErrorKind::NestedObject);
                error.to_string()
            }
            other => format!("{other:?}"),
        }
    })
    .await;
    assert!(said.contains("/properties/a"), "{said}");
    assert!(asked.lock().unwrap().is_empty());
}

#[tokio::test]
async fn raw_elicitation_gives_json() {
    let client = Scripted::new(
        ClientCapabilities::all(),
        json!({"action": "accept", "content": {"n": 3}}),
    );
    let said = in_call(Some(client), |cx| async move {
        let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}}});
        let answer = cx.elicit_json("n?", &schema).await.unwrap();
        format!("{}", answer.accepted().unwrap())
    })
    .await;
    assert_eq!(said, "{\"n\":3}");
    let _ = Elicitation::<Value>::Cancel.action();
}

#[tokio::test]
async fn sampling_with_context_from_servers_needs_the_context_capability() {
    let only_sampling = ClientCapabilities {
        sampling: true,
        ..ClientCapabilities::default()
    };
    let answer =
        json!({"role": "assistant", "content": {"type": "text", "text": "ok"}, "model": "m"});
    for (context, sent) in [
        (IncludeContext::None, true),
        (IncludeContext::ThisServer, false),
        (IncludeContext::AllServers, false),
    ] {
        let client = Scripted::new(only_sampling, answer.clone());
        let asked = Arc::clone(&client.asked);
        let said = in_call(Some(client), move |cx| async move {
            let request = SamplingRequest::user("so far?").include_context(context);
            match cx.sample(request).await {
                Ok(result) => result.text(),
                Err(error) => error.to_string(),
            }
        })
        .await;
        if sent {
            assert_eq!(said, "ok");
            assert_eq!(asked.lock().unwrap()[0]["includeContext"], "none");
        } else {
            assert_eq!(
                said,
                "the client does not support sampling.context: it did not declare the capability"
            );
            assert!(asked.lock().unwrap().is_empty());
        }
    }
    // A client that declared it gets the request as asked.
    let client = Scripted::new(ClientCapabilities::all(), answer);
    let asked = Arc::clone(&client.asked);
    in_call(Some(client), |cx| async move {
        let request = SamplingRequest::user("so far?").include_context(IncludeContext::AllServers);
        cx.sample(request).await.unwrap().text()
    })
    .await;
    assert_eq!(asked.lock().unwrap()[0]["includeContext"], "allServers");
}

#[tokio::test]
async fn url_elicitation_sends_the_url_and_names_the_accepted_id() {
    for (answer, expected) in [
        (json!({"action": "accept"}), "accept"),
        (json!({"action": "decline"}), "decline"),
        (json!({"action": "cancel"}), "cancel"),
    ] {
        let client = Scripted::new(ClientCapabilities::all(), answer);
        let asked = Arc::clone(&client.asked);
        let completed = Arc::clone(&client.completed);
        let said = in_call(Some(client), |cx| async move {
            assert!(cx.can_elicit_url());
            let answer = cx
                .elicit_url(
                    "https://example.com/connect?state=7",
                    "Connect your account.",
                )
                .await
                .unwrap();
            let action = answer.action();
            if let Elicitation::Accept(id) = answer {
                cx.complete_elicitation(&id).await.unwrap();
                return format!("{action} {id}");
            }
            action.to_owned()
        })
        .await;
        let sent = asked.lock().unwrap()[0].clone();
        assert_eq!(sent["mode"], "url");
        assert_eq!(sent["url"], "https://example.com/connect?state=7");
        assert_eq!(sent["message"], "Connect your account.");
        let id = sent["elicitationId"].as_str().unwrap().to_owned();
        if expected == "accept" {
            // The id the tool got is the one sent, and the one it said was complete.
            assert_eq!(said, format!("accept {id}"));
            assert_eq!(*completed.lock().unwrap(), [id]);
        } else {
            assert_eq!(said, expected);
            assert!(completed.lock().unwrap().is_empty());
        }
    }
}

#[tokio::test]
async fn url_elicitation_needs_the_url_capability_and_an_absolute_url() {
    let forms_only = ClientCapabilities {
        elicitation: true,
        ..ClientCapabilities::default()
    };
    let client = Scripted::new(forms_only, json!({"action": "accept"}));
    let asked = Arc::clone(&client.asked);
    let said = in_call(Some(client), |cx| async move {
        let refused = cx
            .elicit_url("https://example.com/pay", "Pay.")
            .await
            .unwrap_err();
        let invalid = cx.elicit_url("example.com/pay", "Pay.").await.unwrap_err();
        assert!(matches!(invalid, AskError::InvalidUrl { .. }));
        format!("{} | {refused} | {invalid}", cx.can_elicit_url())
    })
    .await;
    assert_eq!(
        said,
        "false | the client does not support elicitation.url: it did not declare the capability \
         | cannot send the user to \"example.com/pay\": it is not an absolute URL (`https://...`)"
    );
    assert!(asked.lock().unwrap().is_empty());

    // Outside MCP there is no one to ask, nor to tell.
    let said = in_call(None, |cx| async move {
        let asked = cx
            .elicit_url("https://example.com", "Go.")
            .await
            .unwrap_err();
        let id =
            crate::client::UrlElicitationRequest::new("https://example.com", "Go.").elicitation_id;
        let told = cx.complete_elicitation(&id).await.unwrap_err();
        format!("{asked} | {told}")
    })
    .await;
    assert_eq!(
        said.matches("there is no client to ask").count(),
        2,
        "{said}"
    );
}

#[tokio::test]
async fn a_url_answer_without_an_action_is_an_error() {
    let client = Scripted::new(ClientCapabilities::all(), json!({"done": true}));
    let said = in_call(Some(client), |cx| async move {
        let error = cx
            .elicit_url("https://example.com", "Go.")
            .await
            .unwrap_err();
        assert!(matches!(error, AskError::Answer { .. }));
        error.to_string()
    })
    .await;
    assert!(said.contains("elicitation/create"), "{said}");
}

/// A client whose user never answers; `asked` is told when a question comes.
struct Silent(Arc<tokio::sync::Notify>);

impl ClientRequests for Silent {
    fn capabilities(&self) -> ClientCapabilities {
        ClientCapabilities::all()
    }
    fn create_message(&self, _: Value) -> ClientFuture {
        self.0.notify_one();
        Box::pin(std::future::pending())
    }
    fn elicit(&self, _: Value) -> ClientFuture {
        self.0.notify_one();
        Box::pin(std::future::pending())
    }
}

/// An exclusive tool (not `parallel`) named `name` that asks, or that only says its name.
fn exclusive(name: &'static str, asks: bool) -> DynamicTool {
    DynamicTool::new(
        name,
        "An exclusive tool.",
        json!({"type": "object", "properties": {}}),
        move |_, cx: ToolContext| async move {
            if !asks {
                return ToolOutput::text(name);
            }
            match cx.sample("Anything?").await {
                Ok(answer) => ToolOutput::text(answer.text()),
                Err(error) => ToolOutput::text(error.to_string()),
            }
        },
    )
}

/// Calls `asker` with a client that never answers and waits at most `deadline`; gives the
/// call, once the question is out.
async fn asking_silently(
    registry: &Arc<Registry>,
    deadline: std::time::Duration,
) -> tokio::task::JoinHandle<ToolOutput> {
    let asked = Arc::new(tokio::sync::Notify::new());
    let client = crate::client::Client::new(Silent(Arc::clone(&asked))).with_ask_timeout(deadline);
    let registry = Arc::clone(registry);
    let call = tokio::spawn(client.scope(async move { registry.call("asker", "{}").await }));
    let bound = std::time::Duration::from_secs(30);
    tokio::time::timeout(bound, asked.notified()).await.unwrap();
    call
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_question_out_holds_no_gate_and_ends_at_the_clients_deadline() {
    let registry = Arc::new(
        Registry::builder()
            .without_inventory()
            .dynamic(exclusive("asker", true))
            .dynamic(exclusive("writer", false))
            .concurrency_limit(1)
            .build()
            .unwrap(),
    );
    let bound = std::time::Duration::from_secs(30);
    let waiting = asking_silently(&registry, std::time::Duration::from_secs(600)).await;
    // The gate and the only concurrency permit are free while the question is out.
    let written = tokio::time::timeout(bound, registry.call("writer", "{}"))
        .await
        .unwrap();
    assert_eq!(written.to_model_text(), "writer");
    assert!(!waiting.is_finished(), "the question is still out");
    waiting.abort();

    let short = std::time::Duration::from_millis(300);
    let asked = asking_silently(&registry, short).await;
    let asked = tokio::time::timeout(bound, asked).await.unwrap().unwrap();
    assert_eq!(
        asked.to_model_text(),
        "the client did not answer sampling/createMessage within 0.3 s; the question was withdrawn"
    );
}
