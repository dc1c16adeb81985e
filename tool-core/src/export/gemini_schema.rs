//! A tool's JSON Schema reduced to the OpenAPI 3.0 subset Gemini's
//! `FunctionDeclaration.parameters` (and `.response`, for its output) takes.
//!
//! The subset, per the `Schema` type of the Gemini API (ai.google.dev/api/caching#Schema;
//! googleapis js-genai `types.ts` `Schema`): `type` (`STRING`, `NUMBER`, `INTEGER`, `BOOLEAN`,
//! `ARRAY`, `OBJECT`), `format` ("for NUMBER type: float, double; for INTEGER type: int32,
//! int64; for STRING type: enum, date-time"), `description`, `nullable`, `enum` (strings:
//! "{type:INTEGER, format:enum, enum:["101", "201", "301"]}"), `items`, `minItems`,
//! `maxItems`, `properties`, `required`, `minProperties`, `maxProperties`, `minLength`,
//! `maxLength`, `pattern`, `minimum`, `maximum`, `anyOf`. Nothing else: no `$ref`/`$defs`, no
//! `oneOf`/`allOf`, no `const`, no `additionalProperties`, no type arrays.
//!
//! So references are inlined (a type that contains itself can't be), `null` in a type or a
//! union becomes `nullable: true`, constants become one-value enums, unions of constants
//! become enums, and what the subset can't say but the model can read (`default`, exclusive
//! bounds, formats Gemini rejects, `uniqueItems`) goes into the description. An OBJECT must
//! list properties: the API answers "properties: should be non-empty for OBJECT type"
//! otherwise, which rules out maps.

use super::issues::{StrictIssue, StrictIssueKind};
use super::keys::Keys;
use super::rewrites;
use super::walk::{child, def_name, map_accepts_null, resolve, types, MAX_DEPTH};
use serde_json::{Map, Value};
use std::borrow::Cow;

/// Keywords that change what is valid and that the subset can't express.
const STRUCTURAL: &[&str] = &[
    "not",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "prefixItems",
    "propertyNames",
    "patternProperties",
    "unevaluatedItems",
    "unevaluatedProperties",
    "additionalItems",
    "contains",
    "$dynamicRef",
    "$recursiveRef",
];

/// The reduced parameters: `Ok(None)` for a tool without parameters (the declaration then
/// leaves `parameters` out, as the API asks), or the reasons the subset can't express them.
pub(crate) fn reduce(schema: &Value) -> Result<Option<Value>, Vec<StrictIssue>> {
    let no_properties = schema
        .key("properties")
        .and_then(Value::as_object)
        .is_some_and(Map::is_empty);
    let closed = schema.key("additionalProperties") == Some(&Value::Bool(false));
    if no_properties && closed {
        return Ok(None);
    }
    reduce_output(schema).map(Some)
}

/// Any schema reduced to the subset: the parameters' (above), or a tool's output for
/// `FunctionDeclaration.response`, the same `Schema` type with any type at the root. The
/// reasons the subset can't express it otherwise.
pub(crate) fn reduce_output(schema: &Value) -> Result<Value, Vec<StrictIssue>> {
    let mut reducer = Reducer {
        root: schema,
        stack: Vec::new(),
        issues: Vec::new(),
        nodes: 0,
    };
    // Definitions are inlined where they are used; the output is built from the keywords
    // the subset has, so the root's `$defs` stay behind without being removed.
    let reduced = reducer.node(schema, "", 0);
    if reducer.issues.is_empty() {
        Ok(reduced)
    } else {
        Err(reducer.issues)
    }
}

/// `key`'s value, removed from the node (copying the node first if it is borrowed), when the
/// node has one.
fn taken(map: &mut Cow<'_, Map<String, Value>>, key: &str) -> Option<Value> {
    if map.has(key) {
        map.to_mut().remove_key(key)
    } else {
        None
    }
}

struct Reducer<'a> {
    root: &'a Value,
    /// The definitions being inlined, innermost last: a reference to one of them is a cycle.
    stack: Vec<String>,
    issues: Vec<StrictIssue>,
    /// Nodes written so far: inlining can multiply a small schema (definitions that each use
    /// the next twice double with every level), so past [`MAX_NODES`] the tool goes out as
    /// `parametersJsonSchema`, references and all, instead.
    nodes: usize,
}

/// The most schema nodes an inlined Gemini schema may have: far past any real tool's, and a
/// bound on the work and memory one export costs.
const MAX_NODES: usize = 10_000;

impl Reducer<'_> {
    fn issue(&mut self, pointer: &str, kind: StrictIssueKind) {
        self.issues.push(StrictIssue::new(pointer, kind));
    }

    fn node(&mut self, value: &Value, ptr: &str, depth: usize) -> Value {
        let Some(source) = value.as_object() else {
            self.issue(ptr, StrictIssueKind::AnyValue);
            return Value::Object(Map::new());
        };
        self.reduce(Cow::Borrowed(source), ptr, depth)
    }

    /// A node, reduced. The output is built fresh, so the node is only read, and copied
    /// only where a keyword must change before it is read (a reference, a union, a default).
    fn reduce(&mut self, mut map: Cow<'_, Map<String, Value>>, ptr: &str, depth: usize) -> Value {
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            if self.nodes == MAX_NODES + 1 {
                self.issue(
                    ptr,
                    StrictIssueKind::Unsupported(format!(
                        "references that inline to more than {MAX_NODES} nodes"
                    )),
                );
            }
            return Value::Object(Map::new());
        }
        if depth > MAX_DEPTH {
            self.issue(ptr, StrictIssueKind::Unsupported("nesting".into()));
            return Value::Object(Map::new());
        }
        if map.has("$ref") {
            let mut map = map.into_owned();
            if let Some(reference) = map
                .shift_remove("$ref")
                .and_then(|r| r.as_str().map(str::to_owned))
            {
                return self.inline(&reference, map, ptr, depth);
            }
            return self.reduce(Cow::Owned(map), ptr, depth);
        }
        if let Some(all_of) = taken(&mut map, "allOf") {
            match all_of.as_array().map(Vec::as_slice) {
                Some([single]) => return self.merge(single, map.into_owned(), ptr, depth),
                _ => self.issue(
                    &child(ptr, "allOf"),
                    StrictIssueKind::Unsupported("allOf".into()),
                ),
            }
        }
        if map.has("oneOf") || map.has("anyOf") {
            // A unit enum's constants are folded as the node is copied, not copied first.
            let mut map = match rewrites::consts_to_enum_copy(&map) {
                Some(folded) => folded,
                None => map.into_owned(),
            };
            if let Some(one_of) = map.remove_key("oneOf") {
                map.insert("anyOf".into(), one_of);
            }
            if map.has("anyOf") {
                return self.union(map, ptr, depth);
            }
            return self.typed(Cow::Owned(map), ptr, depth);
        }
        for key in STRUCTURAL {
            if map.has(key) {
                let kind = if *key == "patternProperties" || *key == "unevaluatedProperties" {
                    StrictIssueKind::OpenObject
                } else {
                    StrictIssueKind::Unsupported((*key).into())
                };
                if !(*key == "unevaluatedProperties" && map[*key] == Value::Bool(false)) {
                    self.issue(&child(ptr, key), kind);
                }
            }
        }
        self.typed(map, ptr, depth)
    }

    /// A reference, inlined: the definition with the referring node's own keywords on top.
    fn inline(
        &mut self,
        reference: &str,
        siblings: Map<String, Value>,
        ptr: &str,
        depth: usize,
    ) -> Value {
        let name = def_name(reference).unwrap_or(reference).to_owned();
        if self.stack.contains(&name) {
            self.issue(ptr, StrictIssueKind::Recursive(name));
            return Value::Object(Map::new());
        }
        let Some(target) = resolve(self.root, reference) else {
            self.issue(ptr, StrictIssueKind::Unsupported("$ref".into()));
            return Value::Object(Map::new());
        };
        self.stack.push(name);
        let out = self.merge(target, siblings, ptr, depth);
        self.stack.pop();
        out
    }

    /// `base` with `overrides`' keywords replacing its own, reduced.
    fn merge(
        &mut self,
        base: &Value,
        overrides: Map<String, Value>,
        ptr: &str,
        depth: usize,
    ) -> Value {
        let base = base.as_object();
        // A referenced unit enum is folded as it is merged: its branches are never copied.
        if let Some(folded) = base.and_then(|b| rewrites::consts_to_enum_merged(b, &overrides)) {
            return self.reduce(Cow::Owned(folded), ptr, depth + 1);
        }
        let mut merged = base.cloned().unwrap_or_default();
        merged.remove_key("title");
        for (key, value) in overrides {
            merged.insert(key, value);
        }
        self.reduce(Cow::Owned(merged), ptr, depth + 1)
    }

    /// `anyOf`: `null` branches become `nullable`, a single remaining branch is merged into
    /// the node, several stay an `anyOf`.
    fn union(&mut self, mut map: Map<String, Value>, ptr: &str, depth: usize) -> Value {
        let branches = match map.remove_key("anyOf") {
            Some(Value::Array(b)) => b,
            _ => Vec::new(),
        };
        let is_null = |b: &Value| b.key("type").and_then(Value::as_str) == Some("null");
        let nullable = branches.iter().any(is_null);
        let rest: Vec<&Value> = branches.iter().filter(|b| !is_null(b)).collect();
        let at = child(ptr, "anyOf");
        let mut out = match rest.as_slice() {
            [] => {
                self.issue(ptr, StrictIssueKind::AnyValue);
                Map::new()
            }
            [single] => {
                let index = branches
                    .iter()
                    .position(|b| std::ptr::eq(b, *single))
                    .unwrap_or(0);
                let keep: Map<String, Value> = map
                    .iter()
                    .filter(|(k, _)| matches!(k.as_str(), "description" | "default"))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                match self.merge(single, keep, &child(&at, &index.to_string()), depth) {
                    Value::Object(m) => m,
                    _ => Map::new(),
                }
            }
            several => {
                let mut reduced = Vec::new();
                for (i, branch) in several.iter().enumerate() {
                    reduced.push(self.node(branch, &child(&at, &i.to_string()), depth + 1));
                }
                let mut out = Map::new();
                let mut notes = Vec::new();
                rewrites::take(&mut map, "default", &mut notes);
                if let Some(d) = map.key("description") {
                    out.insert("description".into(), d.clone());
                }
                rewrites::into_description(&mut out, &notes);
                out.insert("anyOf".into(), Value::Array(reduced));
                out
            }
        };
        if nullable {
            out.insert("nullable".into(), Value::Bool(true));
        }
        Value::Object(out)
    }

    /// A node with a type (or an enum to infer one from), in the subset's own keywords.
    fn typed(&mut self, mut map: Cow<'_, Map<String, Value>>, ptr: &str, depth: usize) -> Value {
        let mut notes = Vec::new();
        if map.has("default") {
            rewrites::take(map.to_mut(), "default", &mut notes);
        }
        if map.has("minimum") || map.has("maximum") {
            rewrites::drop_width_bounds(map.to_mut());
        }
        if let Some(constant) = taken(&mut map, "const") {
            map.to_mut()
                .insert("enum".into(), Value::Array(vec![constant]));
        }
        let mut ts: Vec<String> = types(&map).map(str::to_owned).collect();
        let nullable = ts.iter().any(|t| t == "null") || map_accepts_null(&map, self.root);
        ts.retain(|t| t != "null");
        if ts.is_empty() {
            if let Some(values) = map.key("enum").and_then(Value::as_array) {
                let non_null: Vec<Value> =
                    values.iter().filter(|v| !v.is_null()).cloned().collect();
                if let Some(t) = rewrites::common_type(&non_null) {
                    ts.push(t.to_owned());
                }
            } else if map.has("properties") {
                ts.push("object".into());
            }
        }
        // Sized once: the reduced node has at most the keys of its source, and a map that
        // grows rehashes every key it holds.
        let mut out = Map::with_capacity(map.len() + 1);
        match ts.as_slice() {
            [] => {
                self.issue(ptr, StrictIssueKind::AnyValue);
                return Value::Object(out);
            }
            [one] => {
                out.insert("type".into(), Value::from(one.to_uppercase()));
            }
            several => {
                // `["string", "integer"]`: one branch per type.
                let branches: Vec<Value> = several
                    .iter()
                    .map(|t| {
                        let mut single = map.clone().into_owned();
                        single.insert("type".into(), Value::from(t.as_str()));
                        single
                    })
                    .enumerate()
                    .map(|(i, m)| {
                        let at = child(&child(ptr, "type"), &i.to_string());
                        self.typed(Cow::Owned(m), &at, depth + 1)
                    })
                    .collect();
                if let Some(d) = map.key("description") {
                    out.insert("description".into(), d.clone());
                }
                out.insert("anyOf".into(), Value::Array(branches));
                if nullable {
                    out.insert("nullable".into(), Value::Bool(true));
                }
                return Value::Object(out);
            }
        }
        let kind = ts[0].as_str();
        if let Some(d) = map.key("description") {
            out.insert("description".into(), d.clone());
        }
        if nullable {
            out.insert("nullable".into(), Value::Bool(true));
        }
        self.format(&map, kind, &mut out, &mut notes);
        if let Some(values) = map.key("enum").and_then(Value::as_array) {
            if values.iter().any(|v| v.is_object() || v.is_array()) {
                self.issue(&child(ptr, "enum"), StrictIssueKind::ComplexEnum);
            }
            let strings: Vec<Value> = values
                .iter()
                .filter(|v| !v.is_null())
                .map(|v| match v {
                    Value::String(s) => Value::String(s.clone()),
                    other => Value::String(other.to_string()),
                })
                .collect();
            out.insert("enum".into(), Value::Array(strings));
        }
        match kind {
            "object" => self.object(&map, ptr, depth, &mut out),
            "array" => match map.key("items") {
                Some(items) if !items.is_array() => {
                    let reduced = self.node(items, &child(ptr, "items"), depth + 1);
                    out.insert("items".into(), reduced);
                }
                _ => self.issue(
                    &child(ptr, "items"),
                    StrictIssueKind::Unsupported("items".into()),
                ),
            },
            _ => {}
        }
        for key in [
            "minItems",
            "maxItems",
            "minProperties",
            "maxProperties",
            "minLength",
            "maxLength",
            "pattern",
            "minimum",
            "maximum",
        ] {
            if let Some(v) = map.key(key) {
                out.insert(key.into(), v.clone());
            }
        }
        for key in [
            "exclusiveMinimum",
            "exclusiveMaximum",
            "multipleOf",
            "uniqueItems",
        ] {
            if let Some(value) = map.key(key) {
                notes.push((key.to_owned(), value.clone()));
            }
        }
        rewrites::into_description(&mut out, &notes);
        Value::Object(out)
    }

    fn object(
        &mut self,
        map: &Map<String, Value>,
        ptr: &str,
        depth: usize,
        out: &mut Map<String, Value>,
    ) {
        let extra = map.key("additionalProperties");
        if !matches!(extra, None | Some(Value::Bool(false))) {
            self.issue(
                &child(ptr, "additionalProperties"),
                StrictIssueKind::OpenObject,
            );
            return;
        }
        let properties = map.key("properties").and_then(Value::as_object);
        let Some(properties) = properties.filter(|p| !p.is_empty()) else {
            let kind = if properties.is_none() && extra.is_none() {
                StrictIssueKind::OpenObject
            } else {
                StrictIssueKind::Unsupported("an object with no properties".into())
            };
            self.issue(ptr, kind);
            return;
        };
        let at = child(ptr, "properties");
        let mut reduced = Map::with_capacity(properties.len());
        for (name, property) in properties {
            reduced.insert(
                name.clone(),
                self.node(property, &child(&at, name), depth + 1),
            );
        }
        // Gemini takes only names of listed properties in `required`: one that names no
        // property (which only an open object could be given) is left to validation.
        let required: Vec<Value> = map
            .key("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter(|name| name.as_str().is_some_and(|n| reduced.has(n)))
            .cloned()
            .collect();
        out.insert("properties".into(), Value::Object(reduced));
        if !required.is_empty() {
            out.insert("required".into(), Value::Array(required));
        }
    }

    /// Gemini's formats: `float`/`double` for NUMBER, `int32`/`int64` for INTEGER,
    /// `date-time` (and `enum`) for STRING. Other string formats are told in the description;
    /// schemars' Rust-width formats (`uint32`, `uint8`, ...) are dropped, their bounds kept.
    fn format(
        &mut self,
        map: &Map<String, Value>,
        kind: &str,
        out: &mut Map<String, Value>,
        notes: &mut Vec<(String, Value)>,
    ) {
        let Some(format) = map.key("format").and_then(Value::as_str) else {
            return;
        };
        let allowed = match kind {
            "number" => matches!(format, "float" | "double"),
            "integer" => matches!(format, "int32" | "int64"),
            "string" => matches!(format, "date-time" | "enum"),
            _ => false,
        };
        if allowed {
            out.insert("format".into(), Value::from(format));
        } else if kind == "string" {
            notes.push(("format".into(), Value::from(format)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn required_lists_only_listed_properties() {
        let schema = json!({"type": "object", "additionalProperties": false,
            "properties": {"a": {"type": "string"}}, "required": ["a", "que:y"]});
        let reduced = reduce(&schema).unwrap().unwrap();
        assert_eq!(reduced["required"], json!(["a"]));
        let schema = json!({"type": "object", "properties": {"a": {"type": "string"}},
            "required": ["b"]});
        assert!(reduce(&schema).unwrap().unwrap().get("required").is_none());
    }

    #[test]
    fn references_nulls_consts_and_defaults_fit_the_subset() {
        let schema = json!({
            "type": "object", "additionalProperties": false, "required": ["plan"],
            "properties": {
                "limit": {"type": "integer", "format": "uint32", "minimum": 1, "default": 10},
                "note": {"type": ["string", "null"], "format": "email"},
                "plan": {"type": "array", "items": {"$ref": "#/$defs/Step"}},
                "status": {"anyOf": [{"$ref": "#/$defs/Status"}, {"type": "null"}], "description": "Filter."}
            },
            "$defs": {
                "Step": {"type": "object", "additionalProperties": false,
                         "properties": {"n": {"const": 1}}, "required": ["n"]},
                "Status": {"oneOf": [{"const": "todo", "type": "string"}, {"const": "done", "type": "string"}]}
            }
        });
        let reduced = reduce(&schema).unwrap().unwrap();
        assert_eq!(
            reduced,
            json!({
                "type": "OBJECT", "required": ["plan"],
                "properties": {
                    "limit": {"type": "INTEGER", "minimum": 1, "description": "(default: 10)"},
                    "note": {"type": "STRING", "nullable": true, "description": "(format: email)"},
                    "plan": {"type": "ARRAY", "items": {"type": "OBJECT", "required": ["n"],
                             "properties": {"n": {"type": "INTEGER", "enum": ["1"]}}}},
                    "status": {"type": "STRING", "enum": ["todo", "done"], "description": "Filter.",
                               "nullable": true}
                }
            })
        );
    }

    #[test]
    fn maps_and_cycles_can_not_be_expressed() {
        let map = json!({"type": "object", "additionalProperties": false, "properties": {
            "counts": {"type": "object", "additionalProperties": {"type": "integer"}}}});
        let issues = reduce(&map).unwrap_err();
        assert_eq!(issues[0].pointer, "/properties/counts/additionalProperties");
        let cycle = json!({"type": "object", "additionalProperties": false, "properties": {
            "node": {"$ref": "#/$defs/N"}}, "$defs": {"N": {"type": "object", "additionalProperties": false,
            "properties": {"next": {"$ref": "#/$defs/N"}}}}});
        let issues = reduce(&cycle).unwrap_err();
        assert_eq!(issues[0].kind, StrictIssueKind::Recursive("N".into()));
    }

    #[test]
    fn an_output_reduces_by_the_same_rules_whatever_its_root() {
        let list = json!({"type": "array", "items": {"$ref": "#/$defs/Hit"},
            "$defs": {"Hit": {"type": "object", "properties": {
                "path": {"type": "string"}, "line": {"type": "integer", "format": "uint64", "minimum": 0}},
                "required": ["path", "line"]}}});
        assert_eq!(
            reduce_output(&list).unwrap(),
            json!({"type": "ARRAY", "items": {"type": "OBJECT", "required": ["path", "line"],
                "properties": {"path": {"type": "STRING"}, "line": {"type": "INTEGER", "minimum": 0}}}})
        );
        assert_eq!(
            reduce_output(&json!({"type": ["string", "null"]})).unwrap(),
            json!({"type": "STRING", "nullable": true})
        );
        // What the parameters can't say, the output can't either: a map.
        let map = json!({"type": "object", "additionalProperties": {"type": "integer"}});
        assert!(reduce_output(&map).is_err());
        // An object with no properties is no "no output": the subset has no such OBJECT.
        let empty = json!({"type": "object", "properties": {}, "additionalProperties": false});
        assert!(reduce_output(&empty).is_err());
    }

    #[test]
    fn a_tool_without_parameters_has_none() {
        let empty = json!({"type": "object", "properties": {}, "additionalProperties": false});
        assert_eq!(reduce(&empty).unwrap(), None);
    }
}
