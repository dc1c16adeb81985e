//! The conformance tools of protocol 2026-07-28's input-required results
//! (`input-required-result-*`, SEP-2322): ordinary `#[tool]` fns that ask through
//! [`ToolContext`], named with [`ToolContext::ask`] where the scenario checks the key. Under
//! 2026-07-28 each question ends the call with an input-required result and the client's
//! retry runs the tool again with the answers; under the handshake protocols the same fns
//! send requests to the client.

use schemars::JsonSchema;
use serde::Deserialize;
use tool_runtime::client::{AskError, Elicitation, SamplingRequest};
use tool_runtime::{tool, ToolContext, ToolError};

/// A name.
#[derive(Deserialize, JsonSchema)]
struct Name {
    name: String,
}

/// A colour.
#[derive(Deserialize, JsonSchema)]
struct Colour {
    color: String,
}

/// A confirmation.
#[derive(Deserialize, JsonSchema)]
struct Confirm {
    ok: bool,
}

fn name_of(answer: Elicitation<Name>) -> String {
    answer
        .accepted()
        .map_or_else(|| "stranger".into(), |n| n.name)
}

/// "Hello, <name>!", for the user's answer to "What is your name?".
fn hello(answer: Elicitation<Name>) -> String {
    format!("Hello, {}!", name_of(answer))
}

/// Asks `confirm` ("Please confirm"): whether the user accepted, saying ok.
async fn confirmed(cx: &ToolContext) -> Result<bool, AskError> {
    let answer = cx
        .ask("confirm")
        .elicit::<Confirm>("Please confirm")
        .await?;
    Ok(answer.accepted().is_some_and(|c| c.ok))
}

/// Greets the user by the name they give.
///
/// Scenarios `input-required-result-basic-elicitation`, `-result-type`, `-missing-input-response`,
/// `-ignore-extra-params`, `-validate-input`: asks `user_name` (a form with `name`), then
/// "Hello, <name>!".
#[tool]
pub(super) async fn test_input_required_result_elicitation(
    cx: ToolContext,
) -> Result<String, ToolError> {
    let question = cx.ask("user_name");
    Ok(hello(question.elicit::<Name>("What is your name?").await?))
}

/// Asks the client's model a question.
///
/// Scenario `input-required-result-basic-sampling`: asks `capital_question`, then gives the
/// model's answer.
#[tool]
pub(super) async fn test_input_required_result_sampling(
    cx: ToolContext,
) -> Result<String, ToolError> {
    let request = SamplingRequest::user("What is the capital of France?").max_tokens(100);
    let answer = cx.ask("capital_question").sample(request).await?;
    Ok(answer.text())
}

/// Lists the client's roots.
///
/// Scenario `input-required-result-basic-list-roots`: asks `client_roots`, then names them.
#[tool]
pub(super) async fn test_input_required_result_list_roots(
    cx: ToolContext,
) -> Result<String, ToolError> {
    let roots = cx.ask("client_roots").roots().await?;
    let uris: Vec<_> = roots.iter().map(|root| root.uri.as_str()).collect();
    Ok(format!("Roots: {}", uris.join(", ")))
}

/// Asks for a confirmation, carried back in the request state.
///
/// Scenario `input-required-result-request-state`: asks `confirm`; the retry's answer only
/// reaches the tool when the state checked out, so "state-ok".
#[tool]
pub(super) async fn test_input_required_result_request_state(
    cx: ToolContext,
) -> Result<String, ToolError> {
    Ok(format!("state-ok: confirmed {}", confirmed(&cx).await?))
}

/// Asks three things at once: the user's name, a greeting from the model, the roots.
///
/// Scenario `input-required-result-multiple-input-requests`: the three questions are asked
/// together (`try_join!`), so all three are in one input-required result.
#[tool]
pub(super) async fn test_input_required_result_multiple_inputs(
    cx: ToolContext,
) -> Result<String, ToolError> {
    let (name, greeting, roots) = tokio::try_join!(
        cx.ask("user_name").elicit::<Name>("What is your name?"),
        cx.ask("greeting")
            .sample(SamplingRequest::user("Generate a greeting").max_tokens(50)),
        cx.ask("client_roots").roots(),
    )?;
    Ok(format!(
        "{} {}: {} roots",
        greeting.text(),
        name_of(name),
        roots.len()
    ))
}

/// Asks two things one after the other.
///
/// Scenario `input-required-result-multi-round`: `step1` (a name), then, once answered,
/// `step2` (a colour), then the result.
#[tool]
pub(super) async fn test_input_required_result_multi_round(
    cx: ToolContext,
) -> Result<String, ToolError> {
    let name = cx
        .ask("step1")
        .elicit::<Name>("Step 1: What is your name?")
        .await?;
    let colour = cx
        .ask("step2")
        .elicit::<Colour>("Step 2: What is your favorite color?")
        .await?;
    let colour = colour.accepted().map_or_else(|| "none".into(), |c| c.color);
    Ok(format!("{} likes {colour}", name_of(name)))
}

/// Asks for a confirmation; the scenario tampers with the state it gets back.
///
/// Scenario `input-required-result-tampered-state`: the retry with a changed `requestState`
/// is a `-32602` error before the tool runs.
#[tool]
pub(super) async fn test_input_required_result_tampered_state(
    cx: ToolContext,
) -> Result<String, ToolError> {
    Ok(format!("confirmed {}", confirmed(&cx).await?))
}

/// Asks only what the client can answer.
///
/// Scenario `input-required-result-capability-check`: a client that declared `sampling` and
/// not `elicitation` gets the sampling question only.
#[tool]
pub(super) async fn test_input_required_result_capabilities(
    cx: ToolContext,
) -> Result<String, ToolError> {
    let mut said = Vec::new();
    if cx.can_sample() {
        let request = SamplingRequest::user("Say hello").max_tokens(20);
        said.push(cx.ask("hello").sample(request).await?.text());
    }
    if cx.can_elicit() {
        said.push(name_of(
            cx.ask("user_name")
                .elicit::<Name>("What is your name?")
                .await?,
        ));
    }
    Ok(said.join(" "))
}

/// Asks the user a question, which under 2026-07-28 must not be a request on the call's
/// stream.
///
/// Scenario `server-stateless` (`sep-2575-http-server-no-independent-requests-on-stream`):
/// the call's response stream holds the input-required result, no `elicitation/create`.
#[tool]
pub(super) async fn test_streaming_elicitation(cx: ToolContext) -> Result<String, ToolError> {
    Ok(hello(cx.elicit::<Name>("What is your name?").await?))
}

/// Logs a line at every level.
///
/// Scenario `server-stateless` (`sep-2575-server-no-log-without-loglevel`): a 2026-07-28
/// request without `_meta["io.modelcontextprotocol/logLevel"]` gets none of them.
#[tool]
pub(super) async fn test_logging_tool(cx: ToolContext) -> String {
    use tool_runtime::output::LogLevel;
    for level in [
        LogLevel::Debug,
        LogLevel::Info,
        LogLevel::Warning,
        LogLevel::Error,
    ] {
        cx.log(level, format!("a line at {level:?}"));
    }
    "logged".into()
}

/// Needs the client's model: a client that did not declare `sampling` can't have the call.
///
/// Scenario `server-stateless` (`sep-2575-server-rejects-undeclared-capability`,
/// `-missing-capability-http-400`): the ask fails with `AskError::Unsupported`, the tool
/// with it, and the call is error `-32021` naming `sampling`, HTTP 400.
#[tool]
pub(super) async fn test_missing_capability(cx: ToolContext) -> Result<String, ToolError> {
    let request = SamplingRequest::user("Say hello").max_tokens(20);
    Ok(cx.sample(request).await?.text())
}
