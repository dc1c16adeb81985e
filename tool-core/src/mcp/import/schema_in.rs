//! A remote tool's input schema, cleaned on the way in so that the registry compiles it and
//! every dialect exports it (the exporters then lower it further, as they do our own).
//!
//! Servers write schemas with whatever their SDK emits: zod's draft-07 `$schema`,
//! `definitions` and `#/definitions/...` references, a root without `type: object`, objects
//! whose `additionalProperties` is a schema. What is changed, and why:
//!
//! - the root becomes an object schema (MCP requires `type: object`; OpenAI and Gemini reject
//!   anything else), with `properties` unless a union or reference says what it holds; a root
//!   that is a `$ref` to one of its definitions (Go's `invopop/jsonschema`) gets that
//!   definition's keywords, so the root itself lists its properties;
//! - `$schema` stays when it names JSON Schema 2020-12, the dialect the registry reads (SEP-1613:
//!   a client keeps it; the exports to model APIs leave it out, and a registry serving the tool
//!   again over MCP sends it on); another draft's marker goes, since its forms are translated
//!   below and the marker would switch the validator's dialect back;
//! - `$anchor` stays where its name is one (SEP-2106: a plain-name fragment a reference may
//!   use); `$id`, `$dynamicAnchor` and `$comment` go: an id changes how references resolve,
//!   and no provider takes them;
//! - `definitions` become `$defs` and their references follow, the one place the exporters
//!   look for definitions; a draft-07 tuple (`items: [..]`, `additionalItems`) becomes
//!   `prefixItems` and `items`, its meaning in 2020-12;
//! - a reference outside the document (`https://...`) becomes `{}` (anything): the validator
//!   never fetches, and a model can't either;
//! - `additionalProperties: {}` (a schema that allows anything) becomes `true`, what it
//!   means, which every exporter understands; a real schema there is kept (a map), and the
//!   strict exporters fall back to non-strict for it, saying why;
//! - older drafts' forms get their 2020-12 meaning (`registry::legacy`): draft-04/OpenAPI 3.0
//!   boolean `exclusiveMinimum`/`exclusiveMaximum`, draft-03 `required: true` on a property and
//!   `divisibleBy`, draft-07 `dependencies` (as `dependentRequired`/`dependentSchemas`),
//!   OpenAPI 3.0 `nullable`;
//! - keywords no JSON Schema draft defines (`x-...` extensions, typos) are dropped, but for
//!   MCP's own `x-mcp-header` (a parameter the client also sends as an HTTP header, protocol
//!   2026-07-28): the registry checks it like any tool's, and a registry serving the tool again
//!   asks its own clients for the same header.
//!
//! A schema still unusable after this (a `$ref` to a definition that isn't there) leaves its
//! tool out of the registry with a note (`BuildNote::ToolLeftOut`), not the whole build.

use serde_json::{Map, Value};

/// Keywords of JSON Schema 2020-12 (and the draft-07 ones still common) that are kept.
const KNOWN: &[&str] = &[
    "type",
    "enum",
    "const",
    "properties",
    "required",
    "additionalProperties",
    "patternProperties",
    "propertyNames",
    "minProperties",
    "maxProperties",
    "dependentRequired",
    "dependentSchemas",
    "items",
    "prefixItems",
    "contains",
    "minContains",
    "maxContains",
    "minItems",
    "maxItems",
    "uniqueItems",
    "unevaluatedItems",
    "unevaluatedProperties",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "contentEncoding",
    "contentMediaType",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "anyOf",
    "oneOf",
    "allOf",
    "not",
    "if",
    "then",
    "else",
    "$ref",
    "$defs",
    "title",
    "description",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
];

/// How JSON Schema 2020-12 names itself in `$schema`: the one dialect marker kept.
const DIALECT: &[&str] = &[
    "https://json-schema.org/draft/2020-12/schema",
    "https://json-schema.org/draft/2020-12/schema#",
];

/// MCP's extensions, kept beside the JSON Schema keywords.
const MCP_EXTENSIONS: &[&str] = &[crate::registry::MCP_HEADER];

/// Keywords whose value is one schema.
const ONE: &[&str] = &[
    "additionalProperties",
    "propertyNames",
    "items",
    "contains",
    "unevaluatedItems",
    "unevaluatedProperties",
    "not",
    "if",
    "then",
    "else",
];
/// Keywords whose value is a list of schemas.
const LIST: &[&str] = &["prefixItems", "anyOf", "oneOf", "allOf"];
/// Keywords whose value maps names to schemas.
const MAP: &[&str] = &[
    "properties",
    "patternProperties",
    "dependentSchemas",
    "$defs",
];

/// The cleaned schema, and one line per kind of change made (none when it was clean).
pub(crate) fn clean(schema: &Value) -> (Value, Vec<String>) {
    let mut changes = Changes::default();
    let mut root = match schema {
        Value::Object(map) => map.clone(),
        Value::Bool(true) => Map::new(),
        other => {
            changes.add(format!(
                "the schema was {other}, not an object schema: any object is accepted"
            ));
            Map::new()
        }
    };
    // Put back once the walk, which keeps no `$schema` below the root, is done.
    let mut dialect = None;
    if let Some(draft) = root.remove("$schema") {
        match draft.as_str() {
            Some(marker) if DIALECT.contains(&marker) => dialect = Some(draft),
            _ => {
                let draft = draft
                    .as_str()
                    .map_or_else(|| draft.to_string(), str::to_owned);
                changes.add(format!(
                    "`$schema` {draft} dropped: the schema is read as JSON Schema 2020-12"
                ));
            }
        }
    }
    if let Some(definitions) = root.remove("definitions") {
        changes.add("`definitions` became `$defs`".to_owned());
        let defs = root
            .entry("$defs")
            .or_insert_with(|| Value::Object(Map::new()));
        if let (Value::Object(defs), Value::Object(definitions)) = (defs, definitions) {
            for (name, definition) in definitions {
                defs.entry(name).or_insert(definition);
            }
        }
    }
    inline_root_reference(&mut root, &mut changes);
    match root.get("type") {
        Some(Value::String(t)) if t == "object" => {}
        None => {
            changes.add("`type: object` added at the root".to_owned());
            root.insert("type".into(), "object".into());
        }
        Some(other) => {
            changes.add(format!("the root's `type` {other} became `object`"));
            root.insert("type".into(), "object".into());
        }
    }
    // A root that says what it holds only through a union or a reference is left to say it:
    // empty `properties` beside it would read as "no properties" to strict mode.
    if !["$ref", "anyOf", "oneOf", "allOf"]
        .iter()
        .any(|k| root.contains_key(*k))
    {
        root.entry("properties")
            .or_insert_with(|| Value::Object(Map::new()));
    }
    let mut root = Value::Object(root);
    // Older drafts' forms first: `walk` would drop `dependencies` and `divisibleBy` as unknown.
    for line in crate::registry::legacy::translate(&mut root) {
        changes.add(line);
    }
    walk(&mut root, &mut changes);
    if let (Some(dialect), Value::Object(map)) = (dialect, &mut root) {
        map.insert("$schema".into(), dialect);
    }
    (root, changes.lines)
}

/// A root that is a reference to one of its definitions (Go's `invopop/jsonschema` writes
/// these) gets the definition's keywords, so the root itself says it is an object and what it
/// holds. Its own keywords win; the definition stays, for references inside it.
fn inline_root_reference(root: &mut Map<String, Value>, changes: &mut Changes) {
    let Some(Value::String(reference)) = root.get("$ref") else {
        return;
    };
    let name = reference
        .strip_prefix("#/$defs/")
        .or_else(|| reference.strip_prefix("#/definitions/"))
        .filter(|name| !name.contains(['/', '~', '%']));
    let Some(Value::Object(definition)) = name.and_then(|n| root.get("$defs")?.get(n)) else {
        return;
    };
    let (definition, reference) = (definition.clone(), reference.clone());
    root.remove("$ref");
    for (key, value) in definition {
        root.entry(key).or_insert(value);
    }
    changes.add(format!("the root's `$ref` to `{reference}` was inlined"));
}

#[derive(Default)]
struct Changes {
    lines: Vec<String>,
}

impl Changes {
    fn add(&mut self, line: String) {
        if !self.lines.contains(&line) {
            self.lines.push(line);
        }
    }
}

/// Whether `name` is a plain-name fragment, as 2020-12 defines `$anchor`'s value (a letter or
/// `_`, then letters, digits, `-`, `_` and `.`): one that isn't would fail the validator.
fn is_anchor(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// Cleans one schema and everything below it.
fn walk(schema: &mut Value, changes: &mut Changes) {
    let Value::Object(map) = schema else {
        return;
    };
    // Draft 7's tuple (`items: [..]`, then `additionalItems`) in 2020-12's words: the schema
    // is read as 2020-12 once its `$schema` is gone, where `items` must be one schema.
    if map.get("items").is_some_and(Value::is_array) {
        let tuple = map.remove("items").unwrap_or_default();
        map.insert("prefixItems".into(), tuple);
        if let Some(rest) = map.remove("additionalItems") {
            map.insert("items".into(), rest);
        }
        changes.add("a draft-07 tuple (`items: [..]`) became `prefixItems`".to_owned());
    }
    let unknown: Vec<String> = map
        .iter()
        .filter(|(k, v)| {
            let kept = KNOWN.contains(&k.as_str())
                || MCP_EXTENSIONS.contains(&k.as_str())
                || (k.as_str() == "$anchor" && v.as_str().is_some_and(is_anchor));
            !kept
        })
        .map(|(k, _)| k.clone())
        .collect();
    for key in unknown {
        map.remove(&key);
        if matches!(
            key.as_str(),
            "$schema" | "$id" | "$anchor" | "$dynamicAnchor" | "$comment"
        ) {
            changes.add(format!("`{key}` dropped"));
        } else {
            changes.add(format!("unknown keyword `{key}` dropped"));
        }
    }
    if let Some(Value::String(reference)) = map.get_mut("$ref") {
        if let Some(name) = reference.strip_prefix("#/definitions/") {
            *reference = format!("#/$defs/{name}");
        } else if !reference.starts_with('#') {
            changes.add(format!("the outside reference `{reference}` became `{{}}`"));
            map.remove("$ref");
        }
    }
    if map
        .get("additionalProperties")
        .is_some_and(|v| v.as_object().is_some_and(Map::is_empty))
    {
        map.insert("additionalProperties".into(), Value::Bool(true));
    }
    for (key, value) in map.iter_mut() {
        let key = key.as_str();
        if ONE.contains(&key) {
            walk(value, changes);
        } else if LIST.contains(&key) {
            for branch in value.as_array_mut().into_iter().flatten() {
                walk(branch, changes);
            }
        } else if MAP.contains(&key) {
            for sub in value
                .as_object_mut()
                .into_iter()
                .flat_map(|m| m.values_mut())
            {
                walk(sub, changes);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_zod_draft7_schema_comes_in_clean() {
        let zod = json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "properties": {
                "point": {"$ref": "#/definitions/Point"},
                "tags": {"type": "object", "additionalProperties": {}},
                "x-internal": {"type": "string", "x-vendor": true}
            },
            "definitions": {"Point": {"type": "object", "properties": {"x": {"type": "number"}}}},
            "additionalProperties": false
        });
        let (schema, changes) = clean(&zod);
        assert_eq!(
            schema,
            json!({
                "type": "object",
                "properties": {
                    "point": {"$ref": "#/$defs/Point"},
                    "tags": {"type": "object", "additionalProperties": true},
                    "x-internal": {"type": "string"}
                },
                "$defs": {"Point": {"type": "object", "properties": {"x": {"type": "number"}}}},
                "additionalProperties": false
            })
        );
        assert_eq!(
            changes,
            [
                "`$schema` http://json-schema.org/draft-07/schema# dropped: the schema is read as JSON Schema 2020-12",
                "`definitions` became `$defs`",
                "unknown keyword `x-vendor` dropped"
            ]
        );
    }

    #[test]
    fn mcp_headers_are_kept_with_the_schema() {
        let schema = json!({"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region", "x-vendor": 1}
        }});
        let (cleaned, changes) = clean(&schema);
        assert_eq!(
            cleaned["properties"]["region"],
            json!({"type": "string", "x-mcp-header": "Region"})
        );
        assert_eq!(changes, ["unknown keyword `x-vendor` dropped"]);
    }

    #[test]
    fn the_root_becomes_an_object_schema() {
        let (schema, changes) = clean(&json!({"properties": {"a": {"type": "string"}}}));
        assert_eq!(schema["type"], "object");
        assert_eq!(changes, ["`type: object` added at the root"]);
        let (schema, _) = clean(&json!(true));
        assert_eq!(schema, json!({"type": "object", "properties": {}}));
        let (schema, _) = clean(&json!("nonsense"));
        assert_eq!(schema, json!({"type": "object", "properties": {}}));
    }

    #[test]
    fn outside_references_are_dropped_and_said() {
        let (schema, changes) = clean(
            &json!({"type": "object", "properties": {"a": {"$ref": "https://example.com/a.json"}}}),
        );
        assert_eq!(schema["properties"]["a"], json!({}));
        assert_eq!(changes.len(), 1);
    }

    #[test]
    fn legacy_forms_are_rewritten_not_dropped() {
        // An OpenAPI 3.0-derived tool (boolean `exclusiveMinimum`), a draft-03 `required: true`
        // and draft-07 `dependencies`: before, the first two failed the whole registry build
        // and `dependencies` was dropped as unknown.
        let (schema, changes) = clean(&json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "properties": {
                "page": {"type": "integer", "minimum": 0, "exclusiveMinimum": true},
                "name": {"type": "string", "required": true},
                "card": {"type": "number"}, "address": {"type": "string"}
            },
            "dependencies": {"card": ["address"]}
        }));
        assert_eq!(
            schema["properties"]["page"],
            json!({"type": "integer", "exclusiveMinimum": 0})
        );
        assert_eq!(schema["required"], json!(["name"]));
        assert_eq!(schema["dependentRequired"], json!({"card": ["address"]}));
        assert!(schema.get("dependencies").is_none());
        assert_eq!(changes.len(), 4, "{changes:?}");
        assert!(crate::pipeline::validate::compile(&schema).is_ok());
    }

    #[test]
    fn the_2020_12_vocabulary_is_kept() {
        let schema = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "$defs": {"address": {"$anchor": "addressDef", "type": "object"},
                      "odd": {"$anchor": "not an anchor", "type": "string"}},
            "properties": {"address": {"$ref": "#/$defs/address"}},
            "allOf": [{"anyOf": [{"required": ["a"]}, {"required": ["b"]}]}],
            "if": {"required": ["a"]}, "then": {"required": ["b"]}, "else": {"required": ["c"]},
            "additionalProperties": false
        });
        let (cleaned, changes) = clean(&schema);
        let mut expected = schema.clone();
        expected["$defs"]["odd"]
            .as_object_mut()
            .unwrap()
            .remove("$anchor");
        assert_eq!(cleaned, expected);
        assert_eq!(changes, ["`$anchor` dropped"]);
        assert!(crate::pipeline::validate::compile(&cleaned).is_ok());
    }

    #[test]
    fn a_clean_schema_is_untouched() {
        let schema = json!({"type": "object", "properties": {"n": {"type": "integer", "minimum": 0}}, "required": ["n"]});
        let (cleaned, changes) = clean(&schema);
        assert_eq!(cleaned, schema);
        assert!(changes.is_empty());
    }
}
