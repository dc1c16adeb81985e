//! The tasks an MCP server runs (SEP-2663): where they are kept ([`TaskStore`]: in memory,
//! or in Redis for a fleet), bounded in time, number and bytes, and the client a call
//! running as a task asks through.

pub(crate) mod client;
pub(crate) mod ids;
pub(crate) mod json;
pub(crate) mod limits;
pub(crate) mod memory;
pub(crate) mod owner;
#[cfg(feature = "redis")]
pub(crate) mod redis;
pub(crate) mod store;

pub use limits::{TaskStoreError, Unavailable};
#[cfg(feature = "redis")]
pub use redis::RedisConfig;
pub use store::TaskStore;
