use crate::client::{
    AskError, ClientCapabilities, ClientFuture, ClientRequests, Elicitation, SamplingRequest,
    SchemaErrorKind, StopReason,
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
}

impl Scripted {
    fn new(capabilities: ClientCapabilities, answer: Value) -> Scripted {
        Scripted {
            capabilities,
            answer,
            asked: Arc::default(),
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
