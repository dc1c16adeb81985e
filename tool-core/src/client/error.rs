//! What can go wrong asking the client: no client, a client that can't, a schema that can't
//! be a form, a request that failed, an answer that can't be read.

use super::BoxError;
use crate::error::{ErrorCode, ToolError};
use std::time::Duration;

/// A question to the client (sampling, elicitation, roots) that got no usable answer.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AskError {
    /// The call has no client to ask: it was not served over MCP (a plain
    /// [`Registry::call`](crate::Registry::call)), and nobody set a
    /// [`Client`](super::Client).
    #[error("cannot ask for {capability}: this call is not served over MCP, so there is no client to ask")]
    NoClient {
        /// `sampling`, `elicitation`, `elicitation.url` or `roots`.
        capability: &'static str,
    },
    /// The client did not declare the capability (in its handshake, or under protocol
    /// 2026-07-28 in the request).
    #[error("the client does not support {capability}: it did not declare the capability")]
    Unsupported {
        /// `sampling`, `sampling.tools`, `sampling.context`, `elicitation`,
        /// `elicitation.url` or `roots`.
        capability: &'static str,
    },
    /// The type or schema given to elicit can't be an elicitation form; nothing was sent.
    #[error(transparent)]
    Schema(#[from] SchemaError),
    /// The URL given to [`elicit_url`](crate::ToolContext::elicit_url) or
    /// [`url_required`](crate::ToolContext::url_required) (or forwarded from an imported
    /// server) is not a link a client can show and open as it reads: not `https` (or `http`
    /// to a loopback host), with a user-info part, or holding spaces, control characters or
    /// invisible format characters; nothing was sent.
    #[error("cannot send the user to {url:?}: {reason}")]
    InvalidUrl {
        /// The URL given.
        url: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// The request could not be built (a value that doesn't serialize); nothing was sent.
    #[error("the {method} request could not be written: {source}")]
    Encode {
        /// The MCP method.
        method: &'static str,
        /// serde's error.
        #[source]
        source: serde_json::Error,
    },
    /// The client answered with an error, or the request never reached it.
    #[error("the client failed {method}: {source}")]
    Request {
        /// The MCP method.
        method: &'static str,
        /// The transport's or client's error.
        #[source]
        source: BoxError,
    },
    /// The client did not answer within its deadline ([`Client::with_ask_timeout`]; over
    /// MCP `McpServer::ask_timeout`, [`DEFAULT_ASK_TIMEOUT`] unless set): the question was
    /// withdrawn (an MCP client is sent `notifications/cancelled` for it, a task's question
    /// leaves its `inputRequests`), and the tool goes on without the answer.
    ///
    /// [`Client::with_ask_timeout`]: super::Client::with_ask_timeout
    /// [`DEFAULT_ASK_TIMEOUT`]: super::DEFAULT_ASK_TIMEOUT
    #[error("the client did not answer {method} within {} s; the question was withdrawn", after.as_secs_f64())]
    TimedOut {
        /// The MCP method.
        method: &'static str,
        /// The deadline that passed.
        after: Duration,
    },
    /// The answer comes with the client's next try of the call: under protocol 2026-07-28 the
    /// server can't ask the client during a call, so the call ends with an input-required
    /// result holding this question, and the client calls again with the answer. Let it
    /// end the tool (`?`): whatever the tool returns after it is not sent.
    #[error("{method} ({key}) is asked of the client; the call goes on when it answers")]
    InputRequired {
        /// The MCP method.
        method: &'static str,
        /// The question's key in the input-required result.
        key: String,
    },
    /// The client's answer does not have the expected shape (for [`elicit`](crate::ToolContext::elicit):
    /// the accepted content does not fit the type).
    #[error("the client's answer to {method} could not be read: {source}")]
    Answer {
        /// The MCP method.
        method: &'static str,
        /// serde's error.
        #[source]
        source: serde_json::Error,
    },
}

/// What a [`ClientRequests`](super::ClientRequests) gives for a question whose answer comes
/// with the client's next try: [`AskError::InputRequired`] to the tool.
#[derive(Debug, thiserror::Error)]
#[error("input required: {key}")]
pub struct InputPending {
    /// The question's key.
    pub key: String,
}

/// So that `?` in a tool returning `Result<_, ToolError>` works: the model reads what went
/// wrong ([`ToolError`] carries a message, not a source, and this error's message already
/// says what its source said).
impl From<AskError> for ToolError {
    fn from(error: AskError) -> ToolError {
        ToolError::with_code(ErrorCode::ToolFailed, error.to_string())
    }
}

/// A JSON schema that can't be an elicitation form, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not an elicitation schema at {path}: {kind}")]
pub struct SchemaError {
    /// A JSON pointer into the schema given (`/properties/address`).
    pub path: String,
    /// What is wrong.
    pub kind: SchemaErrorKind,
}

/// What makes a schema not an elicitation form.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SchemaErrorKind {
    /// The root is not an object with properties.
    #[error("the root must be an object with `properties`")]
    NotAnObject,
    /// A property is an object: forms are flat.
    #[error("a nested object; a form holds only strings, numbers, booleans and enums")]
    NestedObject,
    /// A property is an array of something other than enum values.
    #[error("an array of {0}; only an array of enum values (a multi-select) can be asked for")]
    ArrayOfNonEnum(String),
    /// A property's type is not one a form has.
    #[error("the type {0}, which a form does not have")]
    UnsupportedType(String),
    /// A property is a choice between schemas that are not plain values.
    #[error("a choice between schemas that are not constant strings")]
    UnsupportedChoice,
    /// A `$ref` that points nowhere in the schema.
    #[error("the reference {0} points nowhere")]
    DanglingRef(String),
    /// An enum value that is not a string.
    #[error("an enum value that is not a string: {0}")]
    NonStringEnum(String),
}
