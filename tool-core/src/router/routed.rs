//! What routing one model turn gives: the calls to run and the text to show.

use crate::Provider;
use crate::ToolCall;
use serde::Serialize;

/// One model turn, normalized: its tool calls and its text.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Routed {
    /// The provider the output came from.
    pub provider: Provider,
    /// The function calls, in the order the model made them.
    pub calls: Vec<ToolCall>,
    /// The assistant's text (thoughts left out), joined.
    pub text: String,
    /// Calls to tools that are not functions (OpenAI custom tools, computer use, ...): not run
    /// by the registry, but the provider still expects an answer to each, so they are listed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub other_calls: Vec<OtherCall>,
}

/// A call the model made to a tool that is not a function tool.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OtherCall {
    /// The id its answer must quote.
    pub id: String,
    /// The tool's name, when the call gives one.
    pub name: String,
    /// The provider's type for it, for example `"custom"` or `"computer_call"`.
    pub kind: String,
}

impl Routed {
    /// An empty turn read from `provider`.
    pub(crate) fn new(provider: Provider) -> Routed {
        Routed {
            provider,
            calls: Vec::new(),
            text: String::new(),
            other_calls: Vec::new(),
        }
    }
}
