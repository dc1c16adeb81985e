//! `minimax_m3`: MiniMax-M3: namespaced XML, `]<]minimax[>[<tool_call>]<]minimax[>[<invoke name="f">]<]minimax[>[<city>Paris]<]minimax[>[</city>...`,
//! objects and arrays as nested elements, values typed with the tool's input schema.

use super::Format;
use crate::format::TextFormat;
use crate::minimax_m3;
use crate::write::{arguments_map, minimax_element};
use crate::ToolCall;
use std::fmt::Write;

/// Everything about the format, in one value.
pub(crate) const FORMAT: Format = Format {
    format: TextFormat::MinimaxM3,
    name: "minimax_m3",
    aliases: &["minimax-m3"],
    // Its block's opening is found as a word (`trigger_words`).
    triggers: b"<`",
    words: &[crate::minimax_m3::OPEN.as_bytes()],
    models: &[(23, "minimax-m3")],
    templates: &[(2, "]<]minimax[>[")],
    convention: concat!(
        "To call tools, write a tool_call block with one invoke per call and one element per argument, each tag preceded by ]<]minimax[>[:\n\n",
        "]<]minimax[>[<tool_call>\n]<]minimax[>[<invoke name=\"TOOL_NAME\">]<]minimax[>[<ARGUMENT_NAME>value]<]minimax[>[</ARGUMENT_NAME>]<]minimax[>[</invoke>\n]<]minimax[>[</tool_call>\n\n",
        "Write strings as they are, without quotes or escaping, numbers and booleans as JSON; write an object as one element per member, and an array as one ]<]minimax[>[<item> element per value."
    ),
    readers: &[crate::minimax_m3::READER],
    write,
    family_prompt: Some(|tools| crate::prompt_templates::markup::prompt(tools, TextFormat::MinimaxM3)),
};

/// Calls written as a model writes them in this format.
fn write(calls: &[ToolCall]) -> String {
    // Values nest as elements, which no template row writes.
    let invokes: Vec<String> = calls
        .iter()
        .map(|call| {
            let ns = minimax_m3::NS;
            let mut out = format!("{ns}<invoke name=\"{}\">", call.name);
            for (key, value) in arguments_map(call) {
                minimax_element(&mut out, &key, &value);
            }
            let _ = write!(out, "{ns}</invoke>");
            out
        })
        .collect();
    let ns = minimax_m3::NS;
    format!("{ns}<tool_call>\n{}\n{ns}</tool_call>", invokes.join("\n"))
}
