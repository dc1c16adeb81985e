//! Reading a JSON Schema document: pointers, local references, the subschemas of a node.

use super::keys::Keys;
use serde_json::{Map, Value};

/// How deep the walks go before giving up: deeper than any schema a Rust type produces, and
/// a bound on documents built by hand.
pub(crate) const MAX_DEPTH: usize = 64;

/// `pointer` followed by one RFC 6901 segment.
pub(crate) fn child(pointer: &str, segment: &str) -> String {
    let mut out = String::with_capacity(pointer.len() + segment.len() + 1);
    out.push_str(pointer);
    push_segment(&mut out, segment);
    out
}

/// Appends `/segment` to a pointer, escaped as RFC 6901 says.
pub(crate) fn push_segment(pointer: &mut String, segment: &str) {
    pointer.push('/');
    if !segment.contains(['~', '/']) {
        pointer.push_str(segment);
        return;
    }
    for c in segment.chars() {
        match c {
            '~' => pointer.push_str("~0"),
            '/' => pointer.push_str("~1"),
            c => pointer.push(c),
        }
    }
}

/// The definition name in `#/$defs/Name` (or `#/definitions/Name`).
pub(crate) fn def_name(reference: &str) -> Option<&str> {
    reference
        .strip_prefix("#/$defs/")
        .or_else(|| reference.strip_prefix("#/definitions/"))
}

/// What a local reference (`#`, `#/$defs/Name`, any `#/...` pointer) points at.
pub(crate) fn resolve<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
    // What schemars writes, looked up without parsing a pointer.
    if let Some(name) = reference.strip_prefix("#/$defs/") {
        if !name.contains(['~', '/', '%']) {
            return root.key("$defs")?.key(name);
        }
    }
    let pointer = reference.strip_prefix('#')?;
    root.pointer(pointer)
}

/// One subschema directly inside a node: the keyword that holds it, and its index or name
/// under that keyword when the keyword holds several. Its pointer is written out only when
/// asked for, so walking a schema allocates nothing.
#[derive(Clone, Copy)]
pub(crate) struct Sub<'a> {
    pub keyword: &'a str,
    pub member: Option<Member<'a>>,
    pub schema: &'a Value,
}

/// A subschema's place under its keyword.
#[derive(Clone, Copy)]
pub(crate) enum Member<'a> {
    /// In a list (`anyOf`, tuple `items`, ...).
    Index(usize),
    /// In a map (`properties`, `$defs`, ...).
    Name(&'a str),
}

impl Sub<'_> {
    /// The subschema's JSON pointer, below `parent`'s.
    pub(super) fn pointer(&self, parent: &str) -> String {
        let at = child(parent, self.keyword);
        match self.member {
            None => at,
            Some(Member::Index(i)) => child(&at, &i.to_string()),
            Some(Member::Name(name)) => child(&at, name),
        }
    }

    /// Whether it is a definition (under `$defs`), reached only through references.
    pub(super) fn is_definition(&self) -> bool {
        self.keyword == "$defs"
    }
}

/// Where a walk is: a pointer written out, and the subschemas stepped into below it. The
/// full pointer is written only when something is reported there.
pub(crate) struct Trail<'a> {
    base: String,
    steps: Vec<Sub<'a>>,
}

impl<'a> Trail<'a> {
    /// A walk starting at `base` (`""` for the document's root).
    pub(super) fn at(base: String) -> Self {
        Trail {
            base,
            steps: Vec::new(),
        }
    }

    /// One step down, into `sub`.
    pub(super) fn push(&mut self, sub: Sub<'a>) {
        self.steps.push(sub);
    }

    /// One step back up.
    pub(super) fn pop(&mut self) {
        self.steps.pop();
    }

    /// The JSON pointer of where the walk is.
    pub(super) fn pointer(&self) -> String {
        self.steps
            .iter()
            .fold(self.base.clone(), |at, sub| sub.pointer(&at))
    }
}

/// The subschemas directly inside `node`, in the node's order.
///
/// Only schema-valued keywords are followed, so a property *named* `properties` or an enum
/// value that looks like a schema is never mistaken for one.
pub(crate) fn subschemas(node: &Map<String, Value>) -> Subschemas<'_> {
    Subschemas {
        keys: node.iter(),
        keyword: "",
        inside: Inside::Nothing,
    }
}

/// The iterator [`subschemas`] returns: one pass over the node's keys, stepping into the
/// lists and maps of subschemas it meets.
pub(crate) struct Subschemas<'a> {
    keys: serde_json::map::Iter<'a>,
    /// The keyword whose list or map is being stepped through.
    keyword: &'a str,
    inside: Inside<'a>,
}

enum Inside<'a> {
    Nothing,
    List(std::iter::Enumerate<std::slice::Iter<'a, Value>>),
    Map(serde_json::map::Iter<'a>),
}

impl<'a> Iterator for Subschemas<'a> {
    type Item = Sub<'a>;

    fn next(&mut self) -> Option<Sub<'a>> {
        loop {
            let keyword = self.keyword;
            let found = match &mut self.inside {
                Inside::Nothing => None,
                Inside::List(list) => list.next().map(|(i, schema)| (Member::Index(i), schema)),
                Inside::Map(map) => map
                    .next()
                    .map(|(name, schema)| (Member::Name(name), schema)),
            };
            if let Some((member, schema)) = found {
                let member = Some(member);
                return Some(Sub {
                    keyword,
                    member,
                    schema,
                });
            }
            let (keyword, value) = self.keys.next()?;
            let keyword = keyword.as_str();
            self.keyword = keyword;
            self.inside = Inside::Nothing;
            match (keyword, value) {
                // Draft-04 tuple form of `items`, and the keywords that hold lists.
                ("items" | "anyOf" | "oneOf" | "allOf" | "prefixItems", Value::Array(list)) => {
                    self.inside = Inside::List(list.iter().enumerate())
                }
                ("anyOf" | "oneOf" | "allOf" | "prefixItems", _) => {}
                (
                    "items"
                    | "additionalProperties"
                    | "not"
                    | "if"
                    | "then"
                    | "else"
                    | "contains"
                    | "propertyNames"
                    | "unevaluatedItems"
                    | "unevaluatedProperties"
                    | "additionalItems",
                    schema,
                ) => {
                    let member = None;
                    return Some(Sub {
                        keyword,
                        member,
                        schema,
                    });
                }
                (
                    "properties" | "patternProperties" | "$defs" | "definitions"
                    | "dependentSchemas",
                    Value::Object(map),
                ) => self.inside = Inside::Map(map.iter()),
                _ => {}
            }
        }
    }
}

/// Whether `schema` accepts `null`, following local references.
pub(crate) fn accepts_null(schema: &Value, root: &Value) -> bool {
    accepts_null_at(schema, root, 0)
}

/// [`accepts_null`] of a node held as a map.
pub(crate) fn map_accepts_null(map: &Map<String, Value>, root: &Value) -> bool {
    map_accepts_null_at(map, root, 0)
}

fn accepts_null_at(schema: &Value, root: &Value, depth: usize) -> bool {
    match schema.as_object() {
        Some(map) => map_accepts_null_at(map, root, depth),
        None => schema.as_bool().unwrap_or(false),
    }
}

fn map_accepts_null_at(map: &Map<String, Value>, root: &Value, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    // One pass over the node's keys: this runs for every property of every exported tool.
    map.iter().any(|(key, value)| match (key.as_str(), value) {
        ("type", Value::String(t)) => t == "null",
        ("type", Value::Array(types)) => types.iter().any(|t| t == "null"),
        ("enum", Value::Array(values)) => values.contains(&Value::Null),
        ("const", Value::Null) => true,
        ("anyOf" | "oneOf", Value::Array(branches)) => {
            branches.iter().any(|b| accepts_null_at(b, root, depth + 1))
        }
        ("$ref", Value::String(r)) => {
            resolve(root, r).is_some_and(|target| accepts_null_at(target, root, depth + 1))
        }
        _ => false,
    })
}

/// Whether a `required` keyword's value lists `name`.
pub(crate) fn lists(required: Option<&Value>, name: &str) -> bool {
    required
        .and_then(Value::as_array)
        .is_some_and(|names| names.iter().any(|n| n.as_str() == Some(name)))
}

/// The properties of an object node that its `required` doesn't list.
pub(crate) fn optional_properties(node: &Map<String, Value>) -> usize {
    let Some(properties) = node.key("properties").and_then(Value::as_object) else {
        return 0;
    };
    let required = node.key("required");
    properties
        .keys()
        .filter(|name| !lists(required, name))
        .count()
}

/// The `type` keyword as a list (`"string"` and `["string"]` alike).
pub(crate) fn types(node: &Map<String, Value>) -> impl Iterator<Item = &str> {
    let (one, list) = match node.key("type") {
        Some(Value::String(t)) => (Some(t.as_str()), None),
        Some(Value::Array(list)) => (None, Some(list)),
        _ => (None, None),
    };
    let listed = list.into_iter().flatten().filter_map(Value::as_str);
    one.into_iter().chain(listed)
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
        let found: Vec<String> = subschemas(node.as_object().unwrap())
            .map(|sub| sub.pointer(""))
            .collect();
        assert_eq!(found, ["/properties/properties", "/anyOf/0"]);

        // Every form a keyword holds its subschemas in, in the node's order.
        let node = json!({"items": [{"type": "a"}, {"type": "b"}], "not": {"type": "c"},
                          "$defs": {"D": {"type": "d"}}, "oneOf": "not a list",
                          "additionalProperties": false});
        let found: Vec<String> = subschemas(node.as_object().unwrap())
            .map(|sub| sub.pointer(""))
            .collect();
        assert_eq!(
            found,
            [
                "/items/0",
                "/items/1",
                "/not",
                "/$defs/D",
                "/additionalProperties"
            ]
        );
    }
}
