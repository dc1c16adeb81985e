//! Families whose templates write each tool as a declaration of their own rather than JSON:
//! Seed-OSS's Python signatures with a docstring, Gemma 4's `declaration:` objects in its
//! call syntax. Each is its template's macro, quirks included: the text is what the model
//! was trained on.

use super::super::parameters::Parameters;
use super::{is_true, py_str};
use crate::format::TextFormat;
use crate::ToolSpec;
use serde_json::Value;
use std::fmt::Write;

/// `format`'s tool section, for the formats of this module.
pub(crate) fn prompt(tools: &[&ToolSpec], format: TextFormat) -> Option<String> {
    Some(match format {
        TextFormat::SeedOss => {
            // The template's "You are Doubao" line before the functions is a system message
            // of its own (a user's replaces it): the prompt starts at the functions.
            let functions: Vec<String> = tools.iter().map(|spec| seed_function(spec)).collect();
            format!("{}\n{SEED_RULES}", functions.join("\n\n"))
        }
        TextFormat::Gemma4 => tools
            .iter()
            .map(|spec| format!("<|tool>{}<tool|>", gemma_declaration(spec).trim()))
            .collect(),
        _ => return None,
    })
}

/// Seed-OSS's call instructions after its functions ("Please follow this format for tool
/// calls:").
const SEED_RULES: &str = "工具调用请遵循如下格式:\n<seed:tool_call>\n<function=example_function_name>\n<parameter=example_parameter_1>value_1</parameter>\n<parameter=example_parameter_2>This is the value for the second parameter\nthat can span\nmultiple lines</parameter>\n</function>\n</seed:tool_call>";

/// One tool as Seed-OSS's `tools2doc` writes it: a Python signature with each parameter's
/// type, and a docstring with the description and each parameter, required (必填) or
/// optional (选填).
fn seed_function(spec: &ToolSpec) -> String {
    let parameters = Parameters::of(spec);
    let signature: Vec<String> = parameters
        .iter()
        .map(|(name, fields)| format!("{name}: {}", seed_type(fields)))
        .collect();
    let mut out = format!(
        "Function:\ndef {}({}):\n    \"\"\"\n    {}\n\n",
        spec.name(),
        signature.join(","),
        spec.description().trim()
    );
    if !parameters.is_empty() {
        out.push_str("    Args:");
        for (name, fields) in parameters.iter() {
            let mark = if parameters.is_required(name) {
                "必填"
            } else {
                "选填"
            };
            let description = fields
                .get("description")
                .filter(|d| is_true(d))
                .map(py_str)
                .unwrap_or_default();
            let _ = write!(
                out,
                "\n    - {name} ({}) [{mark}]: {description}",
                seed_type(fields)
            );
        }
    }
    out.push_str("\n\n    \"\"\"");
    out
}

/// Seed-OSS's `py_type`: the Python name of a schema's type (numbers are all `int` there).
fn seed_type(fields: &Value) -> &'static str {
    match fields.get("type").and_then(Value::as_str) {
        Some("string") => "str",
        Some("number" | "integer") => "int",
        Some("boolean") => "bool",
        Some("array") => "list",
        _ => "Any",
    }
}

/// Gemma's string quote token.
const Q: &str = "<|\"|>";

/// One tool as Gemma 4's `format_function_declaration` writes it. Without a `type` in the
/// schema the template never closes `parameters:{`; that is kept.
fn gemma_declaration(spec: &ToolSpec) -> String {
    let mut out = format!(
        "declaration:{}{{description:{Q}{}{Q}",
        spec.name(),
        spec.description()
    );
    let params = spec.input_schema();
    if is_true(params) {
        out.push_str(",parameters:{");
        if let Some(properties) = params.get("properties").filter(|p| is_true(p)) {
            let _ = write!(
                out,
                "properties:{{{}}},",
                gemma_parameters(properties, false)
            );
        }
        if let Some(required) = params.get("required").filter(|r| is_true(r)) {
            let _ = write!(out, "required:[{}],", gemma_names(required));
        }
        if let Some(kind) = params.get("type").filter(|t| is_true(t)) {
            let _ = write!(out, "type:{Q}{}{Q}}}", upper(Some(kind)));
        }
    }
    out.push('}');
    out
}

/// The keys `format_parameters` leaves out when it lists an object's own keys as properties.
const STANDARD_KEYS: &[&str] = &["description", "type", "properties", "required", "nullable"];

/// Gemma 4's `format_parameters`: each property, keys in `dictsort`'s order, as
/// `name:{description,enum|items,nullable,properties,required,type}`.
fn gemma_parameters(properties: &Value, filter_keys: bool) -> String {
    let mut fields = Vec::new();
    for (key, value) in dictsort(properties) {
        if filter_keys && STANDARD_KEYS.contains(&key) {
            continue;
        }
        let mut parts: Vec<String> = Vec::new();
        if let Some(description) = value.get("description").filter(|d| is_true(d)) {
            parts.push(format!("description:{Q}{}{Q}", py_str(description)));
        }
        let kind = upper(value.get("type"));
        if kind == "STRING" {
            if let Some(values) = value.get("enum").filter(|e| is_true(e)) {
                parts.push(format!("enum:{}", gemma_value(values)));
            }
        } else if kind == "ARRAY" {
            if let Some(items) = value.get("items").filter(|i| i.is_object() && is_true(i)) {
                parts.push(format!("items:{{{}}}", gemma_items(items)));
            }
        }
        if value.get("nullable").is_some_and(is_true) {
            parts.push("nullable:true".to_owned());
        }
        if kind == "OBJECT" {
            match value.get("properties") {
                Some(inner @ Value::Object(_)) => {
                    parts.push(format!("properties:{{{}}}", gemma_parameters(inner, false)));
                }
                // An object without properties has its own other keys listed as them.
                _ if value.is_object() => {
                    parts.push(format!("properties:{{{}}}", gemma_parameters(value, true)));
                }
                _ => {}
            }
            if let Some(required) = value.get("required").filter(|r| is_true(r)) {
                parts.push(format!("required:[{}]", gemma_names(required)));
            }
        }
        parts.push(format!("type:{Q}{kind}{Q}"));
        fields.push(format!("{key}:{{{}}}", parts.join(",")));
    }
    fields.join(",")
}

/// The `items` of an array parameter, keys in `dictsort`'s order.
fn gemma_items(items: &Value) -> String {
    let mut parts = Vec::new();
    for (key, value) in dictsort(items) {
        if value.is_null() {
            continue;
        }
        parts.push(match key {
            "properties" => {
                let inner = if value.is_object() {
                    gemma_parameters(value, false)
                } else {
                    String::new()
                };
                format!("properties:{{{inner}}}")
            }
            "required" => format!("required:[{}]", gemma_names(value)),
            "type" => match value {
                Value::String(_) => format!("type:{Q}{}{Q}", upper(Some(value))),
                Value::Array(kinds) => {
                    let kinds: Vec<String> = kinds
                        .iter()
                        .map(|kind| format!("{Q}{}{Q}", upper(Some(kind))))
                        .collect();
                    format!("type:[{}]", kinds.join(","))
                }
                other => format!("type:{}", gemma_value(other)),
            },
            other => format!("{other}:{}", gemma_value(value)),
        });
    }
    parts.join(",")
}

/// Gemma 4's `format_argument`: a value in its call syntax, strings between `<|"|>`,
/// object keys quoted and sorted.
fn gemma_value(value: &Value) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::String(text) => format!("{Q}{text}{Q}"),
        Value::Bool(flag) => flag.to_string(),
        Value::Object(_) => {
            let entries: Vec<String> = dictsort(value)
                .into_iter()
                .map(|(key, value)| format!("{Q}{key}{Q}:{}", gemma_value(value)))
                .collect();
            format!("{{{}}}", entries.join(","))
        }
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(gemma_value).collect();
            format!("[{}]", items.join(","))
        }
        Value::Number(number) => number.to_string(),
    }
}

/// A `required` list as the template writes it: each name between `<|"|>`.
fn gemma_names(names: &Value) -> String {
    let names: Vec<String> = names
        .as_array()
        .map(|names| {
            names
                .iter()
                .map(|n| format!("{Q}{}{Q}", py_str(n)))
                .collect()
        })
        .unwrap_or_default();
    names.join(",")
}

/// Jinja's `upper` of a value: its Python `str` in capitals, nothing when it is missing.
fn upper(value: Option<&Value>) -> String {
    value.map(py_str).unwrap_or_default().to_uppercase()
}

/// An object's entries as Jinja's `dictsort` orders them: by key, case ignored, ties kept
/// in order.
fn dictsort(value: &Value) -> Vec<(&str, &Value)> {
    let mut entries: Vec<(&str, &Value)> = value
        .as_object()
        .map(|map| map.iter().map(|(k, v)| (k.as_str(), v)).collect())
        .unwrap_or_default();
    entries.sort_by_key(|(key, _)| key.to_lowercase());
    entries
}
