//! The reference graph of a schema: the cycles a recursive type makes.

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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn cycles_are_found() {
        let schema = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}},
            "$defs": {"A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}}},
                      "B": {"type": "array", "items": {"$ref": "#/$defs/A"}},
                      "Unused": {"$ref": "#/$defs/AlsoUnused"}, "AlsoUnused": {"type": "string"}}});
        let found = cycles(&schema);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].pointer, "/$defs/B/items");
        assert_eq!(found[0].kind, StrictIssueKind::Recursive("A".into()));
    }
}
