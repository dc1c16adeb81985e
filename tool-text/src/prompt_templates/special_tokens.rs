//! Families whose models call tools between special tokens (DeepSeek, Kimi, FunctionGemma): their
//! templates' tool lists and instructions.

use super::{function, json_list, lines, openai_tool, py_json, sorted};
use crate::format::TextFormat;
use crate::ToolSpec;
use serde_json::Value;
use std::fmt::Write;

/// `format`'s tool section, for the formats of this module.
pub(crate) fn prompt(tools: &[&ToolSpec], format: TextFormat) -> Option<String> {
    let function_lines = || lines(tools, |spec| py_json(&function(spec)));
    Some(match format {
        TextFormat::DeepSeekV3 => format!(
            "# Tools\n\nYou may call one or more functions to assist with the user query.\n{}{V3_AFTER}",
            lines(tools, |spec| py_json(&openai_tool(spec)))
        ),
        TextFormat::DeepSeekV31 => {
            let mut out = String::from("## Tools\nYou have access to the following tools:\n");
            for spec in tools {
                let _ = write!(
                    out,
                    "\n### {}\nDescription: {}\n\nParameters: {}\n",
                    spec.name(),
                    spec.description().trim(),
                    py_json(spec.input_schema())
                );
            }
            out.push_str(V31_AFTER);
            out
        }
        TextFormat::DeepSeekV32 => format!("{V32_RULES}{}\n</functions>", function_lines()),
        TextFormat::DeepSeekV4 => format!("{V4_RULES}{}{V4_AFTER}", function_lines()),
        // The template's `tool_declare` message is the list alone.
        TextFormat::KimiK2 => json_list(tools, openai_tool),
        TextFormat::KimiK3 => {
            let list = Value::Array(tools.iter().map(|spec| sorted(&openai_tool(spec))).collect());
            format!(
                "# Tools\nHere are the available tools, described in JSONSchema.\n\n```json\n{list}\n```"
            )
        }
        TextFormat::FunctionGemma => {
            // The template shows the tools only after a system message: FunctionGemma's
            // documented one opens the prompt.
            let mut out = String::from(
                "You are a model that can do function calling with the following functions\nAvailable functions:",
            );
            for spec in tools {
                let _ = write!(
                    out,
                    "\nFunction: {}\nDescription: {}\nParameters: {}",
                    spec.name(),
                    spec.description().trim(),
                    py_json(spec.input_schema())
                );
            }
            out
        }
        _ => return None,
    })
}

/// DeepSeek V3's instructions after its tool list, with the spacing vLLM's template leaves
/// (and without the `<tools>` that it never opens).
const V3_AFTER: &str = "    \n</tools>\n\n\n\n    For function call returns, you should first print <｜tool▁calls▁begin｜>\n\n    For each function call, you should return object like:\n\n    <｜tool▁call▁begin｜>function<｜tool▁sep｜><function_name>\n```json\n<function_arguments_in_json_format>\n```<｜tool▁call▁end｜>\n\n    At the end of function call returns, you should print <｜tool▁calls▁end｜>";

/// DeepSeek V3.1's rules after its tool sections.
const V31_AFTER: &str = "\nIMPORTANT: ALWAYS adhere to this exact format for tool use:\n<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>tool_call_name<｜tool▁sep｜>tool_call_arguments<｜tool▁call▁end｜>{{additional_tool_calls}}<｜tool▁calls▁end｜>\n\nWhere:\n\n- `tool_call_name` must be an exact match to one of the available tools\n- `tool_call_arguments` must be valid JSON that strictly follows the tool's Parameters Schema\n- For multiple tool calls, chain them directly without separators or spaces\n";

/// DeepSeek V3.2's DSML instructions, before its `<functions>` list.
const V32_RULES: &str = "## Tools\n\nYou have access to a set of tools you can use to answer the user's question.\nYou can invoke functions by writing a \"<｜DSML｜function_calls>\" block like the following as part of your reply to the user:\n<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"$FUNCTION_NAME\">\n<｜DSML｜parameter name=\"$PARAMETER_NAME\" string=\"true|false\">$PARAMETER_VALUE</｜DSML｜parameter>\n...\n</｜DSML｜invoke>\n<｜DSML｜invoke name=\"$FUNCTION_NAME2\">\n...\n</｜DSML｜invoke>\n</｜DSML｜function_calls>\n\nString and scalar parameters should be specified as is without any escaping or quotes, while lists and objects should use JSON format. The \"string\" attribute should be set to \"true\" for string type parameters and \"false\" for other types (numbers, booleans, arrays, objects).\n\nIf the thinking_mode is enabled, then after function results you should strongly consider outputting a thinking block. Here is an example:\n\n<｜DSML｜function_calls>\n...\n</｜DSML｜function_calls>\n\n<function_results>\n...\n</function_results>\n\n<think>...thinking about results</think>\n\nHere are the functions available in JSONSchema format:\n<functions>\n";

/// DeepSeek V4's DSML instructions, before its tool schemas.
const V4_RULES: &str = "## Tools\n\nYou have access to a set of tools to help answer the user's question. You can invoke tools by writing a \"<｜DSML｜tool_calls>\" block like the following:\n\n<｜DSML｜tool_calls>\n<｜DSML｜invoke name=\"$TOOL_NAME\">\n<｜DSML｜parameter name=\"$PARAMETER_NAME\" string=\"true|false\">$PARAMETER_VALUE</｜DSML｜parameter>\n...\n</｜DSML｜invoke>\n<｜DSML｜invoke name=\"$TOOL_NAME2\">\n...\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>\n\nString parameters should be specified as is and set `string=\"true\"`. For all other types (numbers, booleans, arrays, objects), pass the value in JSON format and set `string=\"false\"`.\n\nIf thinking_mode is enabled (triggered by <think>), you MUST output your complete reasoning inside <think>...</think> BEFORE any tool calls or final response.\n\nOtherwise, output directly after </think> with tool calls or final response.\n\n### Available Tool Schemas\n\n";

/// DeepSeek V4's words after its tool schemas.
const V4_AFTER: &str =
    "\n\nYou MUST strictly follow the above defined tool name and parameter schemas to invoke tool calls.";
