//! `deepseek_v3`: DeepSeek V3 and R1: `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME`
//! then the arguments in a ```` ```json ```` block and `<｜tool▁call▁end｜>`, repeated, then
//! `<｜tool▁calls▁end｜>`.

use super::Format;
use crate::format::TextFormat;
use crate::write::Template;
use crate::ToolCall;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::DeepSeekV3,
    name: "deepseek_v3",
    aliases: &["deepseekv3", "deepseek_r1"],
    triggers: b"<`",
    words: &[],
    models: &[(16, "deepseek-v3"), (17, "deepseek-r1")],
    templates: &[],
    convention: concat!(
        "To call tools, write <｜tool▁calls▁begin｜>, then for each call <｜tool▁call▁begin｜>function<｜tool▁sep｜>, the tool's name, a line break, its arguments as a JSON object in a ```json code block, and <｜tool▁call▁end｜>; then <｜tool▁calls▁end｜>:\n\n",
        "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜><tool name>\n```json\n{<arguments as JSON>}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>"
    ),
    readers: &[crate::special::READER],
    write,
    family_prompt: Some(|tools| crate::prompt_templates::special_tokens::prompt(tools, TextFormat::DeepSeekV3)),
};

/// Calls written as a model writes them in this format.
fn write(calls: &[ToolCall]) -> String {
    Template::lines(concat!(
        "<｜tool▁call▁begin｜>function<｜tool▁sep｜>{name}\n",
        "```json\n{arguments}\n```<｜tool▁call▁end｜>",
    ))
    .within("<｜tool▁calls▁begin｜>", "<｜tool▁calls▁end｜>")
    .write(calls)
}
