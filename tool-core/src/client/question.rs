//! The one shape every question to the client has: a method, the capabilities it needs, its
//! `params`, and how its answer reads. [`Ask::request`](super::Ask) sends any of them the same
//! way (capability checks, the call's hold lent out, the client's deadline, errors), so a new
//! capability is a type implementing [`Question`] in a file of its own, and a method on
//! [`Ask`](super::Ask) naming it.

use super::ClientCapabilities;
use serde_json::Value;

/// A question a tool asks its client: sampling, a form or URL elicitation, roots.
pub(crate) trait Question: Sized {
    /// The JSON-RPC method: `sampling/createMessage`, `elicitation/create`, `roots/list`.
    const METHOD: &'static str;
    /// The capability named when there is no client at all (`AskError::NoClient`).
    const CAPABILITY: &'static str;
    /// What the tool gets from the answer.
    type Answer;

    /// The first capability this question needs that the client did not declare, named as
    /// MCP names it (`sampling.tools`); `None` when the client can answer it.
    fn missing(&self, declared: ClientCapabilities) -> Option<&'static str>;

    /// The request's `params`.
    fn params(&self) -> Result<Value, serde_json::Error>;

    /// Reads the client's `result` into what the tool gets.
    fn answer(self, result: Value) -> Result<Self::Answer, serde_json::Error>;
}
