//! The messages the agent writes itself, in each provider's shape: a user's prompt, and in
//! text-only mode the results (and unreadable calls) as plain text.

use crate::providers::api;
use crate::text::TextFormat;
use crate::{Provider, ToolCall, ToolOutput};
use serde_json::{json, Value};

/// A user message holding `text`.
pub(crate) fn user(provider: Provider, text: &str) -> Value {
    (api(provider).user)(text)
}

/// An assistant message holding `text`: an earlier turn of a conversation the agent did not
/// run itself (a sampling request's).
pub(crate) fn assistant(provider: Provider, text: &str) -> Value {
    (api(provider).assistant)(text)
}

/// Results written as text for a model without native tools, the way its format's chat
/// templates show them: `[TOOL_RESULTS]..[/TOOL_RESULTS]` for Mistral, a
/// `<tool_response>` tag (Hermes, Qwen, and the rest) otherwise. Each holds the call's id,
/// its tool and its output as JSON, so the model can tell results of one tool apart.
pub(crate) fn results_text(format: TextFormat, results: &[(&ToolCall, &ToolOutput)]) -> String {
    let mut text = String::new();
    for (call, output) in results {
        let body = json!({
            "call_id": call.id,
            "name": call.name,
            "content": crate::results::answer::model_text(output),
            "is_error": output.is_error(),
        });
        let (open, close) = match format {
            TextFormat::Mistral => ("[TOOL_RESULTS]", "[/TOOL_RESULTS]"),
            _ => ("<tool_response>\n", "\n</tool_response>"),
        };
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(open);
        text.push_str(&body.to_string());
        text.push_str(close);
    }
    text
}

/// What to tell a model whose calls could not be read.
pub(crate) fn unreadable_text(errors: &[String]) -> String {
    let mut text = String::from(
        "These tool calls could not be read, so they were not run. Write each again, \
         exactly in the format the system prompt shows:",
    );
    for error in errors {
        text.push_str("\n- ");
        text.push_str(error);
    }
    text
}
