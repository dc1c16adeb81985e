//! Families whose templates write each tool as a TypeScript function type, converted from
//! its JSON Schema: gpt-oss (harmony) and Apertus share one converter, GigaChat has its own.
//! Each converter is the template's macro, quirks included (the line break and indent
//! harmony leaves inside a nested object, GigaChat's Python `str` of defaults), since the
//! point is the text the model was trained on.

use super::{is_true, lines, py_json, py_str};
use crate::format::TextFormat;
use crate::ToolSpec;
use serde_json::Value;
use std::fmt::Write;

/// `format`'s tool section, for the formats of this module.
pub(crate) fn prompt(tools: &[&ToolSpec], format: TextFormat) -> Option<String> {
    Some(match format {
        TextFormat::Harmony => {
            let mut out = String::from("# Tools\n\n## functions\n\nnamespace functions {\n\n");
            for spec in tools {
                let _ = write!(out, "{}\n\n", harmony_tool(spec, ",\n"));
            }
            out.push_str("} // namespace functions");
            out
        }
        // Apertus's `render_tools` is harmony's without the namespace, its last parameter
        // without a comma and its tools a line apart.
        TextFormat::Apertus => format!(
            "Tool Capabilities:\n{}",
            lines(tools, |spec| harmony_tool(spec, "\n"))
        ),
        TextFormat::GigaChat => {
            let mut sections = vec!["namespace functions {".to_owned()];
            sections.extend(tools.iter().map(|spec| gigachat_tool(spec)));
            sections.push("} // namespace functions".to_owned());
            sections.join("\n")
        }
        _ => return None,
    })
}

/// One tool as harmony's `render_tool_namespace` writes it: its description as a comment,
/// then its type, each parameter with its description as a comment and its default after
/// it, the last one ended with `last_end`.
fn harmony_tool(spec: &ToolSpec, last_end: &str) -> String {
    let schema = spec.input_schema();
    let mut out = format!("// {}\ntype {} = ", spec.description().trim(), spec.name());
    let properties = schema
        .get("properties")
        .and_then(Value::as_object)
        .filter(|p| !p.is_empty());
    let Some(properties) = properties else {
        out.push_str("() => any;");
        return out;
    };
    out.push_str("(_: {\n");
    let required = required(schema);
    for (index, (name, fields)) in properties.iter().enumerate() {
        if let Some(description) = truthy_str(fields, "description") {
            let _ = writeln!(out, "// {description}");
        }
        let optional = if required.contains(&name.as_str()) {
            ""
        } else {
            "?"
        };
        let _ = write!(out, "{name}{optional}: {}", harmony_type(fields));
        if let Some(default) = fields.get("default") {
            if fields.get("enum").is_some_and(is_true) {
                let _ = write!(out, ", // default: {}", py_str(default));
            } else if fields.get("oneOf").is_some_and(is_true) {
                let _ = write!(out, "// default: {}", py_str(default));
            } else {
                let _ = write!(out, ", // default: {}", py_json(default));
            }
        }
        out.push_str(if index + 1 == properties.len() {
            last_end
        } else {
            ",\n"
        });
    }
    out.push_str("}) => any;");
    out
}

/// The template's `render_typescript_type`: a schema as a TypeScript type.
fn harmony_type(spec: &Value) -> String {
    let kind = spec.get("type");
    let nullable = if spec.get("nullable").is_some_and(is_true) {
        " | null"
    } else {
        ""
    };
    match kind {
        Some(Value::String(kind)) if kind == "array" => {
            let items = spec.get("items").filter(|items| is_true(items));
            let Some(items) = items else {
                return format!("any[]{nullable}");
            };
            let inner = match items.get("type").and_then(Value::as_str) {
                Some("string") => "string[]".to_owned(),
                Some("number" | "integer") => "number[]".to_owned(),
                Some("boolean") => "boolean[]".to_owned(),
                _ => {
                    let inner = harmony_type(items);
                    // The template's own cut: long or ambiguous item types become `any`.
                    if inner == "object | object" || inner.chars().count() > 50 {
                        "any[]".to_owned()
                    } else {
                        format!("{inner}[]")
                    }
                }
            };
            format!("{inner}{nullable}")
        }
        Some(Value::Array(kinds)) if !kinds.is_empty() => {
            kinds.iter().map(py_str).collect::<Vec<_>>().join(" | ")
        }
        _ if spec.get("oneOf").is_some_and(is_true) => {
            // The template's check for object variants sets its flag inside the loop, where
            // Jinja's scoping loses it: every variant is written.
            let variants = spec
                .get("oneOf")
                .and_then(Value::as_array)
                .map(Vec::as_slice)
                .unwrap_or_default();
            let mut out = String::new();
            for (index, variant) in variants.iter().enumerate() {
                out.push_str(&harmony_type(variant));
                if let Some(description) = truthy_str(variant, "description") {
                    let _ = write!(out, "// {description}");
                }
                if let Some(default) = variant.get("default") {
                    // The indentation of the template's line, which its tag keeps.
                    let _ = write!(out, "                    // default: {}", py_json(default));
                }
                if index + 1 < variants.len() {
                    out.push_str(" | \n");
                }
            }
            out
        }
        Some(Value::String(kind)) => match kind.as_str() {
            "string" => match spec.get("enum").filter(|e| is_true(e)) {
                Some(Value::Array(values)) => {
                    let values: Vec<String> = values.iter().map(py_str).collect();
                    format!("\"{}\"", values.join("\" | \""))
                }
                _ => format!("string{nullable}"),
            },
            "number" | "integer" => "number".to_owned(),
            "boolean" => "boolean".to_owned(),
            "object" => {
                let properties = spec
                    .get("properties")
                    .and_then(Value::as_object)
                    .filter(|p| !p.is_empty());
                let Some(properties) = properties else {
                    return "object".to_owned();
                };
                let required = required(spec);
                let fields: Vec<String> = properties
                    .iter()
                    .map(|(name, fields)| {
                        let optional = if required.contains(&name.as_str()) {
                            ""
                        } else {
                            "?"
                        };
                        // The template's `{{ .. }}` keeps the line break and indent before it.
                        format!(
                            "{name}{optional}: \n                {}",
                            harmony_type(fields)
                        )
                    })
                    .collect();
                format!("{{\n{}}}", fields.join(", "))
            }
            _ => "any".to_owned(),
        },
        _ => "any".to_owned(),
    }
}

/// One tool as GigaChat 3's `render_tool_namespace` writes it: its description's non-blank
/// lines as comments, then its type, parameters indented by two spaces a level.
fn gigachat_tool(spec: &ToolSpec) -> String {
    let mut lines: Vec<String> = comment_lines(spec.description(), "");
    let schema = spec.input_schema();
    let has_properties = schema
        .get("properties")
        .and_then(Value::as_object)
        .is_some_and(|p| !p.is_empty());
    let head = if has_properties {
        format!(
            "type {} = (_: {}) => ",
            spec.name(),
            gigachat_type(schema, "  ")
        )
    } else {
        format!("type {} = () => ", spec.name())
    };
    lines.push(format!("{head}any;\n"));
    lines.join("\n")
}

/// The keys GigaChat's template adds as comments above a property.
const GIGACHAT_KEYS: &[&str] = &[
    "format", "maxItems", "maximum", "minItems", "minimum", "pattern",
];

/// GigaChat's `json_schema_to_typescript`: `indent` is the properties' indent, the closing
/// brace one level less.
fn gigachat_type(schema: &Value, indent: &str) -> String {
    match schema.get("type").and_then(Value::as_str) {
        Some("object") => {
            let mut out = String::from("{\n");
            let required = required(schema);
            if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
                for (name, fields) in properties {
                    if let Some(description) = fields.get("description").and_then(Value::as_str) {
                        for line in comment_lines(description, indent) {
                            let _ = writeln!(out, "{line}");
                        }
                    }
                    if let Some(map) = fields.as_object() {
                        for (key, value) in map
                            .iter()
                            .filter(|(k, _)| GIGACHAT_KEYS.contains(&k.as_str()))
                        {
                            let value = match value {
                                Value::String(text) => format!("\"{text}\""),
                                other => py_str(other),
                            };
                            let _ = writeln!(out, "{indent}// {key}: {value}");
                        }
                    }
                    let optional = if required.contains(&name.as_str()) {
                        ""
                    } else {
                        "?"
                    };
                    let inner = gigachat_type(fields, &format!("{indent}  "));
                    let _ = write!(out, "{indent}{name}{optional}: {inner},");
                    // `defalut_value` is the template's own spelling, read as it reads it.
                    if let Some(default) = fields
                        .get("default")
                        .or_else(|| fields.get("defalut_value"))
                    {
                        match default {
                            Value::String(text) => {
                                let _ = write!(out, " // default: \"{text}\"");
                            }
                            other => {
                                let _ = write!(out, " // default: {}", py_str(other));
                            }
                        }
                    }
                    out.push('\n');
                }
            }
            let extra = match schema.get("additionalProperties") {
                Some(Value::Bool(true)) => Some(serde_json::json!({"type": "any"})),
                Some(map @ Value::Object(_)) => Some(map.clone()),
                _ => None,
            };
            if let Some(extra) = extra {
                let inner = gigachat_type(&extra, &format!("{indent}  "));
                let _ = writeln!(out, "{indent}[key: string]: {inner}");
            }
            let closing = indent.get(2..).unwrap_or_default();
            let _ = write!(out, "{closing}}}");
            out
        }
        Some("string") => match schema.get("enum").filter(|e| is_true(e)) {
            Some(Value::Array(values)) => values
                .iter()
                .map(|value| format!("\"{}\"", py_str(value)))
                .collect::<Vec<_>>()
                .join(" | "),
            _ if matches!(
                schema.get("format").and_then(Value::as_str),
                Some("date-time" | "date")
            ) =>
            {
                "Date".to_owned()
            }
            _ => "string".to_owned(),
        },
        Some("number" | "integer") => match schema.get("enum").filter(|e| is_true(e)) {
            Some(Value::Array(values)) => values.iter().map(py_str).collect::<Vec<_>>().join(" | "),
            _ => "number".to_owned(),
        },
        Some("boolean") => "boolean".to_owned(),
        Some("array") => match schema.get("items") {
            Some(items) => format!("{}[]", gigachat_type(items, indent)),
            None => "Array<any>".to_owned(),
        },
        _ => "any".to_owned(),
    }
}

/// `text`'s non-blank lines as `//` comments at `indent`.
fn comment_lines(text: &str, indent: &str) -> Vec<String> {
    text.split('\n')
        .filter(|line| !line.trim().is_empty())
        .map(|line| format!("{indent}// {line}"))
        .collect()
}

/// The schema's `required` names.
fn required(schema: &Value) -> Vec<&str> {
    schema
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// `key`'s value when it is a string Jinja takes as true (not empty).
fn truthy_str<'a>(value: &'a Value, key: &str) -> Option<&'a str> {
    value
        .get(key)
        .and_then(Value::as_str)
        .filter(|text| !text.is_empty())
}
