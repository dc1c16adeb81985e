//! Strict-mode lowering: a tool's JSON Schema rewritten into the subset OpenAI's structured
//! outputs and Anthropic's strict tool use accept, or the reasons it can't be.
//!
//! Sources, read 2026 (quoted in `docs/how-tool-calls-work.md`, "Export"):
//! - OpenAI, "Structured Outputs › Supported schemas" (developers.openai.com/api/docs/guides/
//!   structured-outputs): supported types string, number, boolean, integer, object, array,
//!   enum, anyOf; string `pattern` and `format` in {date-time, time, date, duration, email,
//!   hostname, ipv4, ipv6, uuid}; number `multipleOf`, `maximum`, `exclusiveMaximum`,
//!   `minimum`, `exclusiveMinimum`; array `minItems`, `maxItems`; "All fields must be
//!   `required`" with optional emulated by "a union type with `null`"; "`additionalProperties:
//!   false` must always be set in objects"; root "must be an object, and not use `anyOf`";
//!   unsupported: `allOf`, `not`, `dependentRequired`, `dependentSchemas`, `if`, `then`, `else`.
//!   `default` is refused in strict mode (pydantic-ai `profiles/openai.py`: "the "default"
//!   keyword is not allowed in strict mode"), and `$ref` takes no siblings (same file: "OpenAI
//!   Strict mode doesn't support siblings to "$ref", but _does_ allow siblings to "anyOf"").
//! - Anthropic, "Structured outputs › JSON Schema limitations" (platform.claude.com/docs/en/
//!   build-with-claude/structured-outputs), shared by strict tool use: supported `enum` of
//!   primitives, `const`, `anyOf`, `allOf` (not with `$ref`), local `$ref`/`$defs`, `default`,
//!   `required`, `additionalProperties` "must be set to `false` for objects", string formats
//!   {date-time, time, date, duration, email, hostname, uri, ipv4, ipv6, uuid}, `minItems` of 0
//!   or 1; not supported: recursive schemas, numerical constraints, `minLength`/`maxLength`,
//!   other array constraints, regex backreferences, lookaround and `\b`. Unlike OpenAI,
//!   optional parameters are allowed. The official SDK (`anthropic-sdk-python`
//!   `lib/_parse/_transform.py`) likewise turns `oneOf` into `anyOf` and moves what it drops
//!   into the description.
//!
//! What a provider can't take as a keyword but the model can still read (a range, a length,
//! an unsupported `format`, OpenAI's `default`) is folded into the description; what would
//! change which values are valid and has no strict equivalent is an issue, and the tool is
//! then exported without strict mode.

use super::issues::{StrictIssue, StrictIssueKind};
use super::keys::Keys;
use super::limits;
use super::refs;
use super::rewrites;
use super::walk::{accepts_null, child, lists, push_segment, resolve, types, MAX_DEPTH};
use serde_json::{json, Map, Value};
use std::fmt::Write;

/// Which provider's strict subset to lower to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[doc(hidden)]
pub enum Target {
    /// OpenAI structured outputs (Chat Completions and Responses).
    OpenAi,
    /// Anthropic strict tool use.
    Anthropic,
}

/// String formats each provider lists as supported.
const OPENAI_FORMATS: &[&str] = &[
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
const ANTHROPIC_FORMATS: &[&str] = &[
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

/// Keywords that change what is valid and have no strict equivalent; and definitions anywhere
/// but at the root (the root's are taken out before its node is lowered), which the lowering
/// would pass through unlowered.
const STRUCTURAL: [&str; 16] = [
    "$defs",
    "definitions",
    "not",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "prefixItems",
    "propertyNames",
    "unevaluatedItems",
    "additionalItems",
    "contains",
    "$dynamicRef",
    "$recursiveRef",
];

/// What one pass over a node's keys finds, so each keyword is matched once, not looked up
/// once per question.
#[derive(Default)]
struct Present {
    /// Bit `i` for `STRUCTURAL[i]`.
    structural: u16,
    pattern_properties: bool,
    unevaluated_properties: bool,
    /// Any keyword that says what the value is (`type`, `enum`, `const`, `$ref`, `anyOf`,
    /// `properties`).
    typed: bool,
}

impl Present {
    fn of(map: &Map<String, Value>) -> Present {
        let mut present = Present::default();
        for key in map.keys() {
            match key.as_str() {
                "type" | "enum" | "const" | "$ref" | "anyOf" | "properties" => present.typed = true,
                "patternProperties" => present.pattern_properties = true,
                "unevaluatedProperties" => present.unevaluated_properties = true,
                key => {
                    if let Some(i) = STRUCTURAL.iter().position(|k| *k == key) {
                        present.structural |= 1 << i;
                    }
                }
            }
        }
        present
    }
}

/// A lowered schema, and what the lowering learned of its size on the way.
#[derive(Debug)]
pub(crate) struct Lowered {
    pub schema: Value,
    /// The most levels of nesting the schema can have, when the lowering could tell: each
    /// level is a node that opens one, and a path through references enters each definition
    /// at most once (the nesting limit's count stops at a cycle), so when every reference
    /// names a whole definition no path holds more levels than the schema has such nodes.
    pub levels_at_most: Option<usize>,
}

/// Lowers a tool's input schema for `target`, or says every reason it can't be.
pub(crate) fn lower(schema: &Value, target: Target) -> Result<Lowered, Vec<StrictIssue>> {
    let defs = schema.key("$defs").and_then(Value::as_object);
    let mut lowerer = Lowerer {
        target,
        root: schema,
        issues: Vec::new(),
        path: String::new(),
        uses: Uses::new(defs),
        levels: 0,
        other_refs: false,
    };
    let root_is_object = schema
        .as_object()
        .is_some_and(|m| types(m).eq(["object"]) && !m.has("anyOf") && !m.has("oneOf"));
    if !root_is_object {
        return Err(vec![StrictIssue::new("", StrictIssueKind::RootNotObject)]);
    }
    if target == Target::Anthropic {
        let cycles = refs::cycles(schema);
        if !cycles.is_empty() {
            // Inlining a recursive type would not end; nothing more is worth saying.
            return Err(cycles);
        }
    }
    // The root without its definitions, which are copied only if still in use.
    let root = schema
        .as_object()
        .map(|m| rewrites::copy_except(m, &["$defs"]));
    let mut out = Value::Object(root.unwrap_or_default());
    lowerer.node(&mut out, 0);
    if let Some(defs) = defs {
        // Only the definitions the lowered schema refers to, found as it was lowered (and as
        // they are, for the ones they refer to): Anthropic's inlining leaves some unused, and
        // lowering one only to drop it would be wasted. Each round lowers, in the document's
        // order, those the last round found.
        let entries: Vec<(&String, &Value)> = defs.iter().collect();
        let mut lowered: Vec<Option<Value>> = entries.iter().map(|_| None).collect();
        while let Some(round) = lowerer.uses.next_round() {
            for i in round {
                let (name, def) = entries[i];
                // A unit enum's constants are folded as the copy is made, not copied to be
                // dropped.
                let folded = def
                    .as_object()
                    .filter(|d| !d.has("$ref"))
                    .and_then(rewrites::consts_to_enum_copy);
                let mut def = folded.map_or_else(|| def.clone(), Value::Object);
                lowerer.path.clear();
                lowerer.path.push_str("/$defs");
                push_segment(&mut lowerer.path, name);
                lowerer.node(&mut def, 0);
                lowered[i] = Some(def);
            }
        }
        let lowered: Map<String, Value> = entries
            .iter()
            .map(|(name, _)| *name)
            .zip(lowered)
            .filter_map(|(name, def)| Some((name.clone(), def?)))
            .collect();
        if let (false, Some(map)) = (lowered.is_empty(), out.as_object_mut()) {
            map.insert("$defs".into(), Value::Object(lowered));
        }
    }
    if lowerer.issues.is_empty() {
        Ok(Lowered {
            schema: out,
            levels_at_most: (!lowerer.other_refs).then_some(lowerer.levels),
        })
    } else {
        Err(lowerer.issues)
    }
}

struct Lowerer<'a> {
    target: Target,
    /// The schema as the registry holds it, for references.
    root: &'a Value,
    issues: Vec<StrictIssue>,
    /// The JSON pointer of the node being lowered: one buffer, grown and cut back as the
    /// walk goes, so no pointer is written out unless an issue is found.
    path: String,
    /// The root's definitions the lowered nodes refer to.
    uses: Uses<'a>,
    /// Lowered nodes that open a level of nesting ([`limits::opens_a_level`]).
    levels: usize,
    /// Whether a reference points anywhere but at a whole definition of the root's.
    other_refs: bool,
}

/// Which of the root's `$defs` the lowered schema refers to, noted as each node is lowered.
struct Uses<'a> {
    defs: Option<&'a Map<String, Value>>,
    /// One flag per definition, in the document's order.
    used: Vec<bool>,
    /// Found since the last round, not yet lowered.
    found: Vec<usize>,
}

impl<'a> Uses<'a> {
    fn new(defs: Option<&'a Map<String, Value>>) -> Uses<'a> {
        Uses {
            defs,
            used: vec![false; defs.map_or(0, Map::len)],
            found: Vec::new(),
        }
    }

    /// Notes the definition `reference` names; `false` when it names none of the root's
    /// (a pointer elsewhere, or into a definition).
    fn note(&mut self, reference: &str, root: &Value) -> bool {
        let Some(defs) = self.defs else {
            return false;
        };
        // What schemars writes is found by name; an escaped name, by where it resolves.
        let simple = reference
            .strip_prefix("#/$defs/")
            .filter(|name| !name.contains(['~', '/', '%']));
        let found = match simple {
            Some(name) => defs.keys().position(|k| k == name),
            None => resolve(root, reference)
                .and_then(|target| defs.values().position(|d| std::ptr::eq(d, target))),
        };
        let Some(i) = found else {
            return false;
        };
        if !self.used[i] {
            self.used[i] = true;
            self.found.push(i);
        }
        true
    }

    /// The definitions found since the last round, in the document's order.
    fn next_round(&mut self) -> Option<Vec<usize>> {
        if self.found.is_empty() {
            return None;
        }
        let mut round = std::mem::take(&mut self.found);
        round.sort_unstable();
        Some(round)
    }
}

impl Lowerer<'_> {
    /// An issue at the node being lowered.
    fn issue(&mut self, kind: StrictIssueKind) {
        self.issues.push(StrictIssue::new(&self.path, kind));
    }

    /// An issue at `key` inside the node being lowered.
    fn issue_at(&mut self, key: &str, kind: StrictIssueKind) {
        self.issues
            .push(StrictIssue::new(&child(&self.path, key), kind));
    }

    /// Lowers the subschema at `key` (and `index`, in a list) below the node being lowered.
    fn below(&mut self, value: &mut Value, key: &str, index: Option<usize>, depth: usize) {
        let len = self.path.len();
        push_segment(&mut self.path, key);
        if let Some(i) = index {
            let _ = write!(self.path, "/{i}");
        }
        self.node(value, depth);
        self.path.truncate(len);
    }

    fn node(&mut self, value: &mut Value, depth: usize) {
        if depth > MAX_DEPTH {
            self.issue(StrictIssueKind::Unsupported("nesting this deep".into()));
            return;
        }
        let Value::Object(map) = value else {
            let kind = if value == &Value::Bool(true) {
                StrictIssueKind::AnyValue
            } else {
                StrictIssueKind::Unsupported("false".into())
            };
            self.issue(kind);
            return;
        };
        let mut notes = Vec::new();
        if self.target == Target::OpenAi {
            rewrites::take(map, "default", &mut notes);
        }
        self.reference(map);
        self.unions(map);
        if let Some(Value::String(reference)) = map.key("$ref") {
            self.other_refs |= !self.uses.note(reference, self.root);
        }
        let mut present = Present::of(map);
        for (i, key) in STRUCTURAL.iter().enumerate() {
            if present.structural & (1 << i) != 0 {
                self.issue_at(key, StrictIssueKind::Unsupported((*key).into()));
            }
        }
        let closed = Some(&Value::Bool(false));
        if present.unevaluated_properties && map.key("unevaluatedProperties") == closed {
            map.remove_key("unevaluatedProperties");
            present.unevaluated_properties = false;
        }
        if present.pattern_properties {
            self.issue_at("patternProperties", StrictIssueKind::OpenObject);
        }
        if present.unevaluated_properties {
            self.issue_at("unevaluatedProperties", StrictIssueKind::OpenObject);
        }
        if !present.typed {
            self.issue(StrictIssueKind::AnyValue);
        }
        let (mut object, mut string, mut typed) = (false, false, false);
        for t in types(map) {
            typed = true;
            object |= t == "object";
            string |= t == "string";
        }
        let stringy = !typed || string;
        if object || map.has("properties") {
            self.object(map, depth, &mut notes);
        }
        match map.key_mut("items") {
            Some(Value::Array(_)) => {
                self.issue_at("items", StrictIssueKind::Unsupported("items".into()))
            }
            Some(items) => self.below(items, "items", None, depth + 1),
            None => {}
        }
        if let Some(Value::Array(branches)) = map.key_mut("anyOf") {
            for (i, branch) in branches.iter_mut().enumerate() {
                self.below(branch, "anyOf", Some(i), depth + 1);
            }
        }
        if self.target == Target::Anthropic {
            let complex = map
                .key("enum")
                .and_then(Value::as_array)
                .is_some_and(|e| e.iter().any(|v| v.is_object() || v.is_array()));
            if complex {
                self.issue_at("enum", StrictIssueKind::ComplexEnum);
            }
        }
        self.keywords(map, stringy, &mut notes);
        rewrites::into_description(map, &notes);
        self.levels += usize::from(limits::opens_a_level(map));
    }

    /// `oneOf` becomes `anyOf` (unions of constants become `enum`); a lone `allOf` is an
    /// `anyOf` of one.
    fn unions(&mut self, map: &mut Map<String, Value>) {
        rewrites::consts_to_enum(map);
        if let Some(one_of) = map.remove_key("oneOf") {
            if map.has("anyOf") {
                self.issue_at("oneOf", StrictIssueKind::Unsupported("oneOf".into()));
            } else {
                map.insert("anyOf".into(), one_of);
            }
        }
        if let Some(all_of) = map.remove_key("allOf") {
            match all_of.as_array().map(Vec::as_slice) {
                Some([single]) if !map.has("anyOf") => {
                    map.insert("anyOf".into(), json!([single]));
                }
                _ => self.issue_at("allOf", StrictIssueKind::Unsupported("allOf".into())),
            }
        }
    }

    /// A `$ref` with siblings (schemars puts a property's description beside it): OpenAI gets
    /// the reference inside an `anyOf` of one, which may have siblings; Anthropic, which has no
    /// recursion to fear here, gets the definition inlined, so no union is counted against its
    /// per-request budget.
    fn reference(&mut self, map: &mut Map<String, Value>) {
        let Some(reference) = map.key("$ref").and_then(Value::as_str).map(str::to_owned) else {
            return;
        };
        if !reference.starts_with('#') {
            // Both providers take references into the schema itself (`#...`) only; `""`
            // names the whole document without saying so.
            let kind = StrictIssueKind::Unsupported("a `$ref` not starting with `#`".into());
            self.issue_at("$ref", kind);
            return;
        }
        map.remove_key("title");
        if map.len() == 1 {
            return;
        }
        match self.target {
            Target::OpenAi if !map.has("anyOf") => {
                map.remove_key("$ref");
                map.insert("anyOf".into(), json!([{ "$ref": reference }]));
            }
            Target::OpenAi => self.issue_at("$ref", StrictIssueKind::Unsupported("$ref".into())),
            Target::Anthropic => {
                map.remove_key("$ref");
                if let Some(Value::Object(definition)) = resolve(self.root, &reference) {
                    for (key, value) in definition {
                        map.entry(key.clone()).or_insert_with(|| value.clone());
                    }
                }
                // The definition's own `$ref` with siblings, if any, is handled the same way.
                self.reference(map);
            }
        }
    }

    /// Every object closed; for OpenAI every property required, the optional ones nullable.
    fn object(
        &mut self,
        map: &mut Map<String, Value>,
        depth: usize,
        notes: &mut Vec<(String, Value)>,
    ) {
        match map.key("additionalProperties") {
            None if !map.has("properties") => self.issue(StrictIssueKind::OpenObject),
            None | Some(Value::Bool(false)) => {}
            Some(_) => self.issue_at("additionalProperties", StrictIssueKind::OpenObject),
        }
        if map.key("additionalProperties") != Some(&Value::Bool(false)) {
            map.insert("additionalProperties".into(), Value::Bool(false));
        }
        rewrites::take(map, "minProperties", notes);
        rewrites::take(map, "maxProperties", notes);
        // Lent out while the properties are lowered, and put back in its place after.
        let required = map.key_mut("required").map(std::mem::take);
        let openai = self.target == Target::OpenAi;
        let mut all = Vec::new();
        let root = self.root;
        if let Some(Value::Object(properties)) = map.key_mut("properties") {
            let len = self.path.len();
            push_segment(&mut self.path, "properties");
            let at = self.path.len();
            for (name, property) in properties.iter_mut() {
                push_segment(&mut self.path, name);
                let optional = !lists(required.as_ref(), name);
                let had_default = property.key("default").is_some();
                let nullable = accepts_null(property, root);
                self.node(property, depth + 1);
                if openai {
                    if optional && !nullable {
                        if !had_default {
                            self.issue(StrictIssueKind::OptionalWithoutDefault);
                        }
                        make_nullable(property);
                    }
                    all.push(Value::String(name.clone()));
                }
                self.path.truncate(at);
            }
            self.path.truncate(len);
        } else {
            map.insert("properties".into(), Value::Object(Map::new()));
        }
        let required = if openai {
            Some(Value::Array(all))
        } else {
            required
        };
        match (map.key_mut("required"), required) {
            (Some(slot), Some(required)) => *slot = required,
            (None, Some(required)) => {
                map.insert("required".into(), required);
            }
            (_, None) => {}
        }
    }

    /// Keeps what the provider supports, folds constraints it doesn't into the description,
    /// and drops annotations nobody needs (`title`, `examples`, integer `format`s, ...).
    fn keywords(
        &mut self,
        map: &mut Map<String, Value>,
        stringy: bool,
        notes: &mut Vec<(String, Value)>,
    ) {
        if self.target == Target::Anthropic {
            rewrites::drop_width_bounds(map);
        }
        // Decided over the node as it is, then applied: only the keys that go are copied.
        let mut changes = Vec::new();
        for (key, value) in map.iter() {
            let keep = match key.as_str() {
                "type"
                | "description"
                | "properties"
                | "required"
                | "additionalProperties"
                | "items"
                | "anyOf"
                | "enum"
                | "const"
                | "$ref"
                | "$defs" => Some(true),
                "default" => Some(self.target == Target::Anthropic),
                "pattern" => {
                    Some(self.target == Target::OpenAi || value.as_str().is_some_and(simple_regex))
                }
                "format" if !stringy => None,
                "format" => {
                    let formats = match self.target {
                        Target::OpenAi => OPENAI_FORMATS,
                        Target::Anthropic => ANTHROPIC_FORMATS,
                    };
                    Some(value.as_str().is_some_and(|f| formats.contains(&f)))
                }
                "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf"
                | "maxItems" => Some(self.target == Target::OpenAi),
                "minItems" => {
                    Some(self.target == Target::OpenAi || value.as_u64().is_some_and(|n| n <= 1))
                }
                "minLength" | "maxLength" | "uniqueItems" | "minContains" | "maxContains"
                | "contentEncoding" | "contentMediaType" => Some(false),
                // Annotations, extensions, and the structural keywords raised as issues above.
                _ => None,
            };
            if keep != Some(true) {
                changes.push((key.clone(), keep == Some(false)));
            }
        }
        for (key, fold_in) in changes {
            if fold_in {
                rewrites::take(map, &key, notes);
            } else {
                map.remove_key(&key);
            }
        }
    }
}

/// Makes an optional property accept `null`, the way OpenAI's docs emulate optional fields.
fn make_nullable(property: &mut Value) {
    let Some(map) = property.as_object_mut() else {
        return;
    };
    if let Some(Value::Array(branches)) = map.key_mut("anyOf") {
        branches.push(json!({"type": "null"}));
        return;
    }
    let scalar = !map.has("const")
        && !map.has("$ref")
        && match map.key("type") {
            Some(Value::String(t)) => t != "object",
            Some(Value::Array(ts)) => !ts.iter().any(|t| t == "object"),
            _ => false,
        };
    if scalar {
        match map.key_mut("type") {
            Some(Value::String(t)) => {
                let t = std::mem::take(t);
                map.insert("type".into(), json!([t, "null"]));
            }
            Some(Value::Array(ts)) => ts.push(Value::from("null")),
            _ => {}
        }
        if let Some(Value::Array(values)) = map.key_mut("enum") {
            values.push(Value::Null);
        }
        return;
    }
    let description = map.remove_key("description");
    let inner = std::mem::take(map);
    map.insert(
        "anyOf".into(),
        json!([Value::Object(inner), {"type": "null"}]),
    );
    if let Some(d) = description {
        map.insert("description".into(), d);
    }
}

/// Whether a regex avoids what Anthropic's grammar compiler rejects: backreferences,
/// lookahead/lookbehind and word boundaries.
fn simple_regex(pattern: &str) -> bool {
    let bytes = pattern.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if i + 1 < bytes.len() => {
                if matches!(bytes[i + 1], b'1'..=b'9' | b'b' | b'B' | b'k') {
                    return false;
                }
                i += 2;
                continue;
            }
            b'(' if pattern[i..].starts_with("(?=")
                || pattern[i..].starts_with("(?!")
                || pattern[i..].starts_with("(?<=")
                || pattern[i..].starts_with("(?<!") =>
            {
                return false;
            }
            _ => {}
        }
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn openai(schema: Value) -> Value {
        lower(&schema, Target::OpenAi).unwrap().schema
    }

    /// Each issue as its pointer and kind.
    fn pointed(issues: &[StrictIssue]) -> Vec<(&str, &StrictIssueKind)> {
        issues
            .iter()
            .map(|i| (i.pointer.as_str(), &i.kind))
            .collect()
    }

    #[test]
    fn only_definitions_in_use_are_lowered_and_kept() {
        // `Unused` would be an issue (`not`) if it were lowered; nothing refers to it.
        let schema = json!({
            "type": "object", "additionalProperties": false, "required": ["a"],
            "properties": {"a": {"$ref": "#/$defs/A"}},
            "$defs": {"A": {"type": "string", "maxLength": 3}, "Unused": {"not": {}}}});
        let lowered = openai(schema.clone());
        assert_eq!(
            lowered["$defs"],
            json!({"A": {"type": "string", "description": "(maxLength: 3)"}})
        );
        let anthropic = lower(&schema, Target::Anthropic).unwrap().schema;
        assert_eq!(anthropic["$defs"], lowered["$defs"]);
    }

    #[test]
    fn definitions_reached_through_definitions_are_kept_in_document_order() {
        // `A` is found only once `B`, which the root uses, is lowered; `C` only through the
        // reference Anthropic inlines; `D` by nothing.
        let schema = json!({
            "type": "object", "additionalProperties": false, "required": ["b", "c"],
            "properties": {"b": {"$ref": "#/$defs/B"},
                           "c": {"$ref": "#/$defs/C", "description": "Inlined for Anthropic."}},
            "$defs": {"A": {"type": "string"}, "D": {"type": "integer"},
                      "B": {"type": "array", "items": {"$ref": "#/$defs/A"}},
                      "C": {"type": "boolean"}}});
        let names = |lowered: &Value| -> Vec<String> {
            lowered["$defs"]
                .as_object()
                .map_or_else(Vec::new, |d| d.keys().cloned().collect())
        };
        assert_eq!(names(&openai(schema.clone())), ["A", "B", "C"]);
        assert_eq!(
            names(&lower(&schema, Target::Anthropic).unwrap().schema),
            ["A", "B"]
        );
        // With no definition in use, no `$defs` at all.
        let unused = json!({"type": "object", "additionalProperties": false, "required": [],
            "properties": {}, "$defs": {"D": {"type": "integer"}}});
        for target in [Target::OpenAi, Target::Anthropic] {
            assert!(lower(&unused, target)
                .unwrap()
                .schema
                .get("$defs")
                .is_none());
        }
    }

    #[test]
    fn the_levels_counted_bound_the_nesting_unless_a_reference_points_elsewhere() {
        // Root, `list` and `Item` open a level each; `Item` is used twice, counted once.
        let schema = json!({
            "type": "object", "additionalProperties": false, "required": ["list", "one"],
            "properties": {"list": {"type": "array", "items": {"$ref": "#/$defs/Item"}},
                           "one": {"$ref": "#/$defs/a~1b"}},
            "$defs": {"Item": {"type": "object", "additionalProperties": false,
                               "required": ["n"], "properties": {"n": {"type": "integer"}}},
                      "a/b": {"$ref": "#/$defs/Item"}}});
        let lowered = lower(&schema, Target::OpenAi).unwrap();
        assert_eq!(lowered.levels_at_most, Some(3));
        // An escaped name is found by where it resolves, and kept.
        assert!(lowered.schema["$defs"].get("a/b").is_some());
        // A reference to the root may re-enter it: no bound, the limit walks the schema.
        let mut recursive = schema.clone();
        recursive["properties"]["list"]["items"] = json!({"$ref": "#"});
        assert_eq!(
            lower(&recursive, Target::OpenAi).unwrap().levels_at_most,
            None
        );
        // A bound past the limit is walked, and a chain of definitions too deep is found.
        let mut defs = Map::new();
        for i in 0..11 {
            let next = json!({"$ref": format!("#/$defs/D{}", i + 1)});
            defs.insert(
                format!("D{i}"),
                json!({"type": "object", "additionalProperties": false,
                "required": ["x"], "properties": {"x": next}}),
            );
        }
        defs.insert("D11".into(), json!({"type": "string"}));
        let deep = json!({"type": "object", "additionalProperties": false, "required": ["x"],
            "properties": {"x": {"$ref": "#/$defs/D0"}}, "$defs": defs});
        let lowered = lower(&deep, Target::OpenAi).unwrap();
        assert_eq!(lowered.levels_at_most, Some(12));
        let issues = limits::openai_bounded(&lowered.schema, lowered.levels_at_most);
        assert_eq!(
            issues[0].kind,
            StrictIssueKind::Limit {
                limit: super::super::issues::StrictLimit::Nesting,
                value: 12,
                max: 10
            }
        );
    }

    #[test]
    fn optional_properties_become_required_and_nullable() {
        let lowered = openai(json!({
            "type": "object", "additionalProperties": false,
            "properties": {
                "query": {"type": "string"},
                "limit": {"type": "integer", "format": "uint32", "minimum": 1, "default": 10,
                          "description": "How many."},
                "tag": {"type": ["string", "null"]},
                "mode": {"enum": ["a", "b"], "type": "string", "default": "a"}
            },
            "required": ["query"]
        }));
        assert_eq!(
            lowered,
            json!({
                "type": "object", "additionalProperties": false,
                "properties": {
                    "query": {"type": "string"},
                    "limit": {"type": ["integer", "null"], "minimum": 1,
                              "description": "How many. (default: 10)"},
                    "tag": {"type": ["string", "null"]},
                    "mode": {"enum": ["a", "b", null], "type": ["string", "null"],
                             "description": "(default: \"a\")"}
                },
                "required": ["query", "limit", "tag", "mode"]
            })
        );
    }

    #[test]
    fn references_lose_their_siblings_and_unit_enums_become_enums() {
        let schema = json!({
            "type": "object", "additionalProperties": false,
            "properties": {"status": {"$ref": "#/$defs/Status", "description": "Where it stands."}},
            "required": ["status"],
            "$defs": {"Status": {"oneOf": [{"const": "todo", "type": "string", "description": "Not started."},
                                            {"const": "done", "type": "string"}]}}
        });
        let lowered = openai(schema.clone());
        assert_eq!(
            lowered["properties"]["status"],
            json!({"anyOf": [{"$ref": "#/$defs/Status"}], "description": "Where it stands."})
        );
        assert_eq!(
            lowered["$defs"]["Status"],
            json!({"type": "string", "enum": ["todo", "done"], "description": "- \"todo\": Not started."})
        );
        let anthropic = lower(&schema, Target::Anthropic).unwrap().schema;
        assert_eq!(
            anthropic["properties"]["status"],
            json!({"description": "Where it stands.\n- \"todo\": Not started.", "type": "string",
                   "enum": ["todo", "done"]})
        );
        assert!(
            anthropic.get("$defs").is_none(),
            "inlined definitions are dropped"
        );
    }

    #[test]
    fn maps_and_untyped_values_are_issues_with_pointers() {
        let schema = json!({
            "type": "object", "additionalProperties": false,
            "properties": {
                "counts": {"type": "object", "additionalProperties": {"type": "integer"}},
                "anything": true,
                "note": {"type": "string"}
            },
            "required": ["counts", "anything"]
        });
        let issues = lower(&schema, Target::OpenAi).unwrap_err();
        assert_eq!(
            pointed(&issues),
            [
                (
                    "/properties/counts/additionalProperties",
                    &StrictIssueKind::OpenObject
                ),
                ("/properties/anything", &StrictIssueKind::AnyValue),
                ("/properties/note", &StrictIssueKind::OptionalWithoutDefault),
            ]
        );
    }

    #[test]
    fn anthropic_folds_numeric_and_length_constraints_and_refuses_recursion() {
        let lowered = lower(
            &json!({"type": "object", "properties": {
                "n": {"type": "integer", "format": "uint8", "minimum": 0, "maximum": 255},
                "s": {"type": "string", "minLength": 1, "pattern": "^(?=a)", "format": "uri"},
                "v": {"type": "array", "items": {"type": "string"}, "minItems": 2, "maxItems": 3}
            }, "required": ["n"], "additionalProperties": false}),
            Target::Anthropic,
        )
        .unwrap()
        .schema;
        assert_eq!(
            lowered["properties"],
            json!({
                "n": {"type": "integer", "description": "(minimum: 0)"},
                "s": {"type": "string", "format": "uri", "description": "(minLength: 1, pattern: ^(?=a))"},
                "v": {"type": "array", "items": {"type": "string"},
                      "description": "(minItems: 2, maxItems: 3)"}
            })
        );
        assert_eq!(lowered["required"], json!(["n"]), "optional stays optional");

        let recursive = json!({"type": "object", "additionalProperties": false,
            "properties": {"tree": {"$ref": "#/$defs/Node"}}, "required": ["tree"],
            "$defs": {"Node": {"type": "object", "additionalProperties": false,
                "required": ["children"],
                "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}}}});
        let issues = lower(&recursive, Target::Anthropic).unwrap_err();
        assert_eq!(issues[0].pointer, "/$defs/Node/properties/children/items");
        assert_eq!(issues[0].kind, StrictIssueKind::Recursive("Node".into()));
        let openai = lower(&recursive, Target::OpenAi);
        assert!(openai.is_ok(), "OpenAI supports recursion: {openai:?}");
    }

    #[test]
    fn issues_point_into_nested_branches_and_closed_objects_pass() {
        let schema = json!({
            "type": "object", "additionalProperties": false, "required": ["p", "q", "r"],
            "properties": {
                "p": {"anyOf": [{"type": "string"}, {"type": "integer", "not": {"const": 3}}]},
                "q": {"type": "object", "properties": {"a~b/c": {"type": "object",
                      "patternProperties": {"^x": {"type": "string"}}, "properties": {}}},
                      "required": ["a~b/c"], "unevaluatedProperties": false},
                "r": {"type": "array", "items": {"type": "object", "properties": {},
                      "unevaluatedProperties": false}}
            }
        });
        let issues = lower(&schema, Target::OpenAi).unwrap_err();
        assert_eq!(
            pointed(&issues),
            [
                (
                    "/properties/p/anyOf/1/not",
                    &StrictIssueKind::Unsupported("not".into())
                ),
                (
                    "/properties/q/properties/a~0b~1c/patternProperties",
                    &StrictIssueKind::OpenObject
                ),
            ]
        );
        // `unevaluatedProperties: false` says what `additionalProperties: false` does.
        let r = json!({"type": "object", "additionalProperties": false, "required": ["r"],
            "properties": {"r": schema["properties"]["r"].clone()}});
        let lowered = openai(r);
        assert_eq!(
            lowered["properties"]["r"]["items"],
            json!({"type": "object", "properties": {}, "additionalProperties": false,
                   "required": []})
        );
    }

    #[test]
    fn references_outside_the_fragment_form_are_an_issue() {
        for reference in ["", "other.json#/$defs/A"] {
            let schema = json!({"type": "object", "additionalProperties": false,
                "required": ["a"], "properties": {"a": {"$ref": reference}}});
            for target in [Target::OpenAi, Target::Anthropic] {
                let issues = lower(&schema, target).unwrap_err();
                assert_eq!(issues[0].pointer, "/properties/a/$ref", "{reference:?}");
            }
        }
    }

    #[test]
    fn definitions_below_the_root_are_an_issue() {
        let schema = json!({"type": "object", "additionalProperties": false, "required": ["a"],
            "properties": {"a": {"type": "string",
                "$defs": {"Open": {"type": "object"}}}}});
        for target in [Target::OpenAi, Target::Anthropic] {
            let issues = lower(&schema, target).unwrap_err();
            assert_eq!(issues[0].pointer, "/properties/a/$defs");
            assert_eq!(issues[0].kind, StrictIssueKind::Unsupported("$defs".into()));
        }
    }

    #[test]
    fn the_root_must_be_an_object() {
        let issues = lower(&json!({"anyOf": [{"type": "object"}]}), Target::OpenAi).unwrap_err();
        assert_eq!(issues[0].kind, StrictIssueKind::RootNotObject);
    }
}
