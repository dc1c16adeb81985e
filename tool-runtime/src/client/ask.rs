//! The questions a tool asks through its [`ToolContext`]: the capability checks, then one
//! request each for sampling and elicitation.

use super::elicitation::ElicitationRequest;
use super::error::AskError;
use super::{schema, Client, Elicitation, SamplingRequest, SamplingResult};
use crate::ToolContext;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::Value;

const SAMPLING: &str = "sampling/createMessage";
const ELICITATION: &str = "elicitation/create";

impl ToolContext {
    /// Whether the call's client answers sampling requests ([`sample`](Self::sample)):
    /// false outside MCP, and for a client that did not declare `sampling`.
    pub fn can_sample(&self) -> bool {
        self.client
            .as_ref()
            .is_some_and(|client| client.capabilities().sampling)
    }

    /// Whether the call's client answers elicitation requests ([`elicit`](Self::elicit)):
    /// false outside MCP, and for a client that did not declare `elicitation` (form mode).
    pub fn can_elicit(&self) -> bool {
        self.client
            .as_ref()
            .is_some_and(|client| client.capabilities().elicitation)
    }

    /// Asks the client's model for a message (`sampling/createMessage`): a [`SamplingRequest`],
    /// or just the user's text. The client may show the request to its user, change it, or
    /// refuse it.
    ///
    /// ```
    /// use tool_runtime::client::SamplingRequest;
    /// use tool_runtime::{tool, ToolContext, ToolError};
    ///
    /// /// Summarize a text with the client's model.
    /// #[tool]
    /// async fn summarize(cx: ToolContext, text: String) -> Result<String, ToolError> {
    ///     let request = SamplingRequest::user(format!("Summarize in one line:\n{text}"))
    ///         .system_prompt("You write terse summaries.")
    ///         .max_tokens(80);
    ///     Ok(cx.sample(request).await?.text())
    /// }
    /// ```
    ///
    /// # Errors
    ///
    /// [`AskError::NoClient`] outside MCP, [`AskError::Unsupported`] when the client did not
    /// declare `sampling` (or `sampling.tools`, for a request with tools),
    /// [`AskError::Request`] when the client refused or failed, [`AskError::Answer`] for an
    /// answer that isn't a sampling result.
    pub async fn sample(
        &self,
        request: impl Into<SamplingRequest>,
    ) -> Result<SamplingResult, AskError> {
        let request = request.into();
        let client = self.asked("sampling")?;
        let capabilities = client.capabilities();
        if !capabilities.sampling {
            return Err(AskError::Unsupported {
                capability: "sampling",
            });
        }
        if (!request.tools.is_empty() || request.tool_choice.is_some())
            && !capabilities.sampling_tools
        {
            return Err(AskError::Unsupported {
                capability: "sampling.tools",
            });
        }
        let params = serde_json::to_value(&request).map_err(|source| AskError::Encode {
            method: SAMPLING,
            source,
        })?;
        let answer = client
            .requests()
            .create_message(params)
            .await
            .map_err(|source| AskError::Request {
                method: SAMPLING,
                source,
            })?;
        serde_json::from_value(answer).map_err(|source| AskError::Answer {
            method: SAMPLING,
            source,
        })
    }

    /// Asks the user to fill in a form (`elicitation/create`) shaped by `T`: a struct of
    /// strings, numbers, booleans, enums and lists of enum values (multi-select), as
    /// [`elicitation_schema_for`](super::elicitation_schema_for) flattens it. Doc comments are
    /// the fields' descriptions, `#[serde(default)]` values their defaults.
    ///
    /// ```
    /// use serde::Deserialize;
    /// use tool_runtime::client::Elicitation;
    /// use tool_runtime::{tool, ToolContext, ToolError};
    ///
    /// #[derive(Deserialize, schemars::JsonSchema)]
    /// struct Confirm {
    ///     /// Really delete?
    ///     sure: bool,
    /// }
    ///
    /// /// Delete a file, once the user says so.
    /// #[tool(destructive)]
    /// async fn delete(cx: ToolContext, path: String) -> Result<String, ToolError> {
    ///     match cx.elicit::<Confirm>(format!("Delete {path}?")).await? {
    ///         Elicitation::Accept(Confirm { sure: true }) => Ok(format!("{path} deleted")),
    ///         _ => Ok("kept".into()),
    ///     }
    /// }
    /// ```
    ///
    /// # Errors
    ///
    /// [`AskError::Schema`] (before anything is sent) when `T` is not a flat form,
    /// [`AskError::NoClient`] outside MCP, [`AskError::Unsupported`] when the client did not
    /// declare `elicitation`, [`AskError::Request`] when the client failed,
    /// [`AskError::Answer`] when the accepted content does not fit `T`.
    pub async fn elicit<T: JsonSchema + DeserializeOwned>(
        &self,
        message: impl Into<String>,
    ) -> Result<Elicitation<T>, AskError> {
        let schema = schema::elicitation_schema_for::<T>()?;
        self.ask_form(message.into(), schema).await
    }

    /// Asks the user to fill in a form given as a JSON schema (flattened as
    /// [`elicitation_schema`](super::elicitation_schema) does), and gives the answer as JSON:
    /// for dynamic tools, whose forms are only known at run time.
    ///
    /// # Errors
    ///
    /// As [`elicit`](Self::elicit).
    pub async fn elicit_json(
        &self,
        message: impl Into<String>,
        schema: &Value,
    ) -> Result<Elicitation<Value>, AskError> {
        let schema = schema::elicitation_schema(schema)?;
        self.ask_form(message.into(), schema).await
    }

    async fn ask_form<T: DeserializeOwned>(
        &self,
        message: String,
        requested_schema: Value,
    ) -> Result<Elicitation<T>, AskError> {
        let client = self.asked("elicitation")?;
        if !client.capabilities().elicitation {
            return Err(AskError::Unsupported {
                capability: "elicitation",
            });
        }
        let request = ElicitationRequest {
            message,
            requested_schema,
        };
        let params = serde_json::to_value(&request).map_err(|source| AskError::Encode {
            method: ELICITATION,
            source,
        })?;
        let answer =
            client
                .requests()
                .elicit(params)
                .await
                .map_err(|source| AskError::Request {
                    method: ELICITATION,
                    source,
                })?;
        serde_json::from_value(answer).map_err(|source| AskError::Answer {
            method: ELICITATION,
            source,
        })
    }

    /// The call's client, or the error saying there is none.
    fn asked(&self, capability: &'static str) -> Result<&Client, AskError> {
        self.client
            .as_ref()
            .ok_or(AskError::NoClient { capability })
    }
}

#[cfg(test)]
#[path = "ask_tests.rs"]
mod tests;
