//! Every schema `default` checked against the schema it sits in, once, at build.
//!
//! Real schemas (imported MCP tools, OpenAPI-derived tools, benchmark function docs) carry
//! defaults their own schema refuses: `null` on a `string`, `"N/A"` outside the `enum`,
//! `"dontcare"` on an `integer`, `"false"` on a `boolean`. Filling one would make a valid call
//! invalid and blame the model for a value it never sent, so such a default is never filled:
//! the ParamResolver reads a copy of the schema where it is moved aside
//! ([`UNUSABLE_DEFAULT`]), and the registry reports it once as a build note.

use crate::pipeline::resolve::UNUSABLE_DEFAULT;
use crate::pipeline::validate;
use serde_json::{Map, Value};

use super::keywords::{LIST, MAP, ONE};

/// Deeper than this, a schema's defaults are not looked at (the limits stage bounds what a
/// call can reach long before).
const MAX_DEPTH: usize = 64;

/// A default its own schema refuses.
#[derive(Debug)]
pub(crate) struct Unusable {
    /// Where, as a JSON pointer into the schema (`/properties/unit/default`).
    pub pointer: String,
    /// The default.
    pub default: Value,
    /// What the schema says about it.
    pub reason: String,
}

/// The defaults `schema` refuses, and (when there are any) the copy of `schema` the
/// ParamResolver reads, with each of them moved to [`UNUSABLE_DEFAULT`].
pub(crate) fn check(schema: &Value) -> (Vec<Unusable>, Option<Value>) {
    let mut found = Vec::new();
    let mut pointer = String::new();
    let defs = definitions(schema);
    find(schema, &defs, &mut pointer, &mut found, 0);
    if found.is_empty() {
        return (found, None);
    }
    let mut copy = schema.clone();
    for unusable in &found {
        let at = unusable.pointer.trim_end_matches("/default");
        if let Some(Value::Object(node)) = copy.pointer_mut(at) {
            if let Some(default) = node.remove("default") {
                node.insert(UNUSABLE_DEFAULT.to_owned(), default);
            }
        }
    }
    (found, Some(copy))
}

/// The root's definitions, which a subschema's `$ref`s point into.
fn definitions(root: &Value) -> Map<String, Value> {
    let mut defs = Map::new();
    for key in ["$defs", "definitions"] {
        if let Some(value) = root.get(key) {
            defs.insert(key.to_owned(), value.clone());
        }
    }
    defs
}

fn find(
    node: &Value,
    defs: &Map<String, Value>,
    pointer: &mut String,
    found: &mut Vec<Unusable>,
    depth: usize,
) {
    let Value::Object(map) = node else {
        return;
    };
    if depth > MAX_DEPTH {
        return;
    }
    if let Some(default) = map.get("default") {
        if let Some(reason) = refusal(map, defs, default) {
            found.push(Unusable {
                pointer: format!("{pointer}/default"),
                default: default.clone(),
                reason,
            });
        }
    }
    for (key, value) in map {
        let len = pointer.len();
        push(pointer, key);
        match value {
            Value::Object(_) if ONE.contains(&key.as_str()) => {
                find(value, defs, pointer, found, depth + 1);
            }
            Value::Array(items) if LIST.contains(&key.as_str()) => {
                for (i, item) in items.iter().enumerate() {
                    let len = pointer.len();
                    push(pointer, &i.to_string());
                    find(item, defs, pointer, found, depth + 1);
                    pointer.truncate(len);
                }
            }
            Value::Object(entries) if MAP.contains(&key.as_str()) => {
                for (name, item) in entries {
                    let len = pointer.len();
                    push(pointer, name);
                    find(item, defs, pointer, found, depth + 1);
                    pointer.truncate(len);
                }
            }
            _ => {}
        }
        pointer.truncate(len);
    }
}

/// Why the schema `node` refuses `default`, or `None` when it accepts it (or can't be
/// compiled on its own: the registry's own check of the whole schema reports that).
fn refusal(
    node: &Map<String, Value>,
    defs: &Map<String, Value>,
    default: &Value,
) -> Option<String> {
    let mut subschema = node.clone();
    for (key, value) in defs {
        subschema
            .entry(key.clone())
            .or_insert_with(|| value.clone());
    }
    let validator = validate::compile(&Value::Object(subschema)).ok()?;
    validator
        .validate(default)
        .err()
        .map(|error| error.to_string())
}

/// Appends `key` to a JSON pointer, escaped.
fn push(pointer: &mut String, key: &str) {
    pointer.push('/');
    pointer.push_str(&key.replace('~', "~0").replace('/', "~1"));
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pointers(schema: &Value) -> Vec<String> {
        check(schema).0.into_iter().map(|u| u.pointer).collect()
    }

    #[test]
    fn defaults_their_schema_refuses_are_found_wherever_they_sit() {
        let schema = json!({
            "type": "object",
            "properties": {
                "name": {"type": "string", "default": null},
                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "default": "N/A"},
                "fine": {"type": "integer", "default": 3},
                "choice": {"anyOf": [
                    {"type": "integer", "default": "dontcare"},
                    {"type": "boolean", "default": true}
                ]},
                "mode": {"$ref": "#/$defs/Mode", "default": "off"},
                "nested": {"type": "object", "properties": {"flag": {"type": "boolean", "default": "false"}}}
            },
            "$defs": {"Mode": {"enum": ["fast", "slow"]}, "Depth": {"type": "integer", "minimum": 1, "default": 0}}
        });
        assert_eq!(
            pointers(&schema),
            [
                "/properties/name/default",
                "/properties/unit/default",
                "/properties/choice/anyOf/0/default",
                "/properties/mode/default",
                "/properties/nested/properties/flag/default",
                "/$defs/Depth/default",
            ]
        );
        let (_, copy) = check(&schema);
        let copy = copy.unwrap();
        assert!(copy["properties"]["unit"].get("default").is_none());
        assert_eq!(copy["properties"]["unit"][UNUSABLE_DEFAULT], "N/A");
        assert_eq!(copy["properties"]["fine"]["default"], 3);
    }

    #[test]
    fn a_property_named_default_is_not_a_default() {
        let schema = json!({
            "type": "object",
            "properties": {"default": {"type": "string"}, "x": {"type": "string", "default": "ok"}}
        });
        assert!(check(&schema).0.is_empty());
        assert!(check(&schema).1.is_none());
    }
}
