//! The reference graph of a schema: the cycles a recursive type makes, and definitions
//! nothing refers to any more.

use super::issues::{StrictIssue, StrictIssueKind};
use super::keys::Keys;
use super::walk::{self, child, def_name, resolve, Trail, MAX_DEPTH};
use serde_json::Value;
use std::collections::HashSet;

/// Every reference that closes a cycle (a type that contains itself), as an issue.
pub(crate) fn cycles(schema: &Value) -> Vec<StrictIssue> {
    let mut issues = Vec::new();
    let mut stack = vec!["#".to_owned()];
    let mut done = HashSet::new();
    let mut at = Trail::at(String::new());
    visit_refs(
        schema,
        schema,
        &mut at,
        &mut stack,
        &mut done,
        &mut issues,
        0,
    );
    issues
}

fn visit_refs<'a>(
    node: &'a Value,
    root: &'a Value,
    at: &mut Trail<'a>,
    stack: &mut Vec<String>,
    done: &mut HashSet<String>,
    issues: &mut Vec<StrictIssue>,
    depth: usize,
) {
    let Some(map) = node.as_object() else {
        return;
    };
    if depth > MAX_DEPTH {
        return;
    }
    if let Some(reference) = map.key("$ref").and_then(Value::as_str) {
        let key = def_name(reference).unwrap_or(reference).to_owned();
        if stack.contains(&key) {
            issues.push(StrictIssue::new(
                &at.pointer(),
                StrictIssueKind::Recursive(key),
            ));
        } else if !done.contains(&key) {
            if let Some(target) = resolve(root, reference) {
                stack.push(key.clone());
                let mut inside = Trail::at(child("/$defs", &key));
                visit_refs(target, root, &mut inside, stack, done, issues, depth + 1);
                stack.pop();
            }
            done.insert(key);
        }
    }
    for sub in walk::subschemas(map) {
        // Definitions are reached through the references that use them.
        if depth == 0 && (sub.is_definition() || sub.keyword == "definitions") {
            continue;
        }
        at.push(sub);
        visit_refs(sub.schema, root, at, stack, done, issues, depth + 1);
        at.pop();
    }
}

/// The definitions in `defs` that `schema` (its own `$defs` aside) reaches, directly or
/// through other definitions.
pub(crate) fn reachable(schema: &Value, defs: &serde_json::Map<String, Value>) -> HashSet<String> {
    let mut queue = Vec::new();
    if let Some(map) = schema.as_object() {
        for sub in walk::subschemas(map) {
            if !sub.is_definition() {
                refs_in(sub.schema, &mut queue);
            }
        }
    }
    let mut used = HashSet::new();
    while let Some(name) = queue.pop() {
        if !used.contains(name) {
            used.insert(name.to_owned());
            if let Some(def) = defs.key(name) {
                refs_in(def, &mut queue);
            }
        }
    }
    used
}

/// Removes definitions no reference reaches any more (Anthropic's inlining leaves some).
pub(crate) fn drop_unused_defs(schema: &mut Value) {
    let used = match schema.key("$defs") {
        Some(Value::Object(defs)) => reachable(schema, defs),
        _ => return,
    };
    let Some(Value::Object(defs)) = schema.key_mut("$defs") else {
        return;
    };
    defs.retain(|name, _| used.contains(name));
    if defs.is_empty() {
        if let Some(map) = schema.as_object_mut() {
            map.remove_key("$defs");
        }
    }
}

/// The definition names referenced anywhere in `node`.
fn refs_in<'a>(node: &'a Value, out: &mut Vec<&'a str>) {
    let Some(map) = node.as_object() else {
        return;
    };
    if let Some(name) = map.key("$ref").and_then(Value::as_str).and_then(def_name) {
        out.push(name);
    }
    for sub in walk::subschemas(map) {
        refs_in(sub.schema, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn cycles_are_found_and_unused_definitions_dropped() {
        let mut schema = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}},
            "$defs": {"A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}}},
                      "B": {"type": "array", "items": {"$ref": "#/$defs/A"}},
                      "Unused": {"$ref": "#/$defs/AlsoUnused"}, "AlsoUnused": {"type": "string"}}});
        let found = cycles(&schema);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].pointer, "/$defs/B/items");
        assert_eq!(found[0].kind, StrictIssueKind::Recursive("A".into()));
        drop_unused_defs(&mut schema);
        let left: Vec<&String> = schema["$defs"].as_object().unwrap().keys().collect();
        assert_eq!(left, ["A", "B"]);
    }
}
