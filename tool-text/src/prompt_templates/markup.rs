//! Families whose models call tools in XML-like markup: their templates' tool lists and the
//! markup they teach.

use super::{function, lines, openai_tool, py_json};
use crate::format::TextFormat;
use crate::ToolSpec;
use serde_json::Value;
use std::fmt::Write;

/// `format`'s tool section, for the formats of this module.
pub(crate) fn prompt(tools: &[&ToolSpec], format: TextFormat) -> Option<String> {
    let tool_lines = || lines(tools, |spec| py_json(&openai_tool(spec)));
    Some(match format {
        TextFormat::QwenXml => {
            let mut out =
                String::from("# Tools\n\nYou have access to the following functions:\n\n<tools>");
            for spec in tools {
                qwen_xml_function(&mut out, spec);
            }
            out.push_str(QWEN_XML_RULES);
            out
        }
        TextFormat::Glm => format!("{TOOLS_RULES}{}{GLM_AFTER}", tool_lines()),
        TextFormat::HyV3 => format!("{TOOLS_RULES}{}{HY_AFTER}", tool_lines()),
        TextFormat::MinimaxM2 => {
            let list: String = tools
                .iter()
                .map(|spec| format!("<tool>{}</tool>\n", py_json(&function(spec))))
                .collect();
            format!("{MINIMAX_RULES}{list}{MINIMAX_AFTER}")
        }
        TextFormat::MiniCpm5 => format!(
            "# Tools\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>\n{}{MINICPM_AFTER}",
            tool_lines()
        ),
        TextFormat::MinimaxM3 => {
            let list: String = tools
                .iter()
                .map(|spec| format!("<tool>{}</tool>\n", py_json(&function(spec))))
                .collect();
            format!("{MINIMAX_RULES}{list}{MINIMAX_M3_AFTER}")
        }
        TextFormat::Muse => muse(tools),
        _ => return None,
    })
}

/// The reminder `tool_chat_template_qwen3coder.jinja` puts after the tool list.
const QWEN_XML_RULES: &str = "\n</tools>\n\nIf you choose to call a function ONLY reply in the following format with NO suffix:\n\n<tool_call>\n<function=example_function_name>\n<parameter=example_parameter_1>\nvalue_1\n</parameter>\n<parameter=example_parameter_2>\nThis is the value for the second parameter\nthat can span\nmultiple lines\n</parameter>\n</function>\n</tool_call>\n\n<IMPORTANT>\nReminder:\n- Function calls MUST follow the specified format: an inner <function=...></function> block must be nested within <tool_call></tool_call> XML tags\n- Required parameters MUST be specified\n- You may provide optional reasoning for your function call in natural language BEFORE the function call, but NOT after\n- If there is no function call available, answer the question like normal with your current knowledge and do not tell the user about function calls\n</IMPORTANT>";

/// The Qwen-style head of the tool list GLM 4.6 and Hy3 share.
const TOOLS_RULES: &str = "# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>\n";

/// GLM 4.6's instructions after its tool list.
const GLM_AFTER: &str = "\n</tools>\n\nFor each function call, output the function name and arguments within the following XML format:\n<tool_call>{function-name}\n<arg_key>{arg-key-1}</arg_key>\n<arg_value>{arg-value-1}</arg_value>\n<arg_key>{arg-key-2}</arg_key>\n<arg_value>{arg-value-2}</arg_value>\n...\n</tool_call>";

/// Hy3's instructions after its tool list, its tokens with the `:opensource` suffix the
/// template gives them (the checkpoint's special tokens; the parser reads any suffix).
const HY_AFTER: &str = "\n</tools>\n\nFor function call returns, you should first print <tool_calls:opensource>\nFor each function call, you should return object like:\n<tool_call:opensource>{function-name}<tool_sep:opensource>\n<arg_key:opensource>{arg-key-1}</arg_key:opensource>\n<arg_value:opensource>{arg-value-1}</arg_value:opensource>\n<arg_key:opensource>{arg-key-2}</arg_key:opensource>\n<arg_value:opensource>{arg-value-2}</arg_value:opensource>\n...\n</tool_call:opensource>\nAt the end of function call returns, you should print </tool_calls:opensource>";

/// MiniMax-M2's words before its tool list.
const MINIMAX_RULES: &str = "# Tools\nYou may call one or more tools to assist with the user query.\nHere are the tools available in JSONSchema format:\n\n<tools>\n";

/// MiniMax-M2's instructions after its tool list.
const MINIMAX_AFTER: &str = "</tools>\n\nWhen making tool calls, use XML format to invoke tools and pass parameters:\n\n<minimax:tool_call>\n<invoke name=\"tool-name-1\">\n<parameter name=\"param-key-1\">param-value-1</parameter>\n<parameter name=\"param-key-2\">param-value-2</parameter>\n...\n</invoke>\n</minimax:tool_call>";

/// MiniMax-M3's instructions after its tool list: the M2 markup with its `]<]minimax[>[`
/// token before every tag.
const MINIMAX_M3_AFTER: &str = "</tools>\n\nTo call tools, wrap all invocations in a single ]<]minimax[>[<tool_call>]<]minimax[>[</tool_call> block. Parameter values containing nested objects or arrays are recursively expanded into XML elements. Example:\n\n]<]minimax[>[<tool_call>\n]<]minimax[>[<invoke name=\"tool-name-1\">]<]minimax[>[<param-1>value-1]<]minimax[>[</param-1>]<]minimax[>[<param-2>]<]minimax[>[<item>]<]minimax[>[<key-a>val-a]<]minimax[>[</key-a>]<]minimax[>[<key-b>val-b]<]minimax[>[</key-b>]<]minimax[>[</item>]<]minimax[>[</param-2>]<]minimax[>[</invoke>\n]<]minimax[>[<invoke name=\"tool-name-2\">]<]minimax[>[<param-1>value-1]<]minimax[>[</param-1>]<]minimax[>[</invoke>\n]<]minimax[>[</tool_call>";

/// Muse Glimmer's `atem` instructions, before its tool metadata.
const MUSE_RULES: &str = "In this environment you have access to a set of tools you can use to answer the user's question.\n\nYou can invoke a function by writing a \"<atem:function_calls>\" block like the following:\n<atem:function_calls>\n<atem:invoke name=\"$FUNCTION_NAME\">\n<atem:parameter name=\"$PARAMETER_NAME\">$PARAMETER_VALUE</atem:parameter>\n...\n</atem:invoke>\n</atem:function_calls>\n\nString and scalar parameters should be specified as is, while lists and objects should use JSON format. Note that spaces for string values are not stripped. The output is not expected to be valid XML and is parsed with regular expressions.\nHere are the functions available in JSONSchema format:\n// Tool metadata\n";

/// Muse Glimmer's example call, after its function schemas (vLLM's template: one call a
/// message, as the parser reads them).
const MUSE_EXAMPLE: &str = "\n\nHere's an example of how to call a function in the tool set. To make parallel tool calls, emit each call as its own message (one tool call per message) in consecutive messages:\n(If the tool namespace is not specified, invoke the function directly as `example_function_name` rather than `example_tool_name.example_function_name`)\n\nto=example_tool_name.example_function_name\n\n<atem:function_calls>\n<atem:invoke name=\"example_tool_name.example_function_name\">\n<atem:parameter name=\"example_parameter_1\">value_1</atem:parameter>\n<atem:parameter name=\"example_parameter_2\">This is the value for the second parameter\nthat can span\n\"multiple\" lines\n</atem:parameter>\n</atem:invoke>\n</atem:function_calls>\n\n";

/// Muse Glimmer's tool section: the instructions, a metadata line per tool namespace (the
/// name before a tool name's first `.`; the template's descriptions of them are a server
/// option, empty here), each tool's schema, the example and the valid recipients.
fn muse(tools: &[&ToolSpec]) -> String {
    let mut namespaces: Vec<&str> = Vec::new();
    for spec in tools {
        let namespace = spec.name().split('.').next().unwrap_or_default();
        if !namespaces.contains(&namespace) {
            namespaces.push(namespace);
        }
    }
    let mut out = String::from(MUSE_RULES);
    for namespace in &namespaces {
        let _ = writeln!(
            out,
            "{{\"name\": {}, \"description\": \"\"}}",
            Value::from(*namespace)
        );
    }
    out.push_str("// Function schemas");
    for spec in tools {
        let _ = write!(out, "\n{}", py_json(&function(spec)));
    }
    out.push_str(MUSE_EXAMPLE);
    let recipients: Vec<String> = std::iter::once("\"self\"".to_owned())
        .chain(
            namespaces
                .iter()
                .map(|namespace| format!("\"{namespace}.*\"")),
        )
        .chain(std::iter::once("\"user\"".to_owned()))
        .collect();
    let _ = write!(out, "# Valid recipients: {}.", recipients.join(", "));
    out
}

/// MiniCPM 5's guidelines after its tool list.
const MINICPM_AFTER: &str = "\n</tools>\n\nTool usage guidelines:\n- You may call zero or more functions. If no function calls are needed, just answer normally and do not include any <function ... </function>.\n- When calling a function, return an XML object within <function ... </function> using:\n<function name=\"function-name\"><param name=\"param-name\">param-value</param></function>\n- param-value may be multi-line. If it contains <, & or newline characters, wrap it in a CDATA block: <param name=\"param-name\"><![CDATA[...multi-line value...]]></param>";

/// One `<function>` of the Qwen3-Coder tool list: name, description, and each parameter's
/// name, type and description, with the schema's other keys as tags of their own.
fn qwen_xml_function(out: &mut String, spec: &ToolSpec) {
    let _ = write!(
        out,
        "\n<function>\n<name>{}</name>\n<description>{}</description>\n<parameters>",
        spec.name(),
        spec.description().trim()
    );
    let schema = spec.input_schema();
    if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
        for (name, fields) in properties {
            let _ = write!(out, "\n<parameter>\n<name>{name}</name>");
            if let Some(kind) = fields.get("type") {
                let kind = kind.as_str().map_or_else(|| py_json(kind), str::to_owned);
                let _ = write!(out, "\n<type>{kind}</type>");
            }
            if let Some(description) = fields.get("description").and_then(Value::as_str) {
                let _ = write!(out, "\n<description>{}</description>", description.trim());
            }
            extra_keys(out, fields, &["name", "type", "description"]);
            out.push_str("\n</parameter>");
        }
    }
    extra_keys(out, schema, &["type", "properties"]);
    out.push_str("\n</parameters>\n</function>");
}

/// The template's `render_extra_keys`: every other key as `<key>value</key>`, JSON (as
/// `tojson` writes it) for objects and lists.
fn extra_keys(out: &mut String, value: &Value, handled: &[&str]) {
    let Some(map) = value.as_object() else {
        return;
    };
    for (key, value) in map.iter().filter(|(k, _)| !handled.contains(&k.as_str())) {
        let text = match value {
            Value::String(text) => text.clone(),
            other => py_json(other),
        };
        let _ = write!(out, "\n<{key}>{text}</{key}>");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DynamicTool, Registry, ToolOutput};
    use serde_json::json;

    #[test]
    fn qwen_xml_lists_extra_keys_as_tags() {
        let tool = DynamicTool::new(
            "get_weather",
            "Get the weather.",
            json!({"type": "object", "properties": {
                "city": {"type": "string", "description": "City name."},
                "days": {"type": "integer", "minimum": 1}},
                "required": ["city"]}),
            |_, _| async { ToolOutput::text("ok") },
        );
        let registry = Registry::builder()
            .without_inventory()
            .dynamic(tool)
            .build()
            .unwrap_or_else(|e| panic!("{e}"));
        let tools: Vec<&ToolSpec> = registry.specs().collect();
        let xml = prompt(&tools, TextFormat::QwenXml).unwrap_or_default();
        assert!(xml.contains("<parameter>\n<name>days</name>\n<type>integer</type>\n<minimum>1</minimum>\n</parameter>"), "{xml}");
        assert!(
            xml.contains("\n<required>[\"city\"]</required>\n</parameters>"),
            "{xml}"
        );
    }
}
