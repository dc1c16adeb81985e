//! Functionary v3.2's TypeScript: its template's own JSON Schema converter
//! (`generate_schema_from_functions`), which differs from harmony's in every detail (nested
//! properties indented by four spaces a level, constraints and defaults in the comment,
//! arrays of primitives with a comma of their own). Reproduced with its quirks: the text is
//! what the model was trained on.

use super::{is_true, py_str};
use crate::ToolSpec;
use serde_json::{Map, Value};
use std::fmt::Write;

/// Functionary v3.2's system text and tool namespace.
pub(crate) fn prompt(tools: &[&ToolSpec]) -> String {
    let mut out = String::from(RULES);
    for spec in tools {
        let schema = spec.input_schema();
        let _ = write!(
            out,
            "// {}\ntype {}",
            spec.description().trim(),
            spec.name()
        );
        match schema.get("properties").filter(|p| is_true(p)) {
            Some(properties) => {
                let required = list(schema.get("required"));
                let _ = write!(
                    out,
                    " = (_: {{{}\n}}) => any;\n\n",
                    parameters(properties, &required, 0)
                );
            }
            None => out.push_str(" = () => any;\n\n"),
        }
    }
    out.push_str("} // namespace functions");
    out
}

/// The template's words before the tools, and the head of their namespace.
const RULES: &str = "You are capable of executing available function(s) if required.\nOnly execute function(s) when absolutely necessary.\nAsk for the required input to:recipient==all\nUse JSON for function arguments.\nRespond in this format:\n>>>${recipient}\n${content}\nAvailable functions:\n// Supported function definitions that should be called when necessary.\nnamespace functions {\n\n";

/// What the template's macros return for "no comment".
const NONE: &str = "<|NONE|>";

/// `get_parameter_typescript`: each property on its own line(s), its comment above it.
fn parameters(properties: &Value, required: &[Value], depth: usize) -> String {
    let mut out = String::new();
    let Some(properties) = properties.as_object() else {
        return out;
    };
    let offset = "    ".repeat(depth);
    for (name, param) in properties {
        if !param.is_object() {
            continue;
        }
        let comment = param_info(param);
        let examples = examples(name, param);
        let mut declaration = name.clone();
        if !required.iter().any(|r| r.as_str() == Some(name)) {
            declaration.push('?');
        }
        let kind = param_type(param);
        if kind == "object" {
            comment_and_examples(&mut out, &comment, &examples, &offset);
            let _ = write!(
                out,
                "\n{offset}{declaration}: {{{}\n{offset}}},",
                parameters(
                    param.get("properties").unwrap_or(&Value::Null),
                    &list(param.get("required")),
                    depth + 1
                )
            );
        } else if kind == "array" {
            let has_type = param
                .get("items")
                .and_then(Value::as_object)
                .is_some_and(|items| items.contains_key("type"));
            if has_type {
                comment_and_examples(&mut out, &comment, &examples, &offset);
                let mut array = array_type(Some(&declaration), param, depth);
                if !array.ends_with(',') {
                    array.push(',');
                }
                out.push_str(&array);
            } else {
                declaration.push_str(": [],");
                new_param(&mut out, &declaration, &comment, &examples, &offset);
            }
        } else {
            let mut kind = match param.get("enum") {
                Some(values) => enum_options(values),
                None => kind,
            };
            if param.get("nullable").is_some_and(is_true) {
                kind.push_str(" | null");
            }
            let _ = write!(declaration, ": {kind},");
            new_param(&mut out, &declaration, &comment, &examples, &offset);
        }
    }
    out
}

/// The comment and example lines an object or array parameter gets.
fn comment_and_examples(out: &mut String, comment: &str, examples: &[String], offset: &str) {
    if comment != NONE {
        let _ = write!(out, "\n{offset}{comment}");
    }
    for example in examples {
        let _ = write!(out, "\n{offset}// {example}");
    }
}

/// `append_new_param_info`: unlike `comment_and_examples`, the examples only with a comment.
fn new_param(
    out: &mut String,
    declaration: &str,
    comment: &str,
    examples: &[String],
    offset: &str,
) {
    if comment != NONE {
        let _ = write!(out, "\n{offset}{comment}");
        for example in examples {
            let _ = write!(out, "\n{offset}// {example}");
        }
    }
    let _ = write!(out, "\n{offset}{declaration}");
}

/// A parameter's `examples` as the template lists them: a heading, then each as Python's
/// `str` with its single quotes made double.
fn examples(name: &str, param: &Value) -> Vec<String> {
    let Some(examples) = param.get("examples") else {
        return Vec::new();
    };
    let mut out = vec![format!("Example {name}:")];
    if let Some(items) = examples.as_array() {
        out.extend(items.iter().map(|e| py_str(e).replace('\'', "\"")));
    }
    out
}

/// `get_array_typescript`: an array's type, named (a property) or not (an array's items).
fn array_type(name: Option<&str>, param: &Value, depth: usize) -> String {
    let offset = "    ".repeat(depth);
    let empty = Value::Object(Map::new());
    let items = param.get("items").unwrap_or(&empty);
    let head = name.map(|name| format!("{name}: ")).unwrap_or_default();
    if items.as_object().is_none_or(Map::is_empty) {
        return format!("\n{offset}{head}[]");
    }
    let kind = param_type(items);
    if kind == "object" {
        format!(
            "\n{offset}{head}{{{}\n{offset}}}[]",
            parameters(
                items.get("properties").unwrap_or(&Value::Null),
                &list(items.get("required")),
                depth + 1
            )
        )
    } else if kind == "array" {
        let inner = array_type(None, items, depth + 1);
        match name {
            None => format!("\n{inner}[]"),
            Some(_) => format!("\n{offset}{head}{}[]", inner.trim()),
        }
    } else if let Some(values) = items.get("enum") {
        let options = enum_options(values);
        match name {
            None => format!("({options})[]"),
            Some(_) => format!("\n{offset}{head}({options})[]"),
        }
    } else {
        match name {
            None => format!("\n{kind}[]"),
            Some(_) => format!("\n{offset}{head}{kind}[],"),
        }
    }
}

/// `get_param_type`: the type's name (`number` for `integer`), types joined with `|`, a
/// `oneOf`'s distinct types; nothing when there is no type.
fn param_type(param: &Value) -> String {
    let convert = |kind: String| match kind.as_str() {
        "integer" | "float" => "number".to_owned(),
        _ => kind,
    };
    if let Some(kind) = param.get("type") {
        return match kind {
            Value::Array(kinds) => {
                convert(kinds.iter().map(py_str).collect::<Vec<_>>().join(" | "))
            }
            other => convert(py_str(other)),
        };
    }
    if let Some(variants) = param.get("oneOf") {
        let mut kinds: Vec<String> = Vec::new();
        for kind in variants
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|v| v.get("type"))
        {
            let kind = py_str(kind);
            if !kinds.contains(&kind) {
                kinds.push(kind);
            }
        }
        return convert(kinds.join(" | "));
    }
    String::new()
}

/// `get_param_info`: the comment above a parameter (description, default, format and
/// bounds), or [`NONE`].
fn param_info(param: &Value) -> String {
    let format = format_param(param);
    let bounds = [
        ("maximum", "Maximum"),
        ("minimum", "Minimum"),
        ("maxLength", "Maximum length"),
        ("minLength", "Minimum length"),
    ];
    let commented = param.get("description").is_some()
        || param.get("default").is_some()
        || format != NONE
        || bounds
            .iter()
            .any(|(field, _)| param.get(field).is_some_and(is_true));
    if !commented {
        return NONE.to_owned();
    }
    let mut out = String::from("//");
    if let Some(description) = param.get("description") {
        let mut description = py_str(description);
        if !description.ends_with('.') {
            description.push('.');
        }
        let _ = write!(out, " {description}");
    }
    if let Some(default) = param.get("default") {
        let value = py_str(default);
        if param.get("type").and_then(Value::as_str) == Some("string") {
            let _ = write!(out, " Default=\"{value}\".");
        } else {
            let _ = write!(out, " Default={value}.");
        }
    }
    if format != NONE {
        let _ = write!(out, " Format={format}");
    }
    for (field, label) in bounds {
        if let Some(value) = param.get(field) {
            let _ = write!(out, " {label}={}", py_str(value));
        }
    }
    out
}

/// `get_format_param`: the `format`, a `oneOf`'s formats joined with " or " (empty when
/// none has one), or [`NONE`].
fn format_param(param: &Value) -> String {
    if let Some(format) = param.get("format") {
        return py_str(format);
    }
    let Some(variants) = param.get("oneOf") else {
        return NONE.to_owned();
    };
    let variants = variants.as_array().map(Vec::as_slice).unwrap_or_default();
    let last = variants.last().and_then(|v| v.get("format"));
    let mut out = String::new();
    for format in variants.iter().filter_map(|v| v.get("format")) {
        out.push_str(&py_str(format));
        if Some(format) != last {
            out.push_str(" or ");
        }
    }
    out
}

/// `get_enum_option_str`: the values joined with `|`, strings quoted. The template skips the
/// separator after any value equal to the last one.
fn enum_options(values: &Value) -> String {
    let values = values.as_array().map(Vec::as_slice).unwrap_or_default();
    let mut out = String::new();
    for value in values {
        match value {
            Value::String(text) => {
                let _ = write!(out, "\"{text}\"");
            }
            other => out.push_str(&py_str(other)),
        }
        if values.last() != Some(value) {
            out.push_str(" | ");
        }
    }
    out
}

/// A `required` list, or none.
fn list(value: Option<&Value>) -> Vec<Value> {
    value.and_then(Value::as_array).cloned().unwrap_or_default()
}
