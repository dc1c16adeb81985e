//! The conformance tools that ask the client: sampling (`tools-call-sampling`) and
//! elicitation (`tools-call-elicitation`, `elicitation-sep1034-defaults`,
//! `elicitation-sep1330-enums`), each an ordinary `#[tool]` fn on
//! [`ToolContext::sample`] and [`ToolContext::elicit`], the form derived from a Rust type; and
//! URL-mode elicitation ([`ToolContext::elicit_url`], [`ToolContext::url_required`]), which
//! no scenario calls.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use tool_runtime::client::{Elicitation, SamplingRequest};
use tool_runtime::{tool, ToolContext, ToolError};

/// Asks the client's model to answer a prompt.
///
/// Scenario `tools-call-sampling`: `sampling/createMessage` with the prompt as one user text
/// message and `maxTokens: 100`; returns "LLM response: <response from sampling>". Without
/// the client's `sampling` capability it fails.
#[tool]
pub(super) async fn test_sampling(
    cx: ToolContext,
    /// The prompt to send to the LLM.
    prompt: String,
) -> Result<String, ToolError> {
    let answer = cx
        .sample(SamplingRequest::user(prompt).max_tokens(100))
        .await?;
    Ok(format!("LLM response: {}", answer.text()))
}

/// Who the user is.
#[derive(Serialize, Deserialize, JsonSchema)]
struct UserInfo {
    /// User's response
    username: String,
    /// User's email address
    email: String,
}

/// Asks the user who they are.
///
/// Scenario `tools-call-elicitation`: `elicitation/create` with the message and a form of
/// two required strings, `username` and `email`; returns "User response: <action, content>".
#[tool]
pub(super) async fn test_elicitation(
    cx: ToolContext,
    /// The message to show the user.
    message: String,
) -> Result<String, ToolError> {
    let answer = cx.elicit::<UserInfo>(message).await?;
    Ok(format!("User response: {}", summary(&answer)))
}

/// A form with a default for every primitive type.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(default)]
struct Defaults {
    name: String,
    age: i64,
    score: f64,
    status: Status,
    verified: bool,
}

impl Default for Defaults {
    fn default() -> Defaults {
        Defaults {
            name: "John Doe".to_owned(),
            age: 30,
            score: 95.5,
            status: Status::Active,
            verified: true,
        }
    }
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Status {
    Active,
    Inactive,
    Pending,
}

/// Asks for a form whose every field has a default.
///
/// Scenario `elicitation-sep1034-defaults` (SEP-1034): `name` "John Doe", `age` 30 (integer),
/// `score` 95.5, `status` "active" (of active, inactive, pending), `verified` true.
#[tool]
pub(super) async fn test_elicitation_sep1034_defaults(
    cx: ToolContext,
) -> Result<String, ToolError> {
    let answer = cx
        .elicit::<Defaults>("Please review and update the form fields with defaults")
        .await?;
    Ok(format!("Elicitation completed: {}", summary(&answer)))
}

/// A form of every enum form SEP-1330 defines.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct Enums {
    untitled_single: Untitled,
    titled_single: Titled,
    /// The deprecated form: values, and their titles beside them in `enumNames`.
    #[schemars(extend("enumNames" = ["Option One", "Option Two", "Option Three"]))]
    legacy_enum: Legacy,
    untitled_multi: Vec<Untitled>,
    titled_multi: Vec<TitledChoice>,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Untitled {
    Option1,
    Option2,
    Option3,
}

/// A variant's doc comment is its title.
#[derive(Serialize, Deserialize, JsonSchema)]
enum Titled {
    /// First Option
    #[serde(rename = "value1")]
    First,
    /// Second Option
    #[serde(rename = "value2")]
    Second,
    /// Third Option
    #[serde(rename = "value3")]
    Third,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Legacy {
    Opt1,
    Opt2,
    Opt3,
}

#[derive(Serialize, Deserialize, JsonSchema)]
enum TitledChoice {
    /// First Choice
    #[serde(rename = "value1")]
    First,
    /// Second Choice
    #[serde(rename = "value2")]
    Second,
    /// Third Choice
    #[serde(rename = "value3")]
    Third,
}

/// Asks for a form of every enum form.
///
/// Scenario `elicitation-sep1330-enums` (SEP-1330): untitled and titled single-select, the
/// legacy `enumNames` form, untitled and titled multi-select.
#[tool]
pub(super) async fn test_elicitation_sep1330_enums(cx: ToolContext) -> Result<String, ToolError> {
    let answer = cx.elicit::<Enums>("Please select options").await?;
    Ok(format!("Elicitation completed: {}", summary(&answer)))
}

/// Sends the user to a URL (URL-mode elicitation), and tells the client when the visit is
/// done.
///
/// No conformance scenario calls it (the suites have none for URL mode); the tests drive it
/// with the official Python SDK in both protocols. Returns "User response: action=<action>";
/// an accepted visit is reported complete first (`notifications/elicitation/complete` under
/// the handshake protocols).
#[tool]
pub(super) async fn test_elicitation_url(
    cx: ToolContext,
    /// The page to send the user to.
    url: String,
    /// Why the user should go there.
    message: String,
) -> Result<String, ToolError> {
    let answer = cx.ask("visit").elicit_url(url, message).await?;
    if let Elicitation::Accept(id) = &answer {
        cx.complete_elicitation(id).await?;
    }
    Ok(format!("User response: action={}", answer.action()))
}

/// Refuses the call until the user has opened a URL (`-32042` under 2025-11-25, a URL-mode
/// input request under 2026-07-28, the URL in an error's text without `elicitation.url`).
///
/// No conformance scenario calls it; the tests drive it with the official Python SDK in both
/// protocols. It never succeeds: nothing here can see the user's visit.
#[tool]
pub(super) async fn test_url_required(
    cx: ToolContext,
    /// The page the user must open.
    url: String,
    /// Why the user should go there.
    message: String,
) -> Result<String, ToolError> {
    Err(cx.url_required(url, message)?.into())
}

/// `action=accept, content={...}`.
fn summary<T: Serialize>(answer: &Elicitation<T>) -> String {
    match answer {
        Elicitation::Accept(content) => format!(
            "action=accept, content={}",
            serde_json::to_string(content).unwrap_or_default()
        ),
        other => format!("action={}", other.action()),
    }
}
