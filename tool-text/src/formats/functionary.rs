//! `functionary`: Functionary v3.1: `<function=f>{"city": "Paris"}</function>`.

use super::Format;
use crate::format::TextFormat;
use crate::write::Template;
use crate::ToolCall;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::Functionary,
    name: "functionary",
    aliases: &["functionary_v3_1_llama_3_1"],
    triggers: b"<`",
    words: &[],
    models: &[(69, "functionary")],
    templates: &[],
    convention: concat!(
        "To call a tool, write its name in a <function=...> tag, then its arguments as a JSON object, then </function>:\n\n",
        "<function=<tool name>>{<arguments as JSON>}</function>\n\n",
        "To call several tools, write one such line per call."
    ),
    readers: &[crate::functionary::READER],
    write,
    family_prompt: Some(|tools| crate::prompt_templates::json_lists::prompt(tools, TextFormat::Functionary)),
};

/// Calls written as a model writes them in this format.
fn write(calls: &[ToolCall]) -> String {
    Template::lines("<function={name}>{arguments}</function>").write(calls)
}
