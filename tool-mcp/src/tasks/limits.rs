//! What a server's task store may keep (how many tasks, how many bytes, for how long, in
//! all and per client), the error a client past a bound gets, and why a question or an
//! answer was refused.

use std::time::Duration;

/// Why a task could not be created, or a question or result kept in one.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum TaskStoreError {
    /// As many tasks as allowed are kept, none of them settled; one expires after its TTL.
    #[error(
        "too many tasks: {max} are kept at once and none has settled or expired yet; retry later"
    )]
    Full {
        /// The cap ([`McpServer::max_tasks`](crate::McpServer::max_tasks)).
        max: usize,
    },
    /// This client (its session, or its address when sessionless) runs as many tasks as
    /// one client may keep, none of them settled.
    #[error("too many tasks for this client: {max} are kept per client and none of its tasks has settled; retry when one has")]
    ClientFull {
        /// The share ([`McpServer::max_tasks_per_client`](crate::McpServer::max_tasks_per_client)).
        max: usize,
    },
    /// What the task would keep (arguments, a question, a result) doesn't fit in the bytes
    /// left to the server's tasks.
    #[error("the task would keep {needed} more bytes, and the server's tasks have {left} of {max} bytes left; retry later")]
    Bytes {
        /// What the task would keep.
        needed: usize,
        /// What is left, running tasks counted.
        left: usize,
        /// The budget ([`McpServer::max_task_bytes`](crate::McpServer::max_task_bytes)).
        max: usize,
    },
    /// What the task would keep doesn't fit in the bytes left to this client's tasks.
    #[error("the task would keep {needed} more bytes, and this client's tasks have {left} of {max} bytes left; retry when one has settled")]
    ClientBytes {
        /// What the task would keep.
        needed: usize,
        /// What is left to the client, its running tasks counted.
        left: usize,
        /// The budget ([`McpServer::max_task_bytes_per_client`](crate::McpServer::max_task_bytes_per_client)).
        max: usize,
    },
    /// The request names an HTTP session that has ended: its tasks are gone, and it can't
    /// start one.
    #[error("the session has ended: its tasks are gone")]
    SessionEnded,
    /// A shared store (Redis) could not be reached, or did not answer in time: the
    /// request is refused rather than answered from a guess.
    #[error("the task store is unavailable")]
    Unavailable(#[source] Unavailable),
}

/// Why a shared task store could not answer: what was being done, and the client's error.
#[derive(Clone, Debug, thiserror::Error)]
#[error("{doing}")]
pub struct Unavailable {
    doing: String,
    #[source]
    source: std::sync::Arc<dyn std::error::Error + Send + Sync>,
}

impl Unavailable {
    /// `doing` failed with `source`.
    #[cfg_attr(not(feature = "redis"), allow(dead_code))]
    pub(crate) fn new(
        doing: impl Into<String>,
        source: impl Into<Box<dyn std::error::Error + Send + Sync>>,
    ) -> Unavailable {
        Unavailable {
            doing: doing.into(),
            source: std::sync::Arc::from(source.into()),
        }
    }
}

/// Two failures are the same when they say the same: the client's errors can't be compared.
impl PartialEq for Unavailable {
    fn eq(&self, other: &Unavailable) -> bool {
        self.doing == other.doing && self.source.to_string() == other.source.to_string()
    }
}

impl Eq for Unavailable {}

/// `error` and each of its sources, joined by `: `: what a client is told, since the
/// JSON-RPC error it gets has one message.
pub(crate) fn said(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        // Some errors say their source in their own message too: said once.
        let cause_text = cause.to_string();
        if !text.ends_with(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}

/// What a task store keeps, and for how long.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Limits {
    /// How long each task is kept after it is created.
    pub(crate) ttl: Duration,
    /// How often a client is asked to poll.
    pub(crate) poll_interval: Duration,
    /// Tasks kept at once, in all.
    pub(crate) max: usize,
    /// Tasks kept at once for one client.
    pub(crate) max_per_client: usize,
    /// Bytes kept by every task together.
    pub(crate) bytes: usize,
    /// Bytes kept by one client's tasks.
    pub(crate) bytes_per_client: usize,
}

impl Limits {
    /// Whether one item (arguments, a question, a result) of `bytes` fits in a whole budget,
    /// the client's and the one in all: one that doesn't, no eviction would make room for.
    pub(crate) fn fits(&self, bytes: usize) -> Result<(), TaskStoreError> {
        if bytes > self.bytes_per_client {
            return Err(TaskStoreError::ClientBytes {
                needed: bytes,
                left: self.bytes_per_client,
                max: self.bytes_per_client,
            });
        }
        if bytes > self.bytes {
            return Err(TaskStoreError::Bytes {
                needed: bytes,
                left: self.bytes,
                max: self.bytes,
            });
        }
        Ok(())
    }
}

/// Why a `tasks/update` was refused.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum AnswerError {
    /// No such task for this owner, or it expired.
    Unknown,
    /// An answer to a waiting question is not a result of that question's kind; none of
    /// the answers were taken.
    Invalid(String),
    /// The store could not be reached: no answer was taken.
    #[cfg_attr(not(feature = "redis"), allow(dead_code))]
    Unavailable(TaskStoreError),
}

/// Why a question could not wait in its task.
#[derive(Debug, thiserror::Error)]
pub(crate) enum AskError {
    /// The task has settled or is gone: nobody could answer.
    #[error("the task has ended: nobody can answer")]
    Ended,
    /// The question doesn't fit in the bytes left to the task's client.
    #[error("the question can't wait in the task: {0}")]
    TooLarge(#[source] TaskStoreError),
    /// The store could not be reached to keep the question.
    #[cfg_attr(not(feature = "redis"), allow(dead_code))]
    #[error("the question can't wait in the task")]
    Unavailable(#[source] TaskStoreError),
}
