//! Older JSON Schema drafts' forms, in JSON Schema 2020-12's words.
//!
//! Tools from outside the program (an MCP server's, an OpenAPI document's) still carry forms
//! the 2020-12 validator refuses or ignores: draft-04 and OpenAPI 3.0's boolean
//! `exclusiveMinimum`/`exclusiveMaximum` beside `minimum`/`maximum`, draft-03's
//! `required: true` on a property, its `divisibleBy`, draft-07's `dependencies`, and OpenAPI
//! 3.0's `nullable`. Each has
//! one meaning in 2020-12, so it is rewritten to it (one line per kind of change, for a note)
//! instead of failing the build or being dropped as unknown.

use serde_json::{Map, Value};

use super::keywords::{LIST, MAP, ONE};

/// Deeper than this a schema is not rewritten: the registry refuses schemas nested past its
/// own limit before this runs, and serde_json parses no deeper than 128 levels.
const MAX_DEPTH: usize = 256;

/// Rewrites the legacy forms in `schema` and everything below it; says what changed, one line
/// per kind of change (none when there was nothing to rewrite).
pub(crate) fn translate(schema: &mut Value) -> Vec<String> {
    let mut changes = Vec::new();
    walk(schema, &mut changes, 0);
    changes
}

fn note(changes: &mut Vec<String>, line: &str) {
    if !changes.iter().any(|c| c == line) {
        changes.push(line.to_owned());
    }
}

fn walk(schema: &mut Value, changes: &mut Vec<String>, depth: usize) {
    let Value::Object(map) = schema else {
        return;
    };
    if depth > MAX_DEPTH {
        return;
    }
    rewrite(map, changes);
    for (key, value) in map.iter_mut() {
        let key = key.as_str();
        match value {
            Value::Object(_) if ONE.contains(&key) => walk(value, changes, depth + 1),
            Value::Array(items) if LIST.contains(&key) => {
                for item in items {
                    walk(item, changes, depth + 1);
                }
            }
            Value::Object(entries) if MAP.contains(&key) => {
                for item in entries.values_mut() {
                    walk(item, changes, depth + 1);
                }
            }
            _ => {}
        }
    }
}

/// The legacy forms of one schema object.
fn rewrite(map: &mut Map<String, Value>, changes: &mut Vec<String>) {
    for (exclusive, bound) in [
        ("exclusiveMinimum", "minimum"),
        ("exclusiveMaximum", "maximum"),
    ] {
        if let Some(Value::Bool(on)) = map.get(exclusive) {
            let on = *on;
            map.remove(exclusive);
            // `true` makes the bound beside it exclusive; `false` (or no bound) says nothing.
            if on {
                if let Some(limit) = map.remove(bound) {
                    map.insert(exclusive.to_owned(), limit);
                }
            }
            note(
                changes,
                "a draft-04 boolean `exclusiveMinimum`/`exclusiveMaximum` became the number form",
            );
        }
    }
    // Draft 3: `required: true` on a property schema. Its parent lists the property instead.
    if let Some(Value::Object(properties)) = map.get_mut("properties") {
        let mut named = Vec::new();
        for (name, property) in properties.iter_mut() {
            // Only a boolean is draft 3's: a nested object's own `required` list stays.
            let draft3 = property.get("required").and_then(Value::as_bool);
            if let Some(required) = draft3 {
                if let Some(p) = property.as_object_mut() {
                    p.remove("required");
                }
                note(
                    changes,
                    "a draft-03 `required: true` on a property moved to its object's `required`",
                );
                if required {
                    named.push(Value::String(name.clone()));
                }
            }
        }
        if !named.is_empty() {
            match map
                .entry("required")
                .or_insert_with(|| Value::Array(Vec::new()))
            {
                Value::Array(list) => {
                    for name in named {
                        if !list.contains(&name) {
                            list.push(name);
                        }
                    }
                }
                other => *other = Value::Array(named),
            }
        }
    }
    // A boolean `required` left here sits on no property (the root, a branch): it says nothing.
    if map.get("required").is_some_and(Value::is_boolean) {
        map.remove("required");
        note(
            changes,
            "a draft-03 `required: true` on a property moved to its object's `required`",
        );
    }
    // OpenAPI 3.0's `nullable: true`: `null` joins the listed type (and the `enum`, which
    // would refuse it otherwise). Without a `type`, `null` is already allowed.
    if let Some(Value::Bool(nullable)) = map.get("nullable") {
        let nullable = *nullable;
        map.remove("nullable");
        if nullable {
            let null = Value::from("null");
            match map.get_mut("type") {
                Some(Value::String(one)) if one != "null" => {
                    let one = Value::String(std::mem::take(one));
                    map.insert("type".into(), Value::Array(vec![one, null.clone()]));
                }
                Some(Value::Array(types)) if !types.contains(&null) => types.push(null.clone()),
                _ => {}
            }
            if let Some(Value::Array(values)) = map.get_mut("enum") {
                if !values.contains(&Value::Null) {
                    values.push(Value::Null);
                }
            }
        }
        note(changes, "OpenAPI 3.0 `nullable` became a `null` type");
    }
    if let Some(divisor) = map.remove("divisibleBy") {
        map.entry("multipleOf").or_insert(divisor);
        note(changes, "draft-03 `divisibleBy` became `multipleOf`");
    }
    if let Some(Value::Object(dependencies)) = map.remove("dependencies") {
        let (mut required, mut schemas) = (Map::new(), Map::new());
        for (name, dependency) in dependencies {
            match dependency {
                names @ Value::Array(_) => {
                    required.insert(name, names);
                }
                // Draft 3 allowed one property name alone.
                Value::String(one) => {
                    required.insert(name, Value::Array(vec![Value::String(one)]));
                }
                schema => {
                    schemas.insert(name, schema);
                }
            }
        }
        for (keyword, entries) in [
            ("dependentRequired", required),
            ("dependentSchemas", schemas),
        ] {
            if entries.is_empty() {
                continue;
            }
            if let Value::Object(existing) = map
                .entry(keyword)
                .or_insert_with(|| Value::Object(Map::new()))
            {
                for (name, value) in entries {
                    existing.entry(name).or_insert(value);
                }
            }
        }
        note(
            changes,
            "draft-07 `dependencies` became `dependentRequired`/`dependentSchemas`",
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn legacy_forms_get_their_2020_12_meaning() {
        let mut schema = json!({
            "type": "object",
            "properties": {
                "price": {"type": "number", "minimum": 0, "exclusiveMinimum": true,
                          "maximum": 100, "exclusiveMaximum": false},
                "name": {"type": "string", "required": true},
                "note": {"type": "string", "required": false},
                "step": {"type": "integer", "divisibleBy": 5},
                "unit": {"type": "string", "enum": ["c", "f"], "nullable": true},
                "card": {"type": "object", "properties": {"n": {"type": "string", "required": true}}}
            },
            "required": ["price"],
            "dependencies": {"card": ["name"], "note": {"required": ["step"]}}
        });
        let changes = translate(&mut schema);
        assert_eq!(
            schema,
            json!({
                "type": "object",
                "properties": {
                    "price": {"type": "number", "maximum": 100, "exclusiveMinimum": 0},
                    "name": {"type": "string"},
                    "note": {"type": "string"},
                    "step": {"type": "integer", "multipleOf": 5},
                    "unit": {"type": ["string", "null"], "enum": ["c", "f", null]},
                    "card": {"type": "object", "properties": {"n": {"type": "string"}}, "required": ["n"]}
                },
                "required": ["price", "name"],
                "dependentRequired": {"card": ["name"]},
                "dependentSchemas": {"note": {"required": ["step"]}}
            })
        );
        assert_eq!(changes.len(), 5, "{changes:?}");
        assert!(
            translate(&mut schema).is_empty(),
            "a second pass has nothing to do"
        );
        assert_eq!(
            schema["properties"]["card"]["required"],
            json!(["n"]),
            "a nested object's own `required` list is not draft 3's and stays"
        );
    }
}
