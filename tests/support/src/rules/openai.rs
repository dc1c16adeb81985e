//! OpenAI function tools, Chat Completions and Responses, and strict mode.
//!
//! Sources:
//! - [FD] `openai-python` `types/shared_params/function_definition.py`: `name` "Must be a-z,
//!   A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64"; `description`,
//!   `parameters` (a JSON Schema object), `strict`.
//! - [FT] `openai-python` `types/responses/function_tool.py`: the flat Responses tool,
//!   `type: "function"`, `strict` "Default `true`" (so it must be written to mean `false`).
//! - [SO] "Structured Outputs › Supported schemas" (developers.openai.com/api/docs/guides/
//!   structured-outputs), the rules of `strict: true`, quoted at each rule below.
//! - [PA] pydantic-ai `profiles/openai.py`, OpenAI's strict-mode transformer: "the "default"
//!   keyword is not allowed in strict mode"; "OpenAI Strict mode doesn't support siblings to
//!   "$ref"".

use super::common::{meta_valid, name_ok, nodes, refs_resolve, types, unknown_keys};
use serde_json::{Map, Value};

/// Chat Completions `tools`: `[{"type": "function", "function": {...}}]`.
pub fn check_chat(tools: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for tool in list(tools, &mut out) {
        let Some(entry) = tool.as_object() else {
            out.push("a tool entry is not an object [FD]".into());
            continue;
        };
        if entry.get("type") != Some(&Value::from("function")) {
            out.push(format!("{tool}: `type` is not \"function\" [FD]"));
        }
        for key in unknown_keys(entry, &["type", "function"]) {
            out.push(format!("{tool}: unexpected key `{key}` [FD]"));
        }
        match entry.get("function").and_then(Value::as_object) {
            Some(function) => check_function(function, &mut out),
            None => out.push(format!("{tool}: no `function` object [FD]")),
        }
    }
    out
}

/// Responses `tools`: `[{"type": "function", "name", "description", "parameters", "strict"}]`.
pub fn check_responses(tools: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for tool in list(tools, &mut out) {
        let Some(entry) = tool.as_object() else {
            out.push("a tool entry is not an object [FT]".into());
            continue;
        };
        if entry.get("type") != Some(&Value::from("function")) {
            out.push(format!("{tool}: `type` is not \"function\" [FT]"));
        }
        let mut function = entry.clone();
        function.remove("type");
        check_function(&function, &mut out);
    }
    out
}

fn list<'a>(tools: &'a Value, out: &mut Vec<String>) -> &'a [Value] {
    match tools.as_array() {
        Some(list) => list,
        None => {
            out.push("`tools` is not an array [FD]".into());
            &[]
        }
    }
}

/// One function's rules: its name, its keys, a description, an object schema for its
/// parameters, and the strict-mode rules where `strict` is true.
pub fn check_function(function: &Map<String, Value>, out: &mut Vec<String>) {
    let name = function.get("name").and_then(Value::as_str).unwrap_or("");
    let allowed = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    if !name_ok(name, 64, allowed) {
        out.push(format!(
            "{name:?}: name breaks ^[a-zA-Z0-9_-]{{1,64}}$ [FD]"
        ));
    }
    for key in unknown_keys(function, &["name", "description", "parameters", "strict"]) {
        out.push(format!("{name}: unexpected key `{key}` [FD]"));
    }
    if !function.get("description").is_some_and(Value::is_string) {
        out.push(format!("{name}: no description [FD]"));
    }
    let Some(parameters) = function.get("parameters") else {
        out.push(format!("{name}: no parameters [FD]"));
        return;
    };
    if parameters.get("type") != Some(&Value::from("object")) {
        out.push(format!("{name}: parameters are not an object schema [FD]"));
    }
    meta_valid(name, "parameters", parameters, out);
    match function.get("strict") {
        Some(Value::Bool(true)) => check_strict_schema(name, parameters, out),
        Some(Value::Bool(false)) => {}
        // Responses reads a missing `strict` as true [FT]; always say which.
        _ => out.push(format!("{name}: `strict` is not written as a bool [FT]")),
    }
}

/// [SO] string formats: "Currently supported: date-time, time, date, duration, email,
/// hostname, ipv4, ipv6, uuid".
const FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];

/// [SO] "Supported types" (String, Number, Boolean, Integer, Object, Array, Enum, anyOf) and
/// "Supported properties", plus `null` for optional fields ("a union type with `null`"),
/// `$ref`/`$defs` ("Definitions are supported"), `const` (counted in the string-size limit)
/// and the annotations the guide's examples use.
const KEYWORDS: &[&str] = &[
    "type",
    "description",
    "title",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "anyOf",
    "enum",
    "const",
    "$ref",
    "$defs",
    "pattern",
    "format",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "minItems",
    "maxItems",
];

/// The strict-mode rules of [SO], on one tool's parameters.
pub fn check_strict_schema(tool: &str, schema: &Value, out: &mut Vec<String>) {
    refs_resolve(tool, "strict parameters", schema, out);
    let mut say = |pointer: &str, rule: &str| out.push(format!("{tool} {pointer}: {rule}"));
    // "the root level object of a schema must be an object, and not use `anyOf`".
    if schema.get("type") != Some(&Value::from("object")) || schema.get("anyOf").is_some() {
        say("", "the root is not an object, or uses anyOf [SO]");
    }
    let mut properties = 0;
    let mut enum_values = 0;
    let mut chars = 0;
    if let Some(defs) = schema.get("$defs").and_then(Value::as_object) {
        chars += defs.keys().map(|k| k.chars().count()).sum::<usize>();
    }
    for node in nodes(schema) {
        let (p, s) = (node.pointer.as_str(), node.schema);
        for key in unknown_keys(s, KEYWORDS) {
            say(p, &format!("`{key}` is not a supported keyword [SO] [PA]"));
        }
        if s.contains_key("$defs") && !p.is_empty() {
            say(p, "`$defs` below the root [SO]");
        }
        for t in types(s) {
            if ![
                "string", "number", "boolean", "integer", "object", "array", "null",
            ]
            .contains(&t)
            {
                say(p, &format!("unsupported type {t} [SO]"));
            }
        }
        if let Some(format) = s.get("format").and_then(Value::as_str) {
            if !FORMATS.contains(&format) {
                say(p, &format!("format {format} is not supported [SO]"));
            }
        }
        // [PA]: a `$ref` stands alone.
        if s.contains_key("$ref") && s.len() > 1 {
            say(p, "`$ref` with siblings [PA]");
        }
        let is_object = types(s).contains(&"object") || s.contains_key("properties");
        if is_object {
            // "`additionalProperties: false` must always be set in objects".
            if s.get("additionalProperties") != Some(&Value::Bool(false)) {
                say(p, "an object without additionalProperties: false [SO]");
            }
            // "all fields or function parameters must be specified as `required`".
            let listed: Vec<&str> = s
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            let props = s.get("properties").and_then(Value::as_object);
            for name in props.into_iter().flat_map(|m| m.keys()) {
                if !listed.contains(&name.as_str()) {
                    say(p, &format!("property {name} is not required [SO]"));
                }
            }
            properties += props.map_or(0, Map::len);
            chars += props.map_or(0, |m| m.keys().map(|k| k.chars().count()).sum::<usize>());
        }
        if let Some(values) = s.get("enum").and_then(Value::as_array) {
            enum_values += values.len();
            let length: usize = values.iter().map(text_len).sum();
            chars += length;
            // "For a single enum property with string values, the total string length of all
            // enum values cannot exceed 15,000 characters when there are more than 250".
            if values.len() > 250 && values.iter().all(Value::is_string) && length > 15_000 {
                say(p, "a long enum over 15,000 characters [SO]");
            }
        }
        if let Some(value) = s.get("const") {
            chars += text_len(value);
        }
    }
    // "A schema may have up to 5000 object properties total, with up to 10 levels of nesting."
    if properties > 5000 {
        say("", "more than 5000 object properties [SO]");
    }
    let depth = nesting(schema, schema, &mut Vec::new());
    if depth > 10 {
        say("", &format!("{depth} levels of nesting, more than 10 [SO]"));
    }
    // "A schema may have up to 1000 enum values across all enum properties."
    if enum_values > 1000 {
        say("", "more than 1000 enum values [SO]");
    }
    // "total string length of all property names, definition names, enum values, and const
    // values cannot exceed 120,000 characters".
    if chars > 120_000 {
        say("", "more than 120,000 characters of names and values [SO]");
    }
}

fn text_len(value: &Value) -> usize {
    value
        .as_str()
        .map_or_else(|| value.to_string().len(), |s| s.chars().count())
}

/// Object and array levels, following references; a reference back into the path counts once.
fn nesting(node: &Value, root: &Value, path: &mut Vec<String>) -> usize {
    let Some(map) = node.as_object() else {
        return 0;
    };
    let own = usize::from(
        types(map).iter().any(|t| *t == "object" || *t == "array")
            || map.contains_key("properties"),
    );
    let mut deepest = 0;
    if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
        if !path.iter().any(|r| r == reference) {
            if let Some(target) = reference.strip_prefix('#').and_then(|p| root.pointer(p)) {
                path.push(reference.to_owned());
                deepest = nesting(target, root, path);
                path.pop();
            }
        }
    }
    for (key, child) in map {
        let children: Vec<&Value> = match key.as_str() {
            "items" => vec![child],
            "anyOf" => child
                .as_array()
                .map(|a| a.iter().collect())
                .unwrap_or_default(),
            "properties" => child
                .as_object()
                .map(|m| m.values().collect())
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        for c in children {
            deepest = deepest.max(nesting(c, root, path));
        }
    }
    own + deepest
}
