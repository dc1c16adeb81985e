//! `gemma4`: Gemma 4: `<|tool_call>call:f{city:<|"|>Paris<|"|>,days:3}<tool_call|>`, values typed
//! with the tool's input schema.

use super::Format;
use crate::format::TextFormat;
use crate::write::gemma_calls;
use crate::ToolCall;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::Gemma4,
    name: "gemma4",
    aliases: &[],
    triggers: b"<`",
    words: &[],
    models: &[(63, "gemma-4"), (64, "gemma4")],
    templates: &[(6, "<|tool_call>")],
    convention: concat!(
        "To call a tool, write <|tool_call>call:, the tool's name, its arguments in braces, then <tool_call|>:\n\n",
        "<|tool_call>call:<tool name>{argument:<|\"|>text<|\"|>,number:5,flag:true,list:[<|\"|>a<|\"|>],object:{key:<|\"|>value<|\"|>}}<tool_call|>\n\n",
        "Put strings between <|\"|> and <|\"|>; write numbers, true, false and null as they are. To call several tools, write one such block per call."
    ),
    readers: &[crate::gemma::READER],
    write,
    family_prompt: Some(|tools| crate::prompt_templates::signatures::prompt(tools, TextFormat::Gemma4)),
};

/// Calls written as a model writes them in this format.
fn write(calls: &[ToolCall]) -> String {
    gemma_calls(calls, "<|tool_call>", "<tool_call|>", "<|\"|>")
}
