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
    pub fn pointer(&self, parent: &str) -> String {
        let at = child(parent, self.keyword);
        match self.member {
            None => at,
            Some(Member::Index(i)) => child(&at, &i.to_string()),
            Some(Member::Name(name)) => child(&at, name),
        }
    }

    /// Whether it is a definition (under `$defs`), reached only through references.
    pub fn is_definition(&self) -> bool {
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
    pub fn at(base: String) -> Self {
        Trail {
            base,
            steps: Vec::new(),
        }
    }

    /// One step down, into `sub`.
    pub fn push(&mut self, sub: Sub<'a>) {
        self.steps.push(sub);
    }

    /// One step back up.
    pub fn pop(&mut self) {
        self.steps.pop();
    }

    /// The JSON pointer of where the walk is.
    pub fn pointer(&self) -> String {
        self.steps
            .iter()
            .fold(self.base.clone(), |at, sub| sub.pointer(&at))
    }
}

/// The subschemas directly inside `node`.
///
/// Only schema-valued keywords are followed, so a property *named* `properties` or an enum
/// value that looks like a schema is never mistaken for one.
pub(crate) fn subschemas(node: &Map<String, Value>) -> Vec<Sub<'_>> {
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
    for (keyword, value) in node {
        let keyword = keyword.as_str();
        let sub = |member, schema| Sub {
            keyword,
            member,
            schema,
        };
        // Draft-04 tuple form of `items`, and the keywords that hold lists.
        let list = (keyword == "items" && value.is_array()) || LIST.contains(&keyword);
        if list {
            for (i, s) in value.as_array().into_iter().flatten().enumerate() {
                out.push(sub(Some(Member::Index(i)), s));
            }
        } else if ONE.contains(&keyword) {
            out.push(sub(None, value));
        } else if MAP.contains(&keyword) {
            for (name, s) in value.as_object().into_iter().flatten() {
                out.push(sub(Some(Member::Name(name)), s));
            }
        }
    }
    out
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
    let typed_null = match map.key("type") {
        Some(Value::String(t)) => t == "null",
        Some(Value::Array(types)) => types.iter().any(|t| t == "null"),
        _ => false,
    };
    let listed_null = map
        .key("enum")
        .and_then(Value::as_array)
        .is_some_and(|values| values.contains(&Value::Null))
        || map.key("const") == Some(&Value::Null);
    let branch_null = ["anyOf", "oneOf"].iter().any(|k| {
        map.key(k)
            .and_then(Value::as_array)
            .is_some_and(|bs| bs.iter().any(|b| accepts_null_at(b, root, depth + 1)))
    });
    let via_ref = map
        .key("$ref")
        .and_then(Value::as_str)
        .and_then(|r| resolve(root, r))
        .is_some_and(|target| accepts_null_at(target, root, depth + 1));
    typed_null || listed_null || branch_null || via_ref
}

/// The `type` keyword as a list (`"string"` and `["string"]` alike).
pub(crate) fn types(node: &Map<String, Value>) -> Vec<&str> {
    match node.key("type") {
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
        let found: Vec<String> = subschemas(node.as_object().unwrap())
            .into_iter()
            .map(|sub| sub.pointer(""))
            .collect();
        assert_eq!(found, ["/properties/properties", "/anyOf/0"]);
    }
}
