//! `xlam`: xLAM: a bare JSON list `[{"name": .., "arguments": {..}}]` (also in a ```` ```json ````
//! fence, after `[TOOL_CALLS]` or in `<tool_call>` tags). Chosen explicitly, a list whose
//! first element starts like a call is read anywhere; under [`Auto`](TextFormat::Auto) only
//! at the start of the message, starting with a call and naming only known tools.

use super::Format;
use crate::format::TextFormat;
use crate::write::objects;
use crate::ToolCall;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::Xlam,
    name: "xlam",
    aliases: &[],
    triggers: b"[<`",
    words: &[],
    models: &[(0, "xlam")],
    templates: &[],
    convention: concat!(
        "When using tools, make calls in a single JSON array, with one object per call, each with the tool's `name` and its `arguments`, and nothing else:\n\n",
        "[{\"name\": \"<tool name>\", \"arguments\": {<arguments as JSON>}}]"
    ),
    readers: &[crate::hermes::READER, crate::mistral::READER, crate::xlam::READER],
    write,
    family_prompt: Some(|tools| crate::prompt_templates::json_lists::prompt(tools, TextFormat::Xlam)),
};

/// Calls written as a model writes them in this format.
fn write(calls: &[ToolCall]) -> String {
    format!("[{}]", objects(calls, "arguments").join(", "))
}
