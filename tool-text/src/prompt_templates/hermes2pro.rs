//! Hermes 2 Pro's tool list (`NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use.jinja`), the
//! family whose wrapper variants `HermesVariants` reads. Its template writes each tool as a
//! JSON-looking line by string concatenation, not `tojson`: the description becomes a Python
//! signature and an `Args:` list, written into the JSON string unescaped, and the outer object
//! is never closed. The text here is the template's as transformers' Jinja renders it (vLLM's
//! server), quirks included.

use super::py_json;
use crate::ToolSpec;
use serde_json::Value;

/// The system text before the conversation.
pub(crate) fn prompt(tools: &[&ToolSpec]) -> String {
    let tools: Vec<String> = tools.iter().map(|spec| tool(spec)).collect();
    format!("{HEAD}{} </tools>{RULES}", tools.join("\n"))
}

/// The words before the tools.
const HEAD: &str = "You are a function calling AI model. You are provided with function signatures within <tools></tools> XML tags. You may call one or more functions to assist with the user query. Don't make assumptions about what values to plug into functions. Here are the available tools: <tools> ";

/// The words after them, the call convention included.
const RULES: &str = "Use the following pydantic model json schema for each tool call you will make: {\"properties\": {\"name\": {\"title\": \"Name\", \"type\": \"string\"}, \"arguments\": {\"title\": \"Arguments\", \"type\": \"object\"}}, \"required\": [\"name\", \"arguments\"], \"title\": \"FunctionCall\", \"type\": \"object\"}}\nFor each function call return a json object with function name and arguments within <tool_call></tool_call> XML tags as follows:\n<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-dict>}\n</tool_call>";

/// One tool: `{"type": "function", "function": {"name": .., "description": "SIGNATURE - TEXT
/// ARGS", "parameters": ..}` (one closing brace: the template's).
fn tool(spec: &ToolSpec) -> String {
    let schema = spec.input_schema();
    let properties = schema.get("properties").and_then(Value::as_object);
    let params: Vec<(&String, &Value)> = properties.into_iter().flatten().collect();
    let signature: Vec<String> = params
        .iter()
        .map(|(name, fields)| format!("{name}: {}", python_type(fields, 0)))
        .collect();
    // The template puts no separator between the `Args:` lines.
    let args: String = params
        .iter()
        .enumerate()
        .map(|(n, (name, fields))| {
            let head = if n == 0 { "    Args:\n" } else { "" };
            let description = fields
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .trim();
            format!(
                "{head}        {name}({}): {description}",
                python_type(fields, 0)
            )
        })
        .collect();
    let parameters = if params.is_empty() {
        "{}".to_owned()
    } else {
        py_json(schema)
    };
    format!(
        "{{\"type\": \"function\", \"function\": {{\"name\": \"{name}\", \"description\": \"{name}({}) - {}\n\n{args}\", \"parameters\": {parameters}}}",
        signature.join(", "),
        spec.description().trim(),
        name = spec.name(),
    )
}

/// How deep `python_type` follows `additionalProperties` before it says `Any`: a schema is
/// finite, but a bound keeps hostile depth from costing more than its size.
const MAX_DEPTH: usize = 32;

/// The template's `json_to_python_type` as Jinja runs it. Two quirks are its own: an array's
/// item type is looked up on `json_spec|items` (a list of pairs, which has no `type`), so
/// every array is `list[Union[]]`; and a type the map lacks recurses on each of its letters,
/// which never ends in Jinja (the template fails on `"null"` or a type list holding it): here
/// such a type is `Any`, what the template's last branch means.
fn python_type(schema: &Value, depth: usize) -> String {
    let basic = |kind: &str| match kind {
        "string" => Some("str"),
        "number" => Some("float"),
        "integer" => Some("int"),
        "boolean" => Some("bool"),
        _ => None,
    };
    match schema.get("type") {
        Some(Value::String(kind)) => match (basic(kind), kind.as_str()) {
            (Some(python), _) => python.to_owned(),
            (None, "array") => "list[Union[]]".to_owned(),
            (None, "object") => match schema.get("additionalProperties") {
                Some(inner) if depth < MAX_DEPTH => {
                    format!("dict[str, {}]", python_type(inner, depth + 1))
                }
                Some(_) => "dict[str, Any]".to_owned(),
                None => "dict".to_owned(),
            },
            (None, _) => "Any".to_owned(),
        },
        Some(Value::Array(kinds)) => {
            let kinds: Vec<String> = kinds
                .iter()
                .map(|kind| match kind.as_str().and_then(basic) {
                    Some(python) => python.to_owned(),
                    None => python_type(&serde_json::json!({ "type": kind }), MAX_DEPTH),
                })
                .collect();
            format!("Union[{}]", kinds.join(","))
        }
        // No `type` (or `additionalProperties: true`): Jinja's undefined is iterable and
        // empty.
        Some(Value::Null) | None => "Union[]".to_owned(),
        Some(_) => "Any".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::python_type;
    use serde_json::json;

    #[test]
    fn types_are_the_templates_quirks_included() {
        for (schema, python) in [
            (json!({"type": "string", "enum": ["a"]}), "str"),
            (
                json!({"type": "array", "items": {"type": "integer"}}),
                "list[Union[]]",
            ),
            (json!({"type": "object"}), "dict"),
            (
                json!({"type": "object", "additionalProperties": {"type": "number"}}),
                "dict[str, float]",
            ),
            (
                json!({"type": "object", "additionalProperties": true}),
                "dict[str, Union[]]",
            ),
            (json!({"type": ["string", "integer"]}), "Union[str,int]"),
            (json!({"type": ["string", "null"]}), "Union[str,Any]"),
            (json!({"description": "no type"}), "Union[]"),
            (json!({"type": "null"}), "Any"),
        ] {
            assert_eq!(python_type(&schema, 0), python, "{schema}");
        }
        // Hostile depth costs its bound, not a stack.
        let mut deep = json!({"type": "string"});
        for _ in 0..100 {
            deep = json!({"type": "object", "additionalProperties": deep});
        }
        let python = python_type(&deep, 0);
        assert_eq!(python.matches("dict[").count(), super::MAX_DEPTH + 1);
        assert!(python.contains("dict[str, Any]"));
    }
}
