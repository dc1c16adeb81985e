//! What can go wrong talking to a model, and running an agent.

use crate::router::stream::StreamError;
use crate::router::RouteError;
use std::time::Duration;

/// A model request that failed. The conversation is left as it was before the request.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ModelError {
    /// The server answered with an error status; `body` is what it said (the provider's error
    /// object, cut at 64 KiB).
    #[error("the model server answered HTTP {status}: {body}")]
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
    /// The reply is not in the provider's shape.
    #[error("the model's reply is not a {0}")]
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

/// An agent run that did not end with the model's answer. Every call the model made before
/// the error has its result in the conversation.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AgentError {
    /// A model request failed.
    #[error("model request failed")]
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
    /// The run's cancellation token fired.
    #[error("the agent run was cancelled")]
    Cancelled,
}
