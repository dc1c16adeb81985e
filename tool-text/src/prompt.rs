//! The other half of the contract: the system prompt that lists the tools and tells a model
//! how to write calls in a [`TextFormat`], and calls written back in that format (for the
//! conversation history). What each format says and writes is in its file under `formats/`.

use super::format::TextFormat;
use super::parameters::Parameters;
use crate::{ToolCall, ToolSpec};
use serde_json::{Map, Value};
use std::fmt::Write;

/// A system prompt for a model without native tool calling: every tool's name, description
/// and input schema (from `specs`, e.g. [`Registry::specs`](crate::Registry::specs)), and
/// exactly how to write calls in `format` (Hermes tags for [`TextFormat::Auto`]), with an
/// example; in the words of the format's family template when there is one. What the model
/// writes as told, [`parse`](super::parse) reads back.
pub fn tool_prompt<'a>(
    format: TextFormat,
    specs: impl IntoIterator<Item = &'a ToolSpec>,
) -> String {
    let tools: Vec<&ToolSpec> = specs.into_iter().collect();
    let declared = format.declared();
    if let Some(family) = declared.family_prompt {
        if let Some(prompt) = family(&tools) {
            return prompt;
        }
    }
    let mut prompt = String::from(
        "# Tools\n\nYou can call the tools below. Each has a name, a description, and a JSON Schema for its arguments.\n",
    );
    for spec in &tools {
        let _ = write!(
            prompt,
            "\n## {}\n\n{}\n\nArguments (JSON Schema): {}\n",
            spec.name(),
            spec.description().trim(),
            spec.input_schema()
        );
    }
    prompt.push_str("\n# How to call tools\n\n");
    prompt.push_str(declared.convention);
    if let Some(spec) = tools.first() {
        let example = ToolCall::new("", spec.name(), example_arguments(spec).to_string());
        let _ = write!(
            prompt,
            "\n\nFor example:\n\n{}\n",
            write_calls(format, &[example])
        );
    }
    prompt.push_str("\nCall tools only when you need them; after your calls, stop and wait for their results.\n");
    prompt
}

/// Arguments for a tool's example call: its required parameters (or its first), each with its
/// example, default, first enum value, or a value of its type.
fn example_arguments(spec: &ToolSpec) -> Value {
    let parameters = Parameters::of(spec);
    let mut arguments = Map::new();
    for (name, property) in parameters.iter() {
        if !parameters.requires_any() && !arguments.is_empty() {
            break;
        }
        if parameters.requires_any() && !parameters.is_required(name) {
            continue;
        }
        arguments.insert(name.clone(), example_value(property));
    }
    Value::Object(arguments)
}

fn example_value(property: &Value) -> Value {
    if let Some(example) = property.get("examples").and_then(|e| e.get(0)) {
        return example.clone();
    }
    if let Some(value) = property
        .get("default")
        .or_else(|| property.get("enum").and_then(|e| e.get(0)))
    {
        return value.clone();
    }
    let kind = match property.get("type") {
        Some(Value::Array(kinds)) => kinds
            .iter()
            .filter_map(Value::as_str)
            .find(|k| *k != "null"),
        Some(kind) => kind.as_str(),
        None => None,
    };
    match kind {
        Some("integer") => Value::from(1),
        Some("number") => Value::from(1.5),
        Some("boolean") => Value::Bool(true),
        Some("array") => Value::Array(Vec::new()),
        Some("object") => Value::Object(Map::new()),
        _ => Value::String("text".to_owned()),
    }
}

/// `calls` written the way a model writes them in `format` (Hermes tags for
/// [`TextFormat::Auto`]): for putting earlier calls back into a conversation's history, and
/// for the prompt's example. [`parse`](super::parse) reads them back.
pub fn write_calls(format: TextFormat, calls: &[ToolCall]) -> String {
    (format.declared().write)(calls)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse;
    use serde_json::json;

    fn calls() -> Vec<ToolCall> {
        vec![
            ToolCall::new("x", "get_weather", r#"{"city": "Saint-Étienne", "days": 3, "metric": true}"#),
            ToolCall::new(
                "y",
                "write_file",
                json!({"path": "a \"b\".txt", "lines": ["x\\y", "\n"], "opts": {"mode": null, "n": 1.5}}).to_string(),
            ),
        ]
    }

    #[test]
    fn written_calls_parse_back() {
        let schemas = std::collections::HashMap::from([
            (
                "get_weather".to_owned(),
                json!({"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}, "metric": {"type": "boolean"}}}),
            ),
            (
                "write_file".to_owned(),
                json!({"type": "object", "properties": {"path": {"type": "string"}, "lines": {"type": "array"}, "opts": {"type": "object"}}}),
            ),
        ]);
        for format in TextFormat::ALL.into_iter().chain([TextFormat::Auto]) {
            let written = write_calls(format, &calls());
            for parse_as in [format, TextFormat::Auto] {
                let parsed = parse(&written, parse_as, &schemas);
                assert_eq!(parsed.text, "", "{format:?} as {parse_as:?}: {written}");
                assert!(parsed.errors.is_empty(), "{format:?}: {:?}", parsed.errors);
                let back: Vec<(String, Value)> = parsed
                    .calls
                    .iter()
                    .map(|c| (c.name.clone(), serde_json::from_str(&c.arguments).unwrap()))
                    .collect();
                let expected: Vec<(String, Value)> = calls()
                    .iter()
                    .map(|c| (c.name.clone(), serde_json::from_str(&c.arguments).unwrap()))
                    .collect();
                assert_eq!(back, expected, "{format:?} as {parse_as:?}: {written}");
            }
        }
    }
}
