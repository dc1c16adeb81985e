//! `functiongemma`: FunctionGemma: `<start_function_call>call:f{city:<escape>Paris<escape>}<end_function_call>`.

use super::Format;
use crate::format::TextFormat;
use crate::write::gemma_calls;
use crate::ToolCall;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::FunctionGemma,
    name: "functiongemma",
    aliases: &[],
    triggers: b"<`",
    words: &[],
    models: &[(62, "functiongemma")],
    templates: &[(7, "<start_function_call>")],
    convention: concat!(
        "To call a tool, write <start_function_call>call:, the tool's name, its arguments in braces, then <end_function_call>:\n\n",
        "<start_function_call>call:<tool name>{argument:<escape>text<escape>,number:5}<end_function_call>\n\n",
        "Put strings between <escape> and <escape>. To call several tools, write one such block per call."
    ),
    readers: &[crate::gemma::READER],
    write,
    family_prompt: Some(|tools| crate::prompt_templates::special_tokens::prompt(tools, TextFormat::FunctionGemma)),
};

/// Calls written as a model writes them in this format.
fn write(calls: &[ToolCall]) -> String {
    gemma_calls(
        calls,
        "<start_function_call>",
        "<end_function_call>",
        "<escape>",
    )
}
