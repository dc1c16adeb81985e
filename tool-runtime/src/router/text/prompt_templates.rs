//! The tools as each model family's own chat template shows them, so that a model served
//! without native tool calling sees what it was trained on: the words, the markup around the
//! tool list and the call format, taken from the templates vLLM ships
//! (`examples/tool_chat_template_*.jinja`, 0.33.0) and the models' own (Qwen 2.5/3). Only the
//! text is reproduced: the role tokens around it are the server's, and the result is a system
//! prompt.
//!
//! | format | template |
//! |---|---|
//! | Hermes | Qwen2.5/Qwen3's: `<tools>` with one `{"type": "function", "function": ..}` a line, `<tool_call>` instructions |
//! | Qwen XML | `tool_chat_template_qwen3coder.jinja`: `<tools>` of `<function><name>..<parameters><parameter>..` and its `<IMPORTANT>` reminder |
//! | Mistral | `tool_chat_template_mistral.jinja`: `[AVAILABLE_TOOLS] [..][/AVAILABLE_TOOLS]` |
//! | Llama 3 | `tool_chat_template_llama3.1_json.jinja`: "You have access to the following functions...", each tool as indented JSON |
//! | Pythonic | `tool_chat_template_llama3.2_pythonic.jinja`: the same with "a python list of the calls" |
//! | Granite | `tool_chat_template_granite.jinja`: its system sentence and the `available_tools` JSON |
//!
//! The other formats get the generic prompt of `prompt.rs` with their call convention.

use super::format::TextFormat;
use crate::{Registry, ToolSpec};
use serde_json::{json, Value};
use std::fmt::Write;

/// The tool list and calling convention in `format`'s family template, if it has one here.
pub(crate) fn family_prompt(registry: &Registry, format: TextFormat) -> Option<String> {
    let tools: Vec<Value> = registry.specs().map(openai_tool).collect();
    let indented = |out: &mut String| {
        for tool in &tools {
            let _ = write!(out, "{}\n\n", indented_json(tool));
        }
    };
    Some(match format {
        TextFormat::Hermes | TextFormat::HermesVariants => {
            let mut out = String::from(
                "# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>",
            );
            for tool in &tools {
                let _ = write!(out, "\n{}", py_json(tool));
            }
            out.push_str(
                "\n</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call>",
            );
            out
        }
        TextFormat::QwenXml => {
            let mut out =
                String::from("# Tools\n\nYou have access to the following functions:\n\n<tools>");
            for spec in registry.specs() {
                qwen_xml_function(&mut out, spec);
            }
            out.push_str(QWEN_XML_RULES);
            out
        }
        TextFormat::Mistral => {
            let list: Vec<String> = tools.iter().map(py_json).collect();
            format!("[AVAILABLE_TOOLS] [{}][/AVAILABLE_TOOLS]", list.join(", "))
        }
        TextFormat::Llama3 => {
            let mut out = String::from(concat!(
                "You have access to the following functions. To call a function, please respond with JSON for a function call. ",
                "Respond in the format {\"name\": function name, \"parameters\": dictionary of argument name and its value}. ",
                "Do not use variables.\n\n"
            ));
            indented(&mut out);
            out
        }
        TextFormat::Pythonic => {
            let mut out = String::from(concat!(
                "You have access to the following functions. To call functions, please respond with a python list of the calls. ",
                "Respond in the format [func_name1(params_name1=params_value1, params_name2=params_value2...), func_name2(params)] ",
                "Do not use variables.\n\n"
            ));
            indented(&mut out);
            out
        }
        TextFormat::Granite => {
            let mut out = String::from(
                "You are a helpful AI assistant with access to the following tools. When a tool is required to answer the user query, respond with <|tool_call|> followed by a JSON list of tools used.\n\nAvailable tools:\n",
            );
            indented(&mut out);
            out.truncate(out.trim_end().len());
            out
        }
        _ => return None,
    })
}

/// The reminder `tool_chat_template_qwen3coder.jinja` puts after the tool list.
const QWEN_XML_RULES: &str = "\n</tools>\n\nIf you choose to call a function ONLY reply in the following format with NO suffix:\n\n<tool_call>\n<function=example_function_name>\n<parameter=example_parameter_1>\nvalue_1\n</parameter>\n<parameter=example_parameter_2>\nThis is the value for the second parameter\nthat can span\nmultiple lines\n</parameter>\n</function>\n</tool_call>\n\n<IMPORTANT>\nReminder:\n- Function calls MUST follow the specified format: an inner <function=...></function> block must be nested within <tool_call></tool_call> XML tags\n- Required parameters MUST be specified\n- You may provide optional reasoning for your function call in natural language BEFORE the function call, but NOT after\n- If there is no function call available, answer the question like normal with your current knowledge and do not tell the user about function calls\n</IMPORTANT>";

/// JSON as the templates' `tojson` writes it (Python's `json.dumps`): `", "` and `": "`
/// between items, non-ASCII kept.
fn py_json(value: &Value) -> String {
    match value {
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(py_json).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Object(map) => {
            let entries: Vec<String> = map
                .iter()
                .map(|(key, value)| format!("{}: {}", Value::from(key.as_str()), py_json(value)))
                .collect();
            format!("{{{}}}", entries.join(", "))
        }
        scalar => scalar.to_string(),
    }
}

/// JSON as `tojson(indent=4)` writes it.
fn indented_json(value: &Value) -> String {
    use serde::Serialize;
    let mut out = Vec::new();
    let mut serializer = serde_json::Serializer::with_formatter(
        &mut out,
        serde_json::ser::PrettyFormatter::with_indent(b"    "),
    );
    // A `Value` always serializes, and as UTF-8.
    let _ = value.serialize(&mut serializer);
    String::from_utf8(out).unwrap_or_default()
}

/// A tool as chat templates receive it: `{"type": "function", "function": {"name",
/// "description", "parameters"}}`.
fn openai_tool(spec: &ToolSpec) -> Value {
    json!({"type": "function", "function": {
        "name": spec.name(),
        "description": spec.description().trim(),
        "parameters": spec.input_schema(),
    }})
}

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
                let kind = kind
                    .as_str()
                    .map_or_else(|| kind.to_string(), str::to_owned);
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

/// The template's `render_extra_keys`: every other key as `<key>value</key>`, JSON for
/// objects and lists.
fn extra_keys(out: &mut String, value: &Value, handled: &[&str]) {
    let Some(map) = value.as_object() else {
        return;
    };
    for (key, value) in map.iter().filter(|(k, _)| !handled.contains(&k.as_str())) {
        let text = match value {
            Value::String(text) => text.clone(),
            other => other.to_string(),
        };
        let _ = write!(out, "\n<{key}>{text}</{key}>");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DynamicTool;
    use crate::ToolOutput;

    fn registry() -> Registry {
        let tool = DynamicTool::new(
            "get_weather",
            "Get the weather.",
            json!({"type": "object", "properties": {
                "city": {"type": "string", "description": "City name."},
                "days": {"type": "integer", "minimum": 1}},
                "required": ["city"]}),
            |_, _| async { ToolOutput::text("ok") },
        );
        Registry::builder()
            .without_inventory()
            .dynamic(tool)
            .build()
            .unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn each_family_shows_the_tools_as_its_template_does() {
        let registry = registry();
        let hermes = family_prompt(&registry, TextFormat::Hermes).unwrap_or_default();
        assert!(
            hermes.contains(
                "<tools>\n{\"type\": \"function\", \"function\": {\"name\": \"get_weather\""
            ),
            "{hermes}"
        );
        assert!(hermes.ends_with("</tool_call>"));
        let xml = family_prompt(&registry, TextFormat::QwenXml).unwrap_or_default();
        assert!(xml.contains("<parameter>\n<name>days</name>\n<type>integer</type>\n<minimum>1</minimum>\n</parameter>"), "{xml}");
        assert!(
            xml.contains("\n<required>[\"city\"]</required>\n</parameters>"),
            "{xml}"
        );
        let mistral = family_prompt(&registry, TextFormat::Mistral).unwrap_or_default();
        assert!(
            mistral.starts_with("[AVAILABLE_TOOLS] [{\"type\": \"function\""),
            "{mistral}"
        );
        let llama = family_prompt(&registry, TextFormat::Llama3).unwrap_or_default();
        assert!(llama.contains("\"parameters\": dictionary of argument name"));
        assert!(llama.contains("{\n    \"type\": \"function\""), "{llama}");
        assert!(family_prompt(&registry, TextFormat::Envelope).is_none());
    }
}
