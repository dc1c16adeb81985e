//! The conversation as the agent kept it: what the user said, what the model said and
//! called, and each call's one result, whatever the provider.

use crate::{ToolCall, ToolOutput};

/// One step of the conversation ([`Agent::history`](super::Agent::history)).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Turn {
    /// A prompt from the user.
    User(String),
    /// A reply of the model: its text (calls cut out in text-only mode) and its calls.
    Model {
        /// The text.
        text: String,
        /// The calls, in the order the model made them.
        calls: Vec<ToolCall>,
    },
    /// The results of the model's last calls, one per call, in the calls' order.
    Results(Vec<CallResult>),
    /// Calls written in text that could not be read; the model was told what was wrong.
    Unreadable(Vec<String>),
}

/// One call's result.
#[derive(Clone, Debug, PartialEq)]
pub struct CallResult {
    /// The call's id.
    pub call_id: String,
    /// The tool it named.
    pub tool: String,
    /// What the call gave: its output, or the error the model was sent.
    pub output: ToolOutput,
}
