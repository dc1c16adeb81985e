//! What every checker needs: a walk over the schema nodes of a document, and the independent
//! JSON Schema meta-validator.

use serde_json::{Map, Value};

/// One schema object in a document, with its JSON pointer.
pub struct Node<'a> {
    pub pointer: String,
    pub schema: &'a Map<String, Value>,
}

/// Every schema object in `root` (definitions included, references not followed).
pub fn nodes(root: &Value) -> Vec<Node<'_>> {
    let mut out = Vec::new();
    collect(root, String::new(), &mut out);
    out
}

fn collect<'a>(value: &'a Value, pointer: String, out: &mut Vec<Node<'a>>) {
    let Some(map) = value.as_object() else {
        return;
    };
    for (key, child) in map {
        let here = format!("{pointer}/{}", escape(key));
        match key.as_str() {
            "items"
            | "additionalProperties"
            | "not"
            | "if"
            | "then"
            | "else"
            | "contains"
            | "propertyNames"
            | "unevaluatedItems"
            | "unevaluatedProperties" => collect(child, here, out),
            "anyOf" | "oneOf" | "allOf" | "prefixItems" => {
                for (i, branch) in child.as_array().into_iter().flatten().enumerate() {
                    collect(branch, format!("{here}/{i}"), out);
                }
            }
            "properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas" => {
                for (name, sub) in child.as_object().into_iter().flatten() {
                    collect(sub, format!("{here}/{}", escape(name)), out);
                }
            }
            _ => {}
        }
    }
    out.push(Node {
        pointer,
        schema: map,
    });
}

fn escape(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

/// Whether `name` is 1 to `max` characters, each allowed by `allowed`.
pub fn name_ok(name: &str, max: usize, allowed: impl Fn(char) -> bool) -> bool {
    !name.is_empty() && name.chars().count() <= max && name.chars().all(allowed)
}

/// The `type` keyword as a list.
pub fn types(schema: &Map<String, Value>) -> Vec<&str> {
    match schema.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(list)) => list.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// A violation if `schema` is not valid JSON Schema (draft 2020-12 unless it says otherwise),
/// by the independent `jsonschema` crate.
pub fn meta_valid(tool: &str, what: &str, schema: &Value, out: &mut Vec<String>) {
    if let Err(e) = jsonschema::meta::validate(schema) {
        out.push(format!("{tool} {what}: not valid JSON Schema: {e}"));
    }
}

/// A violation if a `$ref` in `schema` points at nothing: compiling a validator with the
/// independent `jsonschema` crate resolves every reference. A strict schema is the exporter's
/// own rewrite of one that compiled, so a reference it breaks shows here; a provider would
/// refuse the request.
pub fn refs_resolve(tool: &str, what: &str, schema: &Value, out: &mut Vec<String>) {
    if let Err(e) = jsonschema::validator_for(schema) {
        out.push(format!(
            "{tool} {what}: does not compile (a reference to nothing?): {e}"
        ));
    }
}

/// The keys of an object that are not in `allowed`.
pub fn unknown_keys<'a>(map: &'a Map<String, Value>, allowed: &[&str]) -> Vec<&'a str> {
    map.keys()
        .map(String::as_str)
        .filter(|k| !allowed.contains(k))
        .collect()
}
