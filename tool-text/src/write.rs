//! What the formats' writers share: templates, argument maps, Python and Gemma literals, DSML
//! and Kimi K3 blocks. Each format's own writer is in its file under `formats/`.

use super::deepseek;
use super::format::TextFormat;
use crate::ToolCall;
use serde_json::{Map, Value};
use std::fmt::Write;

/// Each call as a JSON object with its `name` and its arguments under `key`.
pub(crate) fn objects(calls: &[ToolCall], key: &str) -> Vec<String> {
    calls
        .iter()
        .map(|call| {
            format!(
                "{{\"name\": {}, \"{key}\": {}}}",
                Value::from(call.name.as_str()),
                arguments(call)
            )
        })
        .collect()
}

/// Calls in Gemma's syntax, each between `open` and `close`, strings between `quote`s.
pub(crate) fn gemma_calls(calls: &[ToolCall], open: &str, close: &str, quote: &str) -> String {
    calls
        .iter()
        .map(|call| {
            let map = arguments_map(call);
            format!(
                "{open}call:{}{}{close}",
                call.name,
                gemma_object(&map, quote)
            )
        })
        .collect()
}

fn gemma_object(map: &Map<String, Value>, quote: &str) -> String {
    let pairs: Vec<String> = map
        .iter()
        .map(|(key, value)| {
            let bare = !key.is_empty()
                && key
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'));
            let key = if bare {
                key.clone()
            } else {
                format!("{quote}{key}{quote}")
            };
            format!("{key}:{}", gemma_value(value, quote))
        })
        .collect();
    format!("{{{}}}", pairs.join(","))
}

/// A JSON value in Gemma's syntax: strings quoted with `quote`, the rest as JSON writes them.
fn gemma_value(value: &Value, quote: &str) -> String {
    match value {
        Value::String(text) => format!("{quote}{text}{quote}"),
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(|v| gemma_value(v, quote)).collect();
            format!("[{}]", items.join(","))
        }
        Value::Object(map) => gemma_object(map, quote),
        other => other.to_string(),
    }
}

/// A format whose calls are written from templates. In
/// `call`, `{name}` is the call's tool (`{json_name}`: as a JSON string) and `{arguments}` its
/// arguments: one JSON object, or, with an [`argument`](Self::argument) template, each
/// argument written by it (`{key}`, and `{value}`: a string as it is, another value as JSON).
/// The calls go `between` apart, between `open` and `close`.
#[derive(Clone, Copy)]
pub(crate) struct Template {
    open: &'static str,
    call: &'static str,
    argument: Option<&'static str>,
    /// Whether a value that would read as XML markup goes in a CDATA section.
    cdata: bool,
    between: &'static str,
    close: &'static str,
}

impl Template {
    /// Each call from `call`, one a line.
    pub(crate) const fn lines(call: &'static str) -> Template {
        Template {
            open: "",
            call,
            argument: None,
            cdata: false,
            between: "\n",
            close: "",
        }
    }

    /// Each call from `call`, one after the other.
    pub(crate) const fn joined(call: &'static str) -> Template {
        Template {
            between: "",
            ..Template::lines(call)
        }
    }

    /// The calls `between` apart.
    pub(crate) const fn between(self, between: &'static str) -> Template {
        Template { between, ..self }
    }

    /// The calls between `open` and `close`.
    pub(crate) const fn within(self, open: &'static str, close: &'static str) -> Template {
        Template {
            open,
            close,
            ..self
        }
    }

    /// Each argument from `argument`, one after the other.
    pub(crate) const fn argument(self, argument: &'static str) -> Template {
        Template {
            argument: Some(argument),
            ..self
        }
    }

    /// Values that would read as XML markup in CDATA sections.
    pub(crate) const fn cdata(self) -> Template {
        Template {
            cdata: true,
            ..self
        }
    }

    pub(crate) fn write(&self, calls: &[ToolCall]) -> String {
        let mut out = self.open.to_owned();
        for (n, call) in calls.iter().enumerate() {
            if n > 0 {
                out.push_str(self.between);
            }
            let arguments = match self.argument {
                Some(template) => pairs(call, |key, value| {
                    let mut pair = String::new();
                    fill(
                        &mut pair,
                        template,
                        &[("{key}", key), ("{value}", &self.value(value))],
                    );
                    pair
                }),
                None => arguments(call).to_string(),
            };
            let json_name = Value::from(call.name.as_str()).to_string();
            let holes = [
                ("{name}", call.name.as_str()),
                ("{json_name}", &json_name),
                ("{arguments}", &arguments),
            ];
            fill(&mut out, self.call, &holes);
        }
        out.push_str(self.close);
        out
    }

    fn value<'a>(&self, value: &'a str) -> std::borrow::Cow<'a, str> {
        // XML text: what would read as markup goes in a CDATA section, when it can.
        if self.cdata && (value.contains('<') || value.contains('&')) && !value.contains("]]>") {
            format!("<![CDATA[{value}]]>").into()
        } else {
            value.into()
        }
    }
}

/// Writes `template` to `out` with each of its `holes` filled: the text put in is not read
/// again, so a value that holds a hole's name stays as it is.
fn fill(out: &mut String, template: &str, holes: &[(&str, &str)]) {
    let mut rest = template;
    while let Some(at) = rest.find('{') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        match holes.iter().find(|(hole, _)| rest.starts_with(hole)) {
            Some((hole, text)) => {
                out.push_str(text);
                rest = &rest[hole.len()..];
            }
            None => {
                out.push('{');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
}

/// Each argument of `call` written by `pair`, with its value as the formats with a tag per
/// argument want it: strings as they are, the rest as JSON.
fn pairs(call: &ToolCall, pair: impl Fn(&str, &str) -> String) -> String {
    arguments_map(call)
        .iter()
        .map(|(key, value)| match value {
            Value::String(text) => pair(key, text),
            other => pair(key, &other.to_string()),
        })
        .collect()
}

/// Calls in the DSML block of `format` (a DeepSeek V3.2 or later): strings as they are,
/// other values as JSON.
pub(crate) fn dsml_calls(format: TextFormat, calls: &[ToolCall]) -> String {
    let Some(dsml) = deepseek::dsml(format) else {
        return String::new();
    };
    let mut out = format!("{}\n", dsml.open);
    for call in calls {
        let _ = writeln!(out, "{} name=\"{}\">", dsml.invoke, call.name);
        for (key, value) in arguments_map(call) {
            let (string, value) = match value {
                Value::String(text) => ("true", text),
                other => ("false", other.to_string()),
            };
            let _ = writeln!(
                out,
                "{} name=\"{key}\" string=\"{string}\">{value}{}",
                dsml.parameter, dsml.parameter_end
            );
        }
        let _ = writeln!(out, "{}", dsml.invoke_end);
    }
    out.push_str(dsml.close);
    out
}

/// One Kimi K3 call, the `index`th: each argument typed, strings as they are.
pub(crate) fn k3_call(call: &ToolCall, index: usize) -> String {
    let escape = |text: &str| text.replace('&', "&amp;").replace('"', "&quot;");
    let mut out = format!(
        "<|open|>call tool=\"{}\" index=\"{index}\"<|sep|>",
        escape(&call.name)
    );
    for (key, value) in arguments_map(call) {
        let (kind, value) = match value {
            Value::String(text) => ("string", text),
            Value::Null => ("null", "null".to_owned()),
            Value::Bool(_) => ("boolean", value.to_string()),
            Value::Number(_) => ("number", value.to_string()),
            Value::Array(_) => ("array", value.to_string()),
            Value::Object(_) => ("object", value.to_string()),
        };
        let _ = write!(
            out,
            "<|open|>argument key=\"{}\" type=\"{kind}\"<|sep|>{value}<|close|>argument<|sep|>",
            escape(&key)
        );
    }
    out.push_str("<|close|>call<|sep|>");
    out
}

/// One MiniMax-M3 element: strings as they are, numbers, booleans and null as JSON, objects
/// as an element per member, arrays as an `<item>` per value.
pub(crate) fn minimax_element(out: &mut String, key: &str, value: &Value) {
    let ns = super::minimax_m3::NS;
    let _ = write!(out, "{ns}<{key}>");
    match value {
        Value::String(text) => out.push_str(text),
        Value::Object(map) => map
            .iter()
            .for_each(|(key, value)| minimax_element(out, key, value)),
        Value::Array(items) => items
            .iter()
            .for_each(|value| minimax_element(out, "item", value)),
        other => out.push_str(&other.to_string()),
    }
    let _ = write!(out, "{ns}</{key}>");
}

/// Each object between `open` and `close`, one a line.
pub(crate) fn each(objects: &[String], open: &str, close: &str) -> String {
    objects
        .iter()
        .map(|object| format!("{open}{object}{close}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A call's arguments as a JSON object; arguments that aren't one are kept as a string.
pub(crate) fn arguments(call: &ToolCall) -> Value {
    match serde_json::from_str::<Value>(&call.arguments) {
        Ok(value @ Value::Object(_)) => value,
        _ if call.arguments.trim().is_empty() => Value::Object(Map::new()),
        _ => Value::String(call.arguments.clone()),
    }
}

pub(crate) fn arguments_map(call: &ToolCall) -> Map<String, Value> {
    match arguments(call) {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

pub(crate) fn python_call(call: &ToolCall) -> String {
    let arguments: Vec<String> = arguments_map(call)
        .iter()
        .map(|(key, value)| format!("{key}={}", python_literal(value)))
        .collect();
    format!("{}({})", call.name, arguments.join(", "))
}

/// A JSON value as a Python literal: JSON strings, numbers, lists and dicts already are one.
fn python_literal(value: &Value) -> String {
    match value {
        Value::Null => "None".to_owned(),
        Value::Bool(true) => "True".to_owned(),
        Value::Bool(false) => "False".to_owned(),
        Value::Number(_) | Value::String(_) => value.to_string(),
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(python_literal).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Object(map) => {
            let entries: Vec<String> = map
                .iter()
                .map(|(key, value)| {
                    format!("{}: {}", Value::from(key.as_str()), python_literal(value))
                })
                .collect();
            format!("{{{}}}", entries.join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn python_literals_are_written_as_python() {
        assert_eq!(
            python_literal(&json!([true, null, {"a": "b"}])),
            r#"[True, None, {"a": "b"}]"#
        );
    }
}
