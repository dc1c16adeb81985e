//! anthropic.

pub(crate) mod export;
pub(crate) mod results;
pub(crate) mod route;
pub(crate) mod stream;
#[cfg(feature = "agent")]
pub(crate) mod wire;
