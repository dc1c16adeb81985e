//! `deepseek_v31`: DeepSeek V3.1: `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{..}<｜tool▁call▁end｜>..<｜tool▁calls▁end｜>`.

use super::Format;
use crate::format::TextFormat;
use crate::write::Template;
use crate::ToolCall;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::DeepSeekV31,
    name: "deepseek_v31",
    aliases: &["deepseekv31", "deepseek_v3_1"],
    triggers: b"<`",
    words: &[],
    models: &[(11, "deepseek-v3.1"), (12, "deepseek-v3.2-exp")],
    templates: &[],
    convention: concat!(
        "To call tools, write <｜tool▁calls▁begin｜>, then for each call <｜tool▁call▁begin｜>, the tool's name, <｜tool▁sep｜>, its arguments as a JSON object, and <｜tool▁call▁end｜>; then <｜tool▁calls▁end｜>:\n\n",
        "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜><tool name><｜tool▁sep｜>{<arguments as JSON>}<｜tool▁call▁end｜><｜tool▁calls▁end｜>"
    ),
    readers: &[crate::special::READER],
    write,
    family_prompt: Some(|tools| crate::prompt_templates::special_tokens::prompt(tools, TextFormat::DeepSeekV31)),
};

/// Calls written as a model writes them in this format.
fn write(calls: &[ToolCall]) -> String {
    Template::joined("<｜tool▁call▁begin｜>{name}<｜tool▁sep｜>{arguments}<｜tool▁call▁end｜>")
        .within("<｜tool▁calls▁begin｜>", "<｜tool▁calls▁end｜>")
        .write(calls)
}
