//! Model output in, normalized [`ToolCall`](crate::ToolCall)s out: one module per provider
//! API, and [`text`] for calls written inside plain text by models without native tools.

pub mod text;
