//! Reading a JSON Schema document: pointers, local references, the subschemas of a node.

use serde_json::{Map, Value};

/// How deep the walks go before giving up: deeper than any schema a Rust type produces, and
/// a bound on documents built by hand.
pub(crate) const MAX_DEPTH: usize = 64;

/// `pointer` followed by one RFC 6901 segment.
pub(crate) fn child(pointer: &str, segment: &str) -> String {
    let mut out = String::with_capacity(pointer.len() + segment.len() + 1);
    out.push_str(pointer);
    out.push('/');
    for c in segment.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
    out
}

/// The definition name in `#/$defs/Name` (or `#/definitions/Name`).
pub(crate) fn def_name(reference: &str) -> Option<&str> {
    reference
        .strip_prefix("#/$defs/")
        .or_else(|| reference.strip_prefix("#/definitions/"))
}

/// What a local reference (`#`, `#/$defs/Name`, any `#/...` pointer) points at.
pub(crate) fn resolve<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
    let pointer = reference.strip_prefix('#')?;
    root.pointer(pointer)
}

/// The subschemas directly inside `node`, each with its pointer segment(s).
///
/// Only schema-valued keywords are followed, so a property *named* `properties` or an enum
/// value that looks like a schema is never mistaken for one.
pub(crate) fn subschemas<'a>(
    node: &'a Map<String, Value>,
    pointer: &str,
) -> Vec<(String, &'a Value)> {
    const ONE: [&str; 11] = [
        "items",
        "additionalProperties",
        "not",
        "if",
        "then",
        "else",
        "contains",
        "propertyNames",
        "unevaluatedItems",
        "unevaluatedProperties",
        "additionalItems",
    ];
    const LIST: [&str; 4] = ["anyOf", "oneOf", "allOf", "prefixItems"];
    const MAP: [&str; 5] = [
        "properties",
        "patternProperties",
        "$defs",
        "definitions",
        "dependentSchemas",
    ];
    let mut out = Vec::new();
    for (key, value) in node {
        let key = key.as_str();
        if ONE.contains(&key) {
            match value {
                // Draft-04 tuple form of `items`.
                Value::Array(list) if key == "items" => {
                    for (i, s) in list.iter().enumerate() {
                        out.push((child(&child(pointer, key), &i.to_string()), s));
                    }
                }
                _ => out.push((child(pointer, key), value)),
            }
        } else if LIST.contains(&key) {
            for (i, s) in value.as_array().into_iter().flatten().enumerate() {
                out.push((child(&child(pointer, key), &i.to_string()), s));
            }
        } else if MAP.contains(&key) {
            for (name, s) in value.as_object().into_iter().flatten() {
                out.push((child(&child(pointer, key), name), s));
            }
        }
    }
    out
}

/// Whether `schema` accepts `null`, following local references.
pub(crate) fn accepts_null(schema: &Value, root: &Value) -> bool {
    accepts_null_at(schema, root, 0)
}

fn accepts_null_at(schema: &Value, root: &Value, depth: usize) -> bool {
    let Some(map) = schema.as_object() else {
        return schema.as_bool().unwrap_or(false);
    };
    if depth > MAX_DEPTH {
        return false;
    }
    let typed_null = match map.get("type") {
        Some(Value::String(t)) => t == "null",
        Some(Value::Array(types)) => types.iter().any(|t| t == "null"),
        _ => false,
    };
    let listed_null = map
        .get("enum")
        .and_then(Value::as_array)
        .is_some_and(|values| values.contains(&Value::Null))
        || map.get("const") == Some(&Value::Null);
    let branch_null = ["anyOf", "oneOf"].iter().any(|k| {
        map.get(*k)
            .and_then(Value::as_array)
            .is_some_and(|bs| bs.iter().any(|b| accepts_null_at(b, root, depth + 1)))
    });
    let via_ref = map
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| resolve(root, r))
        .is_some_and(|target| accepts_null_at(target, root, depth + 1));
    typed_null || listed_null || branch_null || via_ref
}

/// The `type` keyword as a list (`"string"` and `["string"]` alike).
pub(crate) fn types(node: &Map<String, Value>) -> Vec<&str> {
    match node.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(list)) => list.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn pointers_escape_and_references_resolve() {
        assert_eq!(child("/properties", "a/b~c"), "/properties/a~1b~0c");
        let root = json!({"$defs": {"A": {"type": ["string", "null"]}}, "properties": {
            "a": {"$ref": "#/$defs/A"}, "b": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
            "c": {"type": "integer"}, "d": {"enum": ["x", null]}}});
        assert_eq!(def_name("#/$defs/A"), Some("A"));
        let props = &root["properties"];
        for (name, nullable) in [("a", true), ("b", true), ("c", false), ("d", true)] {
            assert_eq!(accepts_null(&props[name], &root), nullable, "{name}");
        }
    }

    #[test]
    fn only_schema_keywords_are_followed() {
        let node = json!({"properties": {"properties": {"type": "string"}}, "enum": [{"type": "x"}],
                          "anyOf": [{"type": "null"}]});
        let found: Vec<String> = subschemas(node.as_object().unwrap(), "")
            .into_iter()
            .map(|(p, _)| p)
            .collect();
        assert_eq!(found, ["/properties/properties", "/anyOf/0"]);
    }
}
