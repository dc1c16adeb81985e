//! `functionary_v32`: Functionary v3.2: recipient lines, `>>>f\n{"city": "Paris"}` for a call and `>>>all\n`
//! before text (the first recipient, at the start of the message, without `>>>`).

use super::Format;
use crate::format::TextFormat;
use crate::write::Template;
use crate::ToolCall;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::FunctionaryV32,
    name: "functionary_v32",
    aliases: &["functionary_v3_2"],
    // `>>>` is found as a word (`trigger_words`), the first recipient by the scan.
    triggers: b"<`",
    words: &[crate::recipients::MARKER.as_bytes()],
    models: &[(8, "functionary-medium-v3.2"), (9, "functionary-small-v3.2"), (10, "functionary-v3.2")],
    templates: &[(25, ">>>")],
    convention: concat!(
        "Start each part of your reply with >>> and its recipient on a line of its own. To call a tool, write >>>, the tool's name and a line break, then its arguments as a JSON object:\n\n",
        ">>>TOOL_NAME\n{<arguments as JSON>}\n\n",
        "To write to the user, start the text with >>>all and a line break. To call several tools, write one such part per call."
    ),
    readers: &[crate::recipients::READER],
    write,
    family_prompt: Some(|tools| Some(crate::prompt_templates::functionary_ts::prompt(tools))),
};

/// Calls written as a model writes them in this format.
fn write(calls: &[ToolCall]) -> String {
    Template::lines(">>>{name}\n{arguments}").write(calls)
}
