//! Rewrites shared by the strict lowering and Gemini's subset: what a provider can't take as a
//! keyword goes into the description, where the model still reads it, and unions of
//! constants become plain enums.

use super::keys::Keys;
use serde_json::{Map, Value};
use std::fmt::Write;

/// Appends `(key: value, ...)` to the node's description for keywords taken out of it.
pub(crate) fn into_description(node: &mut Map<String, Value>, notes: &[(String, Value)]) {
    if notes.is_empty() {
        return;
    }
    let mut note = String::from("(");
    for (i, (key, value)) in notes.iter().enumerate() {
        if i > 0 {
            note.push_str(", ");
        }
        note.push_str(key);
        note.push_str(": ");
        match value {
            // A regex or a format name reads better bare.
            Value::String(s) if key == "pattern" || key == "format" => note.push_str(s),
            other => push_json(&mut note, other),
        }
    }
    note.push(')');
    append(node, &note, " ");
}

/// Adds `text` to the description, after `separator` when there already is one.
pub(crate) fn append(node: &mut Map<String, Value>, text: &str, separator: &str) {
    match node.key_mut("description") {
        Some(Value::String(d)) if !d.is_empty() => {
            d.push_str(separator);
            d.push_str(text);
        }
        Some(other) => *other = Value::String(text.to_owned()),
        None => {
            node.insert("description".into(), Value::String(text.to_owned()));
        }
    }
}

/// Writes `value` as JSON text; a string with nothing to escape is copied as it is.
fn push_json(out: &mut String, value: &Value) {
    match value {
        Value::String(s) if s.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\') => {
            out.push('"');
            out.push_str(s);
            out.push('"');
        }
        other => {
            let _ = write!(out, "{other}");
        }
    }
}

/// Takes `key` out of the node and records it as a note.
pub(crate) fn take(node: &mut Map<String, Value>, key: &str, notes: &mut Vec<(String, Value)>) {
    if let Some(value) = node.remove_key(key) {
        notes.push((key.to_owned(), value));
    }
}

/// Removes the bounds schemars gives an integer for its Rust width (`u32` has `maximum:
/// 4294967295`): as description text they would tell the model nothing. `minimum: 0` on an
/// unsigned type is kept: "not negative" is worth saying.
pub(crate) fn drop_width_bounds(map: &mut Map<String, Value>) {
    let Some(format) = map.key("format").and_then(Value::as_str) else {
        return;
    };
    let (min, max): (i128, i128) = match format {
        "int8" => (i8::MIN.into(), i8::MAX.into()),
        "int16" => (i16::MIN.into(), i16::MAX.into()),
        "int32" => (i32::MIN.into(), i32::MAX.into()),
        "int64" | "int" => (i64::MIN.into(), i64::MAX.into()),
        "uint8" => (0, u8::MAX.into()),
        "uint16" => (0, u16::MAX.into()),
        "uint32" => (0, u32::MAX.into()),
        "uint64" | "uint" => (0, u64::MAX.into()),
        _ => return,
    };
    let is = |value: Option<&Value>, bound: i128| {
        value.and_then(|v| {
            v.as_i64()
                .map(i128::from)
                .or_else(|| v.as_u64().map(i128::from))
        }) == Some(bound)
    };
    if min != 0 && is(map.key("minimum"), min) {
        map.remove_key("minimum");
    }
    if is(map.key("maximum"), max) {
        map.remove_key("maximum");
    }
}

/// Turns `oneOf`/`anyOf` of constants (schemars' shape for a documented unit enum) into
/// `{"type": ..., "enum": [...]}`, listing each value's description in the node's own.
/// Returns whether it did; a union with anything but primitive constants is left alone.
pub(crate) fn consts_to_enum(node: &mut Map<String, Value>) -> bool {
    let Some(union) = ConstUnion::of(node) else {
        return false;
    };
    node.remove_key(union.keyword);
    union.into_enum(node);
    true
}

/// [`consts_to_enum`] of a node that is only borrowed: the rewritten copy, or `None` when
/// the node holds no union of constants. The union's branches are never copied.
pub(crate) fn consts_to_enum_copy(node: &Map<String, Value>) -> Option<Map<String, Value>> {
    let union = ConstUnion::of(node)?;
    let mut copy = copy_except(node, &[union.keyword]);
    union.into_enum(&mut copy);
    Some(copy)
}

/// `base` with `overrides` written over it and its `title` dropped, then [`consts_to_enum`]:
/// what merging a referenced unit enum with the reference's siblings and folding the result
/// gives, without copying the union's branches first. `None` when `base` holds no union of
/// constants, or when either side has a keyword that would make the order of the two steps
/// matter.
pub(crate) fn consts_to_enum_merged(
    base: &Map<String, Value>,
    overrides: &Map<String, Value>,
) -> Option<Map<String, Value>> {
    let interferes = |map: &Map<String, Value>, keys: &[&str]| keys.iter().any(|k| map.has(k));
    if interferes(base, &["$ref", "allOf"])
        || interferes(
            overrides,
            &["$ref", "allOf", "oneOf", "anyOf", "type", "enum"],
        )
    {
        return None;
    }
    let union = ConstUnion::of(base)?;
    let mut merged = copy_except(base, &[union.keyword, "title"]);
    for (key, value) in overrides {
        merged.insert(key.clone(), value.clone());
    }
    union.into_enum(&mut merged);
    Some(merged)
}

/// A copy of `node` without the keys in `left_out`, in the node's order.
pub(crate) fn copy_except(node: &Map<String, Value>, left_out: &[&str]) -> Map<String, Value> {
    node.iter()
        .filter(|(key, _)| !left_out.contains(&key.as_str()))
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect()
}

/// A union of primitive constants, read out of a node.
struct ConstUnion {
    /// `oneOf` or `anyOf`.
    keyword: &'static str,
    values: Vec<Value>,
    /// `- "value": its description`, a line for each documented value.
    docs: String,
}

impl ConstUnion {
    fn of(node: &Map<String, Value>) -> Option<ConstUnion> {
        let (keyword, branches) = ["oneOf", "anyOf"]
            .into_iter()
            .find_map(|k| Some((k, node.key(k)?.as_array()?)))?;
        let mut values = Vec::with_capacity(branches.len());
        let mut docs = String::new();
        for branch in branches {
            let b = branch.as_object()?;
            let only_annotations = b
                .keys()
                .all(|k| matches!(k.as_str(), "const" | "type" | "description" | "title"));
            let value = b.key("const").filter(|v| !v.is_object() && !v.is_array())?;
            if !only_annotations || value.is_null() {
                return None;
            }
            if let Some(doc) = b.key("description").and_then(Value::as_str) {
                if !docs.is_empty() {
                    docs.push('\n');
                }
                docs.push_str("- ");
                push_json(&mut docs, value);
                docs.push_str(": ");
                docs.push_str(doc);
            }
            values.push(value.clone());
        }
        if values.is_empty() {
            return None;
        }
        Some(ConstUnion {
            keyword,
            values,
            docs,
        })
    }

    /// Writes the enum into `node`, whose union is already gone.
    fn into_enum(self, node: &mut Map<String, Value>) {
        if let Some(t) = common_type(&self.values) {
            node.insert("type".into(), Value::from(t));
        }
        node.insert("enum".into(), Value::Array(self.values));
        if !self.docs.is_empty() {
            append(node, &self.docs, "\n");
        }
    }
}

/// The JSON Schema type all `values` share, if they share one.
pub(crate) fn common_type(values: &[Value]) -> Option<&'static str> {
    let type_of = |v: &Value| match v {
        Value::String(_) => Some("string"),
        Value::Bool(_) => Some("boolean"),
        Value::Number(n) if n.is_f64() => Some("number"),
        Value::Number(_) => Some("integer"),
        _ => None,
    };
    let first = type_of(values.first()?)?;
    let all_numbers = values
        .iter()
        .all(|v| matches!(type_of(v), Some("integer" | "number")));
    if values.iter().all(|v| type_of(v) == Some(first)) {
        Some(first)
    } else if all_numbers {
        Some("number")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn documented_unit_enums_become_enums() {
        let mut node = json!({"description": "Where a step stands.", "oneOf": [
            {"type": "string", "const": "pending", "description": "Not started."},
            {"type": "string", "const": "done"}]});
        let copied = consts_to_enum_copy(node.as_object().unwrap()).unwrap();
        let map = node.as_object_mut().unwrap();
        assert!(consts_to_enum(map));
        assert_eq!(
            &copied, map,
            "a folded copy equals the node folded in place"
        );
        assert_eq!(
            node,
            json!({"description": "Where a step stands.\n- \"pending\": Not started.",
                   "type": "string", "enum": ["pending", "done"]})
        );
        let mut data = json!({"oneOf": [{"type": "object", "properties": {}}]});
        assert!(!consts_to_enum(data.as_object_mut().unwrap()));
    }

    #[test]
    fn folding_while_merging_equals_merging_then_folding() {
        let base = json!({"title": "Mode", "description": "How to run.", "oneOf": [
            {"type": "string", "const": "fast", "description": "Quick."},
            {"type": "string", "const": "slow"}]});
        let base = base.as_object().unwrap();
        for overrides in [
            json!({"description": "The mode."}),
            json!({"default": "fast", "title": "Kept"}),
            json!({}),
        ] {
            let overrides = overrides.as_object().unwrap();
            let mut merged = base.clone();
            merged.remove_key("title");
            merged.extend(overrides.clone());
            assert!(consts_to_enum(&mut merged));
            let folded = consts_to_enum_merged(base, overrides).unwrap();
            assert_eq!(folded, merged);
            let order = |m: &Map<String, Value>| m.keys().cloned().collect::<Vec<_>>();
            assert_eq!(
                order(&folded),
                order(&merged),
                "same keys in the same order"
            );
        }
        let typed = json!({"type": "integer"});
        assert!(consts_to_enum_merged(base, typed.as_object().unwrap()).is_none());
    }

    #[test]
    fn notes_are_appended_to_the_description() {
        let mut node =
            json!({"type": "integer", "description": "How many.", "minimum": 1, "maximum": 5});
        let map = node.as_object_mut().unwrap();
        let mut notes = Vec::new();
        take(map, "minimum", &mut notes);
        take(map, "maximum", &mut notes);
        into_description(map, &notes);
        assert_eq!(
            node,
            json!({"type": "integer", "description": "How many. (minimum: 1, maximum: 5)"})
        );
    }
}
