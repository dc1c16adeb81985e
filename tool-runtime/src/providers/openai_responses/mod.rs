//! openai_responses.

pub(crate) mod results;
pub(crate) mod route;
pub(crate) mod stream;
#[cfg(feature = "agent")]
pub(crate) mod wire;
