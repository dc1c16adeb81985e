//! `lfm2`: LFM2, LFM2.5: `<|tool_call_start|>[f(city="Paris"), g()]<|tool_call_end|>`.

use super::Format;
use crate::format::TextFormat;
use crate::write::python_call;
use crate::ToolCall;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::Lfm2,
    name: "lfm2",
    aliases: &[],
    triggers: b"<`",
    words: &[],
    models: &[(66, "lfm2")],
    templates: &[(8, "<|tool_call_start|>")],
    convention: concat!(
        "To call tools, write <|tool_call_start|>, a Python list of calls with keyword arguments, then <|tool_call_end|>:\n\n",
        "<|tool_call_start|>[tool_name(argument=value, other_argument=value)]<|tool_call_end|>\n\n",
        "Write values as Python literals: strings in quotes, numbers, True, False, None, lists and dicts."
    ),
    readers: &[crate::pytags::READER],
    write,
    family_prompt: Some(|tools| crate::prompt_templates::json_lists::prompt(tools, TextFormat::Lfm2)),
};

/// Calls written as a model writes them in this format.
fn write(calls: &[ToolCall]) -> String {
    let calls: Vec<String> = calls.iter().map(python_call).collect();
    format!("<|tool_call_start|>[{}]<|tool_call_end|>", calls.join(", "))
}
