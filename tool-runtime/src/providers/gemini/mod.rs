//! gemini.

pub(crate) mod export;
pub(crate) mod results;
pub(crate) mod route;
#[cfg(feature = "agent")]
pub(crate) mod wire;
