//! `kimi_k2`: Kimi K2: `<|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:0<|tool_call_argument_begin|>{..}<|tool_call_end|>..<|tool_calls_section_end|>`.

use super::Format;
use crate::format::TextFormat;
use crate::kimi;
use crate::write::arguments;
use crate::ToolCall;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::KimiK2,
    name: "kimi_k2",
    aliases: &[],
    triggers: b"<`",
    words: &[],
    models: &[(18, "kimi-k2")],
    templates: &[],
    convention: concat!(
        "To call tools, write <|tool_calls_section_begin|>, then for each call <|tool_call_begin|>functions.TOOL_NAME:N (N counts the calls from 0), <|tool_call_argument_begin|>, its arguments as a JSON object, and <|tool_call_end|>; then <|tool_calls_section_end|>:\n\n",
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.<tool name>:0<|tool_call_argument_begin|>{<arguments as JSON>}<|tool_call_end|><|tool_calls_section_end|>"
    ),
    readers: &[crate::special::READER],
    write,
    family_prompt: Some(|tools| crate::prompt_templates::special_tokens::prompt(tools, TextFormat::KimiK2)),
};

/// Calls written as a model writes them in this format.
fn write(calls: &[ToolCall]) -> String {
    let calls: String = calls
        .iter()
        .enumerate()
        .map(|(index, call)| {
            format!(
                "<|tool_call_begin|>{}<|tool_call_argument_begin|>{}<|tool_call_end|>",
                kimi::call_id(call, index),
                arguments(call)
            )
        })
        .collect();
    format!("<|tool_calls_section_begin|>{calls}<|tool_calls_section_end|>")
}
