//! A tool's parameters as Ollama reads them.
//!
//! Ollama decodes `parameters` into Go structs (`api/types.go`): `ToolFunctionParameters`
//! keeps `type`, `$defs`, `items`, `required` and `properties`, and each property is a
//! `ToolProperty` of `anyOf`, `type`, `items`, `description`, `enum`, `properties` and
//! `required`. Those structs are what the model's chat template renders; every other keyword
//! is dropped without a word, a `$ref` among them, which would leave its property untyped.
//! So references are inlined (a type that contains itself is inlined once, then named; past
//! [`MAX_NODES`] they are named, and the root's `$defs`, which Ollama keeps, say the rest),
//! `oneOf` becomes `anyOf`, `const` a one-value `enum`, a union of constants an `enum`, and
//! what the structs can't hold but the model can still read (`default`, bounds, `format`,
//! `pattern`, ...) goes into the description, as the Gemini and strict lowerings do.

use crate::export::rewrites;
use crate::export::walk::{def_name, resolve, MAX_DEPTH};
use serde_json::{Map, Value};

/// What a `ToolProperty` holds: kept as they are, or (for the schema-valued ones) reduced.
const KEPT: &[&str] = &["type", "description", "enum", "required"];

/// Names and annotations that tell the model nothing the property's key doesn't.
const SILENT: &[&str] = &[
    "title",
    "$schema",
    "$id",
    "$anchor",
    "$comment",
    "$defs",
    "definitions",
];

/// The most nodes an inlined schema may have: definitions that each use the next twice
/// double with every level, so past this references are named, not copied (as the Gemini
/// lowering bounds its own). Lower than Gemini's 10,000: Ollama renders the schema into the
/// model's prompt, where 2,000 nodes already cost tens of thousands of tokens.
const MAX_NODES: usize = 2_000;

/// The parameters in the shape Ollama keeps: `{"type", "properties", "required"?}` with
/// every property reduced, and `$defs` when a reference was left named.
pub(crate) fn reduce(schema: &Value) -> Value {
    let Some(root) = schema.as_object() else {
        return schema.clone();
    };
    let mut reducer = Reducer {
        root: schema,
        inlining: Vec::new(),
        nodes: 0,
        named: false,
    };
    let mut out = Map::with_capacity(3);
    out.insert(
        "type".into(),
        root.get("type").cloned().unwrap_or_else(|| "object".into()),
    );
    out.insert(
        "properties".into(),
        reducer.properties(root.get("properties"), 0),
    );
    if let Some(required) = root.get("required") {
        out.insert("required".into(), required.clone());
    }
    if reducer.named {
        if let Some(defs) = root.get("$defs") {
            out.insert("$defs".into(), defs.clone());
        }
    }
    Value::Object(out)
}

struct Reducer<'a> {
    root: &'a Value,
    /// The references being inlined, outermost first: one met again is a cycle.
    inlining: Vec<String>,
    /// Nodes written so far.
    nodes: usize,
    /// Whether a reference past the budget was named, so the definitions must go along.
    named: bool,
}

impl Reducer<'_> {
    fn properties(&mut self, properties: Option<&Value>, depth: usize) -> Value {
        let reduced = properties
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .map(|(name, schema)| (name.clone(), self.node(schema, depth + 1)))
            .collect();
        Value::Object(reduced)
    }

    /// One property (or `items`, or an `anyOf` branch) as a `ToolProperty`.
    fn node(&mut self, schema: &Value, depth: usize) -> Value {
        let Some(map) = schema.as_object() else {
            // `true`: anything, which an empty property says too.
            return Value::Object(Map::new());
        };
        if depth > MAX_DEPTH {
            let mut cut = Map::new();
            rewrites::append(&mut cut, "(nested too deep to show)", " ");
            return Value::Object(cut);
        }
        self.nodes += 1;
        let Some(reference) = map.get("$ref").and_then(Value::as_str) else {
            return self.map(map.clone(), depth);
        };
        let root = self.root;
        let target = resolve(root, reference).and_then(Value::as_object);
        if target.is_some() && self.nodes > MAX_NODES {
            self.named = true;
            let mut named = rewrites::copy_except(map, &["$ref"]);
            let name = def_name(reference).unwrap_or(reference);
            rewrites::append(&mut named, &format!("(a {name}, as `$defs` shows)"), " ");
            return self.map(named, depth);
        }
        match target {
            Some(target) if !self.inlining.iter().any(|r| r == reference) => {
                self.inlining.push(reference.to_owned());
                // The reference's siblings (a field's own description) win over the target's.
                let mut merged = target.clone();
                for (key, value) in map.iter().filter(|(key, _)| *key != "$ref") {
                    merged.insert(key.clone(), value.clone());
                }
                let reduced = self.map(merged, depth);
                self.inlining.pop();
                reduced
            }
            found => {
                // A type met inside itself (named: its shape is shown above), or a reference
                // that leads nowhere (named: all there is to say).
                let mut named = rewrites::copy_except(map, &["$ref"]);
                let name = def_name(reference).unwrap_or(reference);
                let note = match found {
                    Some(_) => format!("(a {name}, as above)"),
                    None => format!("(a {name})"),
                };
                rewrites::append(&mut named, &note, " ");
                self.map(named, depth)
            }
        }
    }

    fn map(&mut self, mut map: Map<String, Value>, depth: usize) -> Value {
        rewrites::consts_to_enum(&mut map);
        if let Some(constant) = map.remove("const") {
            map.entry("enum")
                .or_insert_with(|| Value::Array(vec![constant]));
        }
        if let Some(branches) = map.remove("oneOf") {
            map.entry("anyOf").or_insert(branches);
        }
        rewrites::drop_width_bounds(&mut map);
        let mut out = Map::with_capacity(map.len());
        let mut notes = Vec::new();
        for (key, value) in map {
            let reduced = match key.as_str() {
                k if KEPT.contains(&k) => value,
                "anyOf" => Value::Array(
                    value
                        .as_array()
                        .into_iter()
                        .flatten()
                        .map(|branch| self.node(branch, depth + 1))
                        .collect(),
                ),
                "items" => self.node(&value, depth + 1),
                "properties" => self.properties(Some(&value), depth),
                k if SILENT.contains(&k) => continue,
                // A closed object is what the listed properties say already.
                "additionalProperties" if value == Value::Bool(false) => continue,
                _ => {
                    notes.push((key, value));
                    continue;
                }
            };
            out.insert(key, reduced);
        }
        rewrites::into_description(&mut out, &notes);
        Value::Object(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn references_are_inlined_and_what_ollama_drops_is_described() {
        let schema = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Args",
            "type": "object", "additionalProperties": false, "required": ["city", "unit"],
            "properties": {
                "city": {"type": "string", "minLength": 1, "description": "The city."},
                "unit": {"$ref": "#/$defs/Unit", "description": "Which unit."},
                "days": {"type": "integer", "format": "uint32", "minimum": 0, "maximum": 4294967295u64, "default": 3},
                "mode": {"const": "fast"},
                "tags": {"type": ["array", "null"], "items": {"$ref": "#/$defs/Unit"}}
            },
            "$defs": {"Unit": {"oneOf": [
                {"const": "c", "description": "Celsius"},
                {"const": "f", "description": "Fahrenheit"}]}}
        });
        let reduced = reduce(&schema);
        assert_eq!(reduced["type"], "object");
        assert_eq!(reduced["required"], json!(["city", "unit"]));
        let properties = &reduced["properties"];
        assert_eq!(
            properties["city"],
            json!({"type": "string", "description": "The city. (minLength: 1)"})
        );
        assert_eq!(properties["unit"]["enum"], json!(["c", "f"]));
        let unit = properties["unit"]["description"].as_str().unwrap();
        assert!(unit.starts_with("Which unit."), "{unit}");
        assert_eq!(
            properties["days"],
            json!({"type": "integer", "description": "(format: uint32, minimum: 0, default: 3)"})
        );
        assert_eq!(properties["mode"], json!({"enum": ["fast"]}));
        assert_eq!(properties["tags"]["items"]["enum"], json!(["c", "f"]));
        assert!(!reduced.to_string().contains("$ref"));
        assert!(
            reduced.get("$defs").is_none(),
            "every reference was inlined"
        );
        assert!(reduced.get("$defs").is_none() && reduced.get("title").is_none());
    }

    #[test]
    fn definitions_that_double_are_named_past_the_budget_and_go_along() {
        let mut defs = serde_json::Map::new();
        for level in 0..30 {
            let next = format!("#/$defs/D{}", level + 1);
            defs.insert(
                format!("D{level}"),
                json!({"type": "object", "properties": {"a": {"$ref": next}, "b": {"$ref": next}}}),
            );
        }
        defs.insert("D30".into(), json!({"type": "string"}));
        let schema =
            json!({"type": "object", "properties": {"x": {"$ref": "#/$defs/D0"}}, "$defs": defs});
        let reduced = reduce(&schema);
        let text = reduced.to_string();
        assert!(text.len() < 400_000, "{} bytes", text.len());
        assert!(text.contains("as `$defs` shows"));
        assert_eq!(reduced["$defs"], schema["$defs"]);
    }

    #[test]
    fn a_type_that_contains_itself_is_inlined_once_then_named() {
        let schema = json!({"type": "object", "properties": {"root": {"$ref": "#/$defs/Node"}},
            "$defs": {"Node": {"type": "object", "properties": {
                "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
                "broken": {"$ref": "#/$defs/Missing"}}}}});
        let reduced = reduce(&schema);
        let node = &reduced["properties"]["root"];
        assert_eq!(node["type"], "object");
        assert_eq!(
            node["properties"]["children"]["items"],
            json!({"description": "(a Node, as above)"})
        );
        assert_eq!(
            node["properties"]["broken"],
            json!({"description": "(a Missing)"})
        );
    }
}
