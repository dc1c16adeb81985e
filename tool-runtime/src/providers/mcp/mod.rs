//! mcp.

pub(crate) mod export;
pub(crate) mod results;
