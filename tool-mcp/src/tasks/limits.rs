//! What a server's task store may keep (how many tasks, how many bytes, for how long, in
//! all and per client), and the error a client past a bound gets.

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
