//! Each tool as a Python function: its signature with type hints from its JSON Schema, and a
//! docstring from its description and parameter docs. The code tool's description is made of
//! these, so the model writes calls the way it writes any Python.

use crate::spec::ToolSpec;
use serde_json::{Map, Value};
use std::fmt::Write;

/// How deep a schema is followed into type hints; past it the hint is `Any`.
const MAX_DEPTH: usize = 8;

/// One parameter as the Python function takes it.
pub(crate) struct Param<'a> {
    pub name: &'a str,
    pub required: bool,
    pub schema: &'a Value,
}

/// The parameters in the order the Python signature lists them: the required ones first (in
/// the schema's order), then the optional ones, because Python wants defaults last. A
/// positional argument in the code fills them in this order.
pub(crate) fn params(schema: &Value) -> Vec<Param<'_>> {
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return Vec::new();
    };
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let (mut first, rest): (Vec<_>, Vec<_>) = properties
        .iter()
        .map(|(name, schema)| Param {
            name,
            required: required.contains(&name.as_str()),
            schema,
        })
        .partition(|p| p.required);
    first.extend(rest);
    first
}

/// The Python text for every tool: helper `TypedDict`s first, then one `def` per tool.
pub(crate) fn python_api<'a>(specs: impl Iterator<Item = &'a ToolSpec>) -> String {
    let mut classes = String::new();
    let mut functions = String::new();
    for spec in specs {
        let mut hints = Hints {
            root: spec.input_schema(),
            classes: &mut classes,
            prefix: camel(spec.name()),
        };
        write_function(&mut functions, spec, &mut hints);
    }
    if classes.is_empty() {
        functions
    } else {
        format!("{classes}\n{functions}")
    }
}

fn write_function(out: &mut String, spec: &ToolSpec, hints: &mut Hints<'_>) {
    let schema = spec.input_schema();
    let params = params(schema);
    let mut list = Vec::with_capacity(params.len());
    for p in &params {
        let hint = hints.hint(p.schema, p.name, 0);
        list.push(if p.required {
            format!("{}: {hint}", p.name)
        } else {
            let default = p
                .schema
                .get("default")
                .map_or_else(|| "None".to_owned(), python_literal);
            let hint = if default == "None" && !hint.ends_with("| None") && hint != "None" {
                format!("{hint} | None")
            } else {
                hint
            };
            format!("{}: {hint} = {default}", p.name)
        });
    }
    let returns = spec
        .output_schema()
        .map_or_else(|| "Any".to_owned(), |s| hints.hint(s, "result", 0));
    let _ = writeln!(
        out,
        "def {}({}) -> {returns}:",
        spec.name(),
        list.join(", ")
    );
    let mut doc = spec.description().trim().to_owned();
    let documented: Vec<_> = params
        .iter()
        .filter_map(|p| {
            let text = p.schema.get("description")?.as_str()?.trim();
            (!text.is_empty()).then_some((p.name, text))
        })
        .collect();
    if !documented.is_empty() {
        doc.push_str("\n\nArgs:");
        for (name, text) in documented {
            let _ = write!(doc, "\n    {name}: {}", text.replace('\n', "\n        "));
        }
    }
    let doc = doc.replace('\\', "\\\\").replace("\"\"\"", "\\\"\\\"\\\"");
    let _ = writeln!(out, "    \"\"\"{}\n    \"\"\"\n", indent(&doc));
}

/// Indents every line after the first by four spaces (the docstring's own indent).
fn indent(text: &str) -> String {
    text.lines()
        .enumerate()
        .map(|(i, line)| {
            if i == 0 || line.is_empty() {
                line.to_owned()
            } else {
                format!("    {line}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Turns schemas into type hints, writing a `TypedDict` for each object with properties.
struct Hints<'a> {
    root: &'a Value,
    classes: &'a mut String,
    prefix: String,
}

impl Hints<'_> {
    fn hint(&mut self, schema: &Value, name: &str, depth: usize) -> String {
        if depth > MAX_DEPTH {
            return "Any".to_owned();
        }
        let Some(object) = schema.as_object() else {
            // `true` (anything) or `false` (nothing).
            return "Any".to_owned();
        };
        if let Some(target) = object.get("$ref").and_then(Value::as_str) {
            return match resolve(self.root, target) {
                Some(found) => self.hint(found, ref_name(target), depth + 1),
                None => "Any".to_owned(),
            };
        }
        if let Some(value) = object.get("const") {
            return format!("Literal[{}]", python_literal(value));
        }
        if let Some(values) = object.get("enum").and_then(Value::as_array) {
            let mut parts: Vec<String> = values
                .iter()
                .filter(|v| !v.is_null())
                .map(python_literal)
                .collect();
            let nullable = values.iter().any(Value::is_null);
            if parts.is_empty() {
                return "None".to_owned();
            }
            let mut hint = format!("Literal[{}]", parts.join(", "));
            if nullable {
                parts.clear();
                hint.push_str(" | None");
            }
            return hint;
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(options) = object.get(key).and_then(Value::as_array) {
                return self.union(options.iter(), name, depth);
            }
        }
        if let Some(all) = object.get("allOf").and_then(Value::as_array) {
            if let [only] = all.as_slice() {
                return self.hint(only, name, depth + 1);
            }
        }
        match object.get("type") {
            Some(Value::String(kind)) => self.typed(kind, object, name, depth),
            Some(Value::Array(kinds)) => {
                let hints: Vec<String> = kinds
                    .iter()
                    .filter_map(Value::as_str)
                    .map(|kind| self.typed(kind, object, name, depth))
                    .collect();
                join_union(hints)
            }
            _ if object.contains_key("properties") => self.typed("object", object, name, depth),
            _ => "Any".to_owned(),
        }
    }

    fn union<'v>(
        &mut self,
        options: impl Iterator<Item = &'v Value>,
        name: &str,
        depth: usize,
    ) -> String {
        let hints: Vec<String> = options.map(|o| self.hint(o, name, depth + 1)).collect();
        join_union(hints)
    }

    fn typed(
        &mut self,
        kind: &str,
        object: &Map<String, Value>,
        name: &str,
        depth: usize,
    ) -> String {
        match kind {
            "string" => "str".to_owned(),
            "integer" => "int".to_owned(),
            "number" => "float".to_owned(),
            "boolean" => "bool".to_owned(),
            "null" => "None".to_owned(),
            "array" => match object.get("items") {
                Some(items) if items.is_object() => {
                    format!("list[{}]", self.hint(items, name, depth + 1))
                }
                _ => "list".to_owned(),
            },
            "object" => match object.get("properties").and_then(Value::as_object) {
                Some(properties) if !properties.is_empty() => {
                    self.typed_dict(object, properties, name, depth)
                }
                _ => match object.get("additionalProperties") {
                    Some(values) if values.is_object() => {
                        format!("dict[str, {}]", self.hint(values, name, depth + 1))
                    }
                    _ => "dict".to_owned(),
                },
            },
            _ => "Any".to_owned(),
        }
    }

    /// Writes `class <Tool><Name>(TypedDict)` for an object parameter and returns its name.
    fn typed_dict(
        &mut self,
        object: &Map<String, Value>,
        properties: &Map<String, Value>,
        name: &str,
        depth: usize,
    ) -> String {
        let class = format!("{}{}", self.prefix, camel(name));
        let marker = format!("class {class}(TypedDict):");
        if self.classes.contains(&marker) {
            return class;
        }
        let required: Vec<&str> = object
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut body = String::new();
        for (key, schema) in properties {
            let hint = self.hint(schema, key, depth + 1);
            let hint = if required.contains(&key.as_str()) {
                hint
            } else {
                format!("NotRequired[{hint}]")
            };
            let _ = write!(body, "\n    {key}: {hint}");
            if let Some(text) = schema.get("description").and_then(Value::as_str) {
                let _ = write!(body, "  # {}", text.lines().next().unwrap_or_default());
            }
        }
        let _ = writeln!(self.classes, "{marker}{body}\n");
        class
    }
}

/// `A | B`, each hint once.
fn join_union(hints: Vec<String>) -> String {
    let mut seen: Vec<String> = Vec::new();
    for hint in hints {
        for part in hint.split(" | ") {
            if !seen.iter().any(|s| s == part) {
                seen.push(part.to_owned());
            }
        }
    }
    // `None` last, as Python writes `X | None`.
    seen.sort_by_key(|s| s == "None");
    if seen.is_empty() {
        "Any".to_owned()
    } else {
        seen.join(" | ")
    }
}

/// A JSON value as a Python literal.
pub(crate) fn python_literal(value: &Value) -> String {
    match value {
        Value::Null => "None".to_owned(),
        Value::Bool(true) => "True".to_owned(),
        Value::Bool(false) => "False".to_owned(),
        Value::Number(n) => n.to_string(),
        // JSON's string escapes are Python's, but for `\/`, which serde_json never writes.
        Value::String(s) => Value::String(s.clone()).to_string(),
        Value::Array(items) => format!(
            "[{}]",
            items
                .iter()
                .map(python_literal)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Value::Object(map) => format!(
            "{{{}}}",
            map.iter()
                .map(|(k, v)| format!("{}: {}", Value::String(k.clone()), python_literal(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// `read_file` → `ReadFile`: the prefix of a tool's helper classes.
fn camel(name: &str) -> String {
    name.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut chars = w.chars();
            chars.next().map_or_else(String::new, |c| {
                c.to_ascii_uppercase().to_string() + chars.as_str()
            })
        })
        .collect()
}

/// `#/$defs/Options` within the tool's own schema.
fn resolve<'a>(root: &'a Value, target: &str) -> Option<&'a Value> {
    root.pointer(target.strip_prefix('#')?)
}

fn ref_name(target: &str) -> &str {
    target.rsplit('/').next().unwrap_or(target)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn hint(schema: Value) -> (String, String) {
        let mut classes = String::new();
        let root = json!({});
        let mut hints = Hints {
            root: &root,
            classes: &mut classes,
            prefix: "Tool".to_owned(),
        };
        let hint = hints.hint(&schema, "arg", 0);
        (hint, classes)
    }

    #[test]
    fn scalars_lists_enums_and_nullables() {
        assert_eq!(hint(json!({"type": "string"})).0, "str");
        assert_eq!(hint(json!({"type": "integer"})).0, "int");
        assert_eq!(hint(json!({"type": "number"})).0, "float");
        assert_eq!(hint(json!({"type": "boolean"})).0, "bool");
        assert_eq!(
            hint(json!({"type": "array", "items": {"type": "integer"}})).0,
            "list[int]"
        );
        assert_eq!(hint(json!({"enum": ["a", "b"]})).0, r#"Literal["a", "b"]"#);
        assert_eq!(hint(json!({"type": ["string", "null"]})).0, "str | None");
        assert_eq!(
            hint(json!({"anyOf": [{"type": "null"}, {"type": "integer"}]})).0,
            "int | None"
        );
        assert_eq!(
            hint(json!({"type": "object", "additionalProperties": {"type": "number"}})).0,
            "dict[str, float]"
        );
        assert_eq!(hint(json!({"type": "object"})).0, "dict");
        assert_eq!(hint(json!(true)).0, "Any");
    }

    #[test]
    fn an_object_with_properties_is_a_typed_dict() {
        let (hint, classes) = hint(json!({
            "type": "object",
            "properties": {"x": {"type": "integer", "description": "Across."}, "y": {"type": "integer"}},
            "required": ["x"]
        }));
        assert_eq!(hint, "ToolArg");
        assert!(classes.contains("class ToolArg(TypedDict):"), "{classes}");
        assert!(classes.contains("x: int  # Across."), "{classes}");
        assert!(classes.contains("y: NotRequired[int]"), "{classes}");
    }

    #[test]
    fn a_function_lists_required_parameters_first_with_defaults_after() {
        let schema = json!({
            "type": "object",
            "properties": {
                "limit": {"type": "integer", "default": 5, "description": "The most to return."},
                "query": {"type": "string", "description": "What to find."},
                "deep": {"type": "boolean"}
            },
            "required": ["query"]
        });
        let spec = ToolSpec {
            name: "search".to_owned(),
            title: None,
            description: "Find things.\n\nSecond line.".to_owned(),
            input_schema: schema,
            output_schema: None,
            output_wrapped: false,
            flags: crate::def::ToolFlags::default(),
            location: None,
            error_format: crate::error_format::ErrorFormat::Text,
        };
        let text = python_api(std::iter::once(&spec));
        assert!(
            text.starts_with(
                "def search(query: str, limit: int = 5, deep: bool | None = None) -> Any:"
            ),
            "{text}"
        );
        assert!(
            text.contains("Args:\n        query: What to find."),
            "{text}"
        );
        assert!(text.contains("Second line."), "{text}");
    }

    #[test]
    fn literals_are_python() {
        assert_eq!(python_literal(&json!(null)), "None");
        assert_eq!(python_literal(&json!(true)), "True");
        assert_eq!(
            python_literal(&json!({"a": [1, "x"]})),
            r#"{"a": [1, "x"]}"#
        );
    }
}
