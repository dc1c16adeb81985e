//! Anthropic Messages tools and strict tool use.
//!
//! Sources:
//! - [TP] `anthropic-sdk-python` `types/tool_param.py`: `name`, `description`, `input_schema`
//!   with `type: Required[Literal["object"]]`.
//! - [DT] "Define tools": `name` "Must match the regex `^[a-zA-Z0-9_-]{1,64}$`" (newer pages
//!   allow 128; 64 is what both versions accept).
//! - [ST] "Strict tool use": "Set `"strict": true` as a top-level property in your tool
//!   definition".
//! - [JL] "Structured outputs › JSON Schema limitations" (platform.claude.com/docs/en/
//!   build-with-claude/structured-outputs), shared by strict tool use, quoted at each rule.
//! - [CL] the same page, "Complexity limits", per request across all strict schemas.

use super::common::{meta_valid, name_ok, nodes, refs_resolve, types, unknown_keys};
use serde_json::Value;

/// [JL] "String formats: date-time, time, date, duration, email, hostname, uri, ipv4, ipv6,
/// uuid".
const FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "uri",
    "ipv4",
    "ipv6",
    "uuid",
];

/// [JL] "Not supported: ... Numerical constraints (`minimum`, `maximum`, `multipleOf`, etc.)
/// ... String constraints (`minLength`, `maxLength`) ... Array constraints beyond `minItems`
/// of 0 or 1".
const UNSUPPORTED: &[&str] = &[
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "maxItems",
    "uniqueItems",
    "contains",
    "minContains",
    "maxContains",
];

/// The tool list, and the strict rules on every entry marked strict.
pub fn check(tools: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let Some(list) = tools.as_array() else {
        return vec!["`tools` is not an array [TP]".into()];
    };
    let (mut strict_tools, mut optional, mut unions) = (0, 0, 0);
    for tool in list {
        let Some(entry) = tool.as_object() else {
            out.push("a tool entry is not an object [TP]".into());
            continue;
        };
        let name = entry.get("name").and_then(Value::as_str).unwrap_or("");
        let allowed = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
        if !name_ok(name, 64, allowed) {
            out.push(format!(
                "{name:?}: name breaks ^[a-zA-Z0-9_-]{{1,64}}$ [DT]"
            ));
        }
        for key in unknown_keys(entry, &["name", "description", "input_schema", "strict"]) {
            out.push(format!("{name}: unexpected key `{key}` [TP]"));
        }
        let schema = entry.get("input_schema").unwrap_or(&Value::Null);
        if schema.get("type") != Some(&Value::from("object")) {
            out.push(format!("{name}: input_schema is not type object [TP]"));
        }
        meta_valid(name, "input_schema", schema, &mut out);
        match entry.get("strict") {
            None => {}
            Some(Value::Bool(true)) => {
                strict_tools += 1;
                let (o, u) = check_strict_schema(name, schema, &mut out);
                optional += o;
                unions += u;
            }
            Some(other) => out.push(format!(
                "{name}: strict is {other}, write it only as true [ST]"
            )),
        }
    }
    // [CL] "Maximum number of tools with `strict: true`": 20; "Total optional parameters
    // across all strict tool schemas": 24; "Total parameters that use `anyOf` or type arrays":
    // 16.
    for (what, value, max) in [
        ("strict tools", strict_tools, 20),
        ("optional parameters", optional, 24),
        ("union-typed parameters", unions, 16),
    ] {
        if value > max {
            out.push(format!(
                "the request has {value} {what}, more than {max} [CL]"
            ));
        }
    }
    out
}

/// The [JL] rules on one strict schema; returns its optional and union-typed parameters, as
/// [CL] counts them (through references, so a type used twice counts twice).
pub fn check_strict_schema(tool: &str, schema: &Value, out: &mut Vec<String>) -> (usize, usize) {
    refs_resolve(tool, "strict input_schema", schema, out);
    let mut say = |pointer: &str, rule: &str| out.push(format!("{tool} {pointer}: {rule}"));
    for node in nodes(schema) {
        let (p, s) = (node.pointer.as_str(), node.schema);
        let is_object = types(s).contains(&"object") || s.contains_key("properties");
        // "`additionalProperties` (must be set to `false` for objects)".
        if is_object && s.get("additionalProperties") != Some(&Value::Bool(false)) {
            say(p, "an object without additionalProperties: false [JL]");
        }
        for key in UNSUPPORTED {
            if s.contains_key(*key) {
                say(p, &format!("`{key}` is not supported [JL]"));
            }
        }
        if let Some(n) = s.get("minItems") {
            if n.as_u64().is_none_or(|n| n > 1) {
                say(p, "minItems other than 0 or 1 [JL]");
            }
        }
        if let Some(format) = s.get("format").and_then(Value::as_str) {
            if !FORMATS.contains(&format) {
                say(p, &format!("format {format} is not supported [JL]"));
            }
        }
        // "`enum` (strings, numbers, bools, or nulls only - no complex types)".
        if let Some(values) = s.get("enum").and_then(Value::as_array) {
            if values.iter().any(|v| v.is_object() || v.is_array()) {
                say(p, "an enum with complex values [JL]");
            }
        }
        // "`allOf` with `$ref` not supported"; `oneOf` is in neither list (the SDK rewrites
        // it to `anyOf`).
        if let Some(all) = s.get("allOf").and_then(Value::as_array) {
            if all.iter().any(|b| b.get("$ref").is_some()) {
                say(p, "allOf with $ref [JL]");
            }
        }
        if s.contains_key("oneOf") {
            say(p, "oneOf is not listed as supported [JL]");
        }
        if let Some(reference) = s.get("$ref").and_then(Value::as_str) {
            // "External `$ref`" is not supported.
            if !reference.starts_with('#') {
                say(p, "an external $ref [JL]");
            }
        }
        if let Some(pattern) = s.get("pattern").and_then(Value::as_str) {
            // "NOT supported: Backreferences ... Lookahead/lookbehind ... Word boundaries".
            let bad = ["(?=", "(?!", "(?<=", "(?<!", "\\b", "\\B"]
                .iter()
                .any(|b| pattern.contains(b))
                || (1..=9).any(|d| pattern.contains(&format!("\\{d}")));
            if bad {
                say(p, "a pattern with backreferences, lookaround or \\b [JL]");
            }
        }
    }
    // "Not supported: Recursive schemas".
    if let Some(reference) = cycle(schema, schema, &mut Vec::new()) {
        say("", &format!("recursive through {reference} [JL]"));
    }
    budget(schema, schema, 0)
}

fn cycle(node: &Value, root: &Value, path: &mut Vec<String>) -> Option<String> {
    let map = node.as_object()?;
    if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
        if path.iter().any(|r| r == reference) {
            return Some(reference.to_owned());
        }
        let target = reference.strip_prefix('#').and_then(|p| root.pointer(p))?;
        path.push(reference.to_owned());
        let found = cycle(target, root, path);
        path.pop();
        if found.is_some() {
            return found;
        }
    }
    for (key, child) in map {
        let children: Vec<&Value> = match key.as_str() {
            "items" | "additionalProperties" => vec![child],
            "anyOf" | "oneOf" | "allOf" => child
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
            if let Some(found) = cycle(c, root, path) {
                return Some(found);
            }
        }
    }
    None
}

/// [CL]: "Each parameter not listed in `required` counts"; "parameters that use `anyOf` or
/// type arrays (for example, `"type": ["string", "null"]`)".
fn budget(node: &Value, root: &Value, depth: usize) -> (usize, usize) {
    let Some(map) = node.as_object() else {
        return (0, 0);
    };
    if depth > 32 {
        return (0, 0);
    }
    let mut total = (0, 0);
    let mut add = |(o, u): (usize, usize)| {
        total.0 += o;
        total.1 += u;
    };
    if let Some(target) = map
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix('#'))
        .and_then(|p| root.pointer(p))
    {
        add(budget(target, root, depth + 1));
    }
    if let Some(properties) = map.get("properties").and_then(Value::as_object) {
        let required: Vec<&Value> = map
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().collect())
            .unwrap_or_default();
        for (name, property) in properties {
            let optional = !required.contains(&&Value::from(name.as_str()));
            let union = property.get("anyOf").is_some()
                || property.get("type").is_some_and(Value::is_array);
            add((usize::from(optional), usize::from(union)));
            add(budget(property, root, depth + 1));
        }
    }
    for key in ["items", "anyOf", "allOf"] {
        match map.get(key) {
            Some(Value::Array(branches)) => {
                for b in branches {
                    add(budget(b, root, depth + 1));
                }
            }
            Some(child) if key == "items" => add(budget(child, root, depth + 1)),
            _ => {}
        }
    }
    total
}
