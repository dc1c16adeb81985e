//! `pythonic`: Llama 3.2, Llama 4, ToolACE: `[get_weather(city="Paris"), get_time(tz="CET")]`.

use super::Format;
use crate::format::TextFormat;
use crate::write::python_call;
use crate::ToolCall;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::Pythonic,
    name: "pythonic",
    aliases: &["llama4_pythonic"],
    triggers: b"[<`",
    words: &[],
    models: &[(49, "toolace"), (50, "llama-4"), (51, "llama4"), (65, "gemma-3")],
    templates: &[(22, "<|python_start|>")],
    convention: concat!(
        "To call tools, respond with only a Python list of calls with keyword arguments, and nothing else:\n\n",
        "[tool_name(argument=value, other_argument=value), other_tool(argument=value)]\n\n",
        "Write values as Python literals: strings in quotes, numbers, True, False, None, lists and dicts."
    ),
    readers: &[crate::pythonic::TAG, crate::pythonic::LIST],
    write,
    family_prompt: Some(|tools| crate::prompt_templates::json_lists::prompt(tools, TextFormat::Pythonic)),
};

/// Calls written as a model writes them in this format.
fn write(calls: &[ToolCall]) -> String {
    let calls: Vec<String> = calls.iter().map(python_call).collect();
    format!("[{}]", calls.join(", "))
}
