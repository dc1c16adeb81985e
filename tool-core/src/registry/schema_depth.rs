//! The nesting limit on a schema given at run time, checked before anything recurses into it.
//!
//! Compiling, exporting and even dropping a `serde_json::Value` recurse once per level, so a
//! [`DynamicTool`](crate::DynamicTool) schema nested 5,000 levels overflowed the stack in
//! `build()`, which aborts the process. The check here and the dismantling of a schema past
//! the limit use a heap stack of their own, never the thread's.

use serde_json::Value;

/// The deepest a tool's input schema may nest, in JSON levels: serde_json's own parser stops
/// at 128, so every schema that arrived as JSON text (an MCP server's, a file) fits.
pub const MAX_SCHEMA_DEPTH: usize = 128;

/// Whether `value` nests deeper than `max` levels (a scalar is level 0, `{}` level 1).
pub(crate) fn exceeds(value: &Value, max: usize) -> bool {
    let mut stack: Vec<(&Value, usize)> = vec![(value, 0)];
    while let Some((node, depth)) = stack.pop() {
        if !(node.is_object() || node.is_array()) {
            continue;
        }
        if depth + 1 > max {
            return true;
        }
        match node {
            Value::Object(map) => stack.extend(map.values().map(|child| (child, depth + 1))),
            Value::Array(items) => stack.extend(items.iter().map(|child| (child, depth + 1))),
            _ => {}
        }
    }
    false
}

/// Drops `value` without recursing: each container is emptied onto a heap stack first.
pub(crate) fn dismantle(value: Value) {
    let mut stack = vec![value];
    while let Some(mut node) = stack.pop() {
        match &mut node {
            Value::Object(map) => {
                let taken = std::mem::take(map);
                stack.extend(taken.into_iter().map(|(_, child)| child));
            }
            Value::Array(items) => stack.append(items),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn nested(levels: usize) -> Value {
        let mut schema = json!({"type": "string"});
        for _ in 0..levels {
            // Not `json!` with `schema` inside: it would copy it, recursively.
            let mut properties = serde_json::Map::new();
            properties.insert("a".into(), schema);
            let mut object = serde_json::Map::new();
            object.insert("type".into(), "object".into());
            object.insert("properties".into(), Value::Object(properties));
            schema = Value::Object(object);
        }
        schema
    }

    #[test]
    fn depth_is_counted_and_a_deep_value_dropped_flat() {
        assert!(!exceeds(&json!(1), 0));
        assert!(exceeds(&json!({}), 0) && !exceeds(&json!({}), 1));
        assert!(!exceeds(&json!({"a": [1]}), 2));
        assert!(exceeds(&json!({"a": [[1]]}), 2));
        // Two JSON levels a nesting, plus the innermost object.
        assert!(!exceeds(&nested(63), MAX_SCHEMA_DEPTH));
        assert!(exceeds(&nested(64), MAX_SCHEMA_DEPTH));
        // 100,000 levels: a recursive drop would overflow this test thread's stack.
        let deep = nested(100_000);
        assert!(exceeds(&deep, MAX_SCHEMA_DEPTH));
        dismantle(deep);
    }
}
