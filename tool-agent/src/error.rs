//! What can go wrong talking to a model, and running an agent.

use crate::router::error::RouteError;
use crate::router::stream::accumulate::StreamError;
use std::time::Duration;

/// A model request that failed. The conversation is left as it was before the request.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ModelError {
    /// The server answered with an error status; `body` is what it said (the provider's error
    /// object, cut at 64 KiB, the API key replaced by `***` wherever the server echoed it).
    /// The message shows the status and the provider's error message (its `error.message`),
    /// or the body's first line, never the whole body: a caller that prints the error sees
    /// why the server refused ("HTTP 401: Invalid API key") without a page of HTML.
    #[error("the model server answered HTTP {status}: {}", summary(body))]
    Http {
        /// The HTTP status.
        status: u16,
        /// The response body, as text.
        body: String,
        /// The wait the server asked for (`Retry-After`), when it gave one.
        retry_after: Option<Duration>,
    },
    /// No answer within the request timeout.
    #[error("the model server did not answer within {0:?}")]
    Timeout(Duration),
    /// The request timeout ran out while a streamed reply was being read, and most of that
    /// time went into handling the reply here (reading its events, and the caller's
    /// `on_delta`), not into waiting for the server: the server was not the slow side, so
    /// this is not [`Timeout`](Self::Timeout), and a retry would cost the same.
    #[error(
        "the {timeout:?} request timeout ran out while the reply was being read: {handling:?} \
         of it went into handling the reply here, not into waiting for the model server"
    )]
    HandlingTimeout {
        /// The request timeout.
        timeout: Duration,
        /// The time spent handling the reply's events before the timeout ran out.
        handling: Duration,
    },
    /// The request could not be sent or its answer not read (connection refused, reset, TLS).
    #[error("could not reach the model server at {url}")]
    Transport {
        /// Where the request went.
        url: String,
        /// Why it failed.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// The reply is not in the provider's shape. Its message is the [`RouteError`]'s, a whole
    /// clause already ("the model output is not OpenAI Responses output: ..."): put after
    /// "the model's reply is not a", it read "is not a not ...".
    #[error(transparent)]
    Route(#[from] RouteError),
    /// A streamed event is not in the provider's shape, or is the provider's error event.
    #[error("the model's stream sent a bad event")]
    Stream(#[from] StreamError),
    /// The stream ended before the reply did (no final event): the turn is not used, so no
    /// call of it is left without a result.
    #[error("the model's stream ended before the reply was complete ({received} bytes received)")]
    StreamCut {
        /// How much had arrived.
        received: usize,
    },
    /// The reply is larger than the transport's limit.
    #[error("the model's reply is over the {limit}-byte limit")]
    TooLarge {
        /// The limit.
        limit: usize,
    },
    /// The server redirected the request to another origin (scheme, host or port) than the
    /// configured one, and it was not followed: the key and the conversation are sent to the
    /// configured origin only. Redirects within that origin are followed (at most 10).
    #[error(
        "the model server at {origin} redirected the request to {location}, another origin; \
         not followed, so the key and the conversation stay with the configured server \
         (set the transport's base URL to the server you mean)"
    )]
    CrossOriginRedirect {
        /// The configured origin (`scheme://host:port`).
        origin: String,
        /// Where the server said to go.
        location: String,
    },
    /// The API key's environment variable, named explicitly, is not set.
    #[error("the API key variable `{0}` is not set")]
    MissingApiKey(String),
    /// The transport's settings are unusable (a header name or value HTTP rejects, a client
    /// that could not be built).
    #[error("the transport is misconfigured: {0}")]
    Config(String),
}

impl ModelError {
    /// Whether a retry may succeed: rate limits, overload and server errors, timeouts and
    /// connection failures.
    pub fn is_retryable(&self) -> bool {
        match self {
            ModelError::Http { status, .. } => matches!(status, 408 | 409 | 429 | 500..=599),
            ModelError::Timeout(_) | ModelError::Transport { .. } => true,
            _ => false,
        }
    }
}

/// The longest server message an error's text shows.
const SUMMARY_CHARS: usize = 300;

/// What an error body says, in one line: the provider's `error.message` (OpenAI, Anthropic,
/// Gemini) or `error` string (TensorZero) when the body is JSON holding one, else its first
/// non-blank line; cut at [`SUMMARY_CHARS`], and "(empty body)" for nothing at all.
fn summary(body: &str) -> String {
    let parsed = serde_json::from_str::<serde_json::Value>(body).ok();
    let message = parsed.as_ref().and_then(|value| {
        let error = value.get("error")?;
        error
            .get("message")
            .and_then(serde_json::Value::as_str)
            .or_else(|| error.as_str())
            .or_else(|| value.get("message").and_then(serde_json::Value::as_str))
    });
    let text = message
        .unwrap_or(body)
        .lines()
        .map(str::trim)
        .find(|line| !line.is_empty())
        .unwrap_or("(empty body)");
    match text.char_indices().nth(SUMMARY_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

/// An agent run that did not end with the model's answer. Every call the model made before
/// the error has its result in the conversation.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AgentError {
    /// A model request failed. Its message is the model error's own ("the model server
    /// answered HTTP 401: Invalid API key"), so a caller that prints only the top-level error
    /// still sees the status and the server's message; its source is the model error's.
    #[error(transparent)]
    Model(#[from] ModelError),
    /// The model was still calling tools after `max_turns` requests.
    #[error("the model was still calling tools after {0} turns")]
    MaxTurns(usize),
    /// The model made the same failing call to a tool turn after turn.
    #[error("the model failed a call to `{tool}` {times} times in a row; the last error: {error}")]
    RepeatedFailure {
        /// The tool.
        tool: String,
        /// How many times in a row.
        times: usize,
        /// The last error's text, as the model saw it.
        error: String,
    },
    /// The next request would be larger than [`max_request_bytes`](super::Agent::max_request_bytes)
    /// even with older tool results cut: the model's own turns are that large (a reply of
    /// thousands of calls, each sent back in the next request). It is not sent; every call
    /// of the conversation has its result, and [`clear`](super::Agent::clear) starts over.
    #[error(
        "the next model request would be {bytes} bytes, over the {limit}-byte limit \
         (max_request_bytes); it was not sent"
    )]
    RequestTooLarge {
        /// The request's size: the conversation, the system prompt and the tools, as JSON.
        bytes: usize,
        /// The limit.
        limit: usize,
    },
    /// The run's cancellation token fired.
    #[error("the agent run was cancelled")]
    Cancelled,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Provider;
    use serde_json::{json, Value};

    /// An error and its sources, as the CLI prints them: `a: b: c`.
    fn chain(error: &dyn std::error::Error) -> String {
        let mut text = error.to_string();
        let mut source = error.source();
        while let Some(cause) = source {
            text.push_str(": ");
            text.push_str(&cause.to_string());
            source = cause.source();
        }
        text
    }

    /// Issue 32 item 16, the agent's wrappers: a model request whose reply could not be
    /// routed reads as the routing error alone (`AgentError::Model` is its cause), for a
    /// wrong reply of every provider the agent speaks.
    #[test]
    fn route_errors_read_well_inside_agent_errors() {
        let not_json = serde_json::from_str::<Value>("{\"output\": ").unwrap_err();
        let replies = [
            (Provider::OpenAiResponses, json!({"output": 5})),
            (Provider::TensorZero, json!({"content": {}})),
            (Provider::OpenAiChat, json!({"choices": []})),
            (Provider::Anthropic, json!([1])),
            (Provider::Gemini, json!({"candidates": "x"})),
            (Provider::Ollama, json!({"message": 1})),
            (
                Provider::OpenAiChat,
                json!({"error": {"message": "Rate limit reached"}}),
            ),
        ];
        let errors = replies
            .iter()
            .map(|(provider, reply)| crate::router::route(*provider, reply).unwrap_err())
            .chain([RouteError::NotJson(not_json.into())]);
        for error in errors {
            let alone = chain(&error);
            let model = ModelError::from(error.clone());
            assert_eq!(chain(&model), alone);
            let agent = AgentError::from(ModelError::from(error));
            assert_eq!(chain(&agent), alone);
            assert!(
                !alone.contains("not a not") && !alone.contains("not not"),
                "{alone}"
            );
        }
    }
}
