//! Why a resource couldn't be read, a prompt got, or an argument completed.

use crate::client::AskError;

/// An error from a reader or a prompt, kept whole.
pub type BoxError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// A read, prompt or completion that failed. Over MCP, [`NotFound`](Self::NotFound) is the
/// spec's `-32002`, [`InvalidUri`](Self::InvalidUri) and the prompt errors `-32602`, [`Failed`](Self::Failed) `-32603`, and
/// [`Ask`](Self::Ask) as it says.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ResourceError {
    /// No resource has this URI and no template matches it.
    #[error("no resource has the URI `{uri}`")]
    NotFound {
        /// The URI asked for.
        uri: String,
    },
    /// The URI is over [`MAX_URI_BYTES`](super::MAX_URI_BYTES), or a template's variable
    /// decodes to a value the template does not take (a `/`, a `..` segment, a NUL: see
    /// [`VariableValues`](super::VariableValues)). Over MCP, `-32602`; the reader never ran.
    #[error(transparent)]
    InvalidUri(#[from] super::MatchError),
    /// No prompt has this name.
    #[error("no prompt is named `{name}`")]
    UnknownPrompt {
        /// The name asked for.
        name: String,
    },
    /// A prompt was asked for without an argument it requires.
    #[error("prompt `{prompt}` requires the argument `{argument}`")]
    MissingArgument {
        /// The prompt.
        prompt: String,
        /// The argument left out.
        argument: String,
    },
    /// A question the reader or prompt asked its client ([`AskContext`](crate::client::AskContext))
    /// got no usable answer. Over MCP a client that lacks the capability asked for gets
    /// `-32021` naming it, an answer that doesn't fit `-32602`, anything else `-32603`.
    #[error(transparent)]
    Ask(#[from] AskError),
    /// The reader or the prompt itself failed, or the server it was imported from did.
    #[error("{message}")]
    Failed {
        /// What to tell the client.
        message: String,
        /// The error underneath, when there is one.
        #[source]
        source: Option<BoxError>,
    },
}

impl ResourceError {
    /// A failure with a message for the client and no error underneath.
    pub fn failed(message: impl Into<String>) -> ResourceError {
        ResourceError::Failed {
            message: message.into(),
            source: None,
        }
    }

    /// A failure caused by `source`, whose text is the message.
    pub fn caused_by(source: impl std::error::Error + Send + Sync + 'static) -> ResourceError {
        ResourceError::Failed {
            message: source.to_string(),
            source: Some(Box::new(source)),
        }
    }
}
