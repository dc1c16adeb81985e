//! Looking keys up in a schema node by scanning it. Nodes hold a handful of keys, and
//! serde_json's ordered map hashes every key it is asked for with SipHash: comparing a few
//! short strings costs less. The strict export of 1,000 tools spent over a quarter of its
//! instructions hashing keywords before this (BENCHMARKS.md §3).

use crate::pipeline::tool_lookup::same;
use serde_json::{Map, Value};

/// Above this many keys a node is searched through its hash index.
const SCAN_UP_TO: usize = 16;

/// Scanning lookups on a schema node (a JSON object, or a `Value` holding one).
pub(crate) trait Keys {
    /// The value at `key`.
    fn key(&self, key: &str) -> Option<&Value>;

    /// The value at `key`, to change.
    fn key_mut(&mut self, key: &str) -> Option<&mut Value>;

    /// Whether `key` is there.
    fn has(&self, key: &str) -> bool {
        self.key(key).is_some()
    }

    /// Removes `key`, keeping the order of the others. Hashes only when the key is there,
    /// which for the keywords an export drops is seldom.
    fn remove_key(&mut self, key: &str) -> Option<Value>;
}

// `key` and `key_mut` are always inlined: left to the compiler, they were called (not
// inlined) about 93 times a tool by the strict lowering, 4.5 M instructions of a 58 M export
// of 1,000 tools (BENCHMARKS.md §3).
impl Keys for Map<String, Value> {
    #[inline(always)]
    fn key(&self, key: &str) -> Option<&Value> {
        if self.len() > SCAN_UP_TO {
            return self.get(key);
        }
        let key = key.as_bytes();
        self.iter()
            .find(|(k, _)| same(k.as_bytes(), key))
            .map(|(_, v)| v)
    }

    #[inline(always)]
    fn key_mut(&mut self, key: &str) -> Option<&mut Value> {
        if self.len() > SCAN_UP_TO {
            return self.get_mut(key);
        }
        let key = key.as_bytes();
        self.iter_mut()
            .find(|(k, _)| same(k.as_bytes(), key))
            .map(|(_, v)| v)
    }

    #[inline]
    fn remove_key(&mut self, key: &str) -> Option<Value> {
        if self.has(key) {
            self.shift_remove(key)
        } else {
            None
        }
    }
}

impl Keys for Value {
    #[inline]
    fn key(&self, key: &str) -> Option<&Value> {
        self.as_object()?.key(key)
    }

    #[inline]
    fn key_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.as_object_mut()?.key_mut(key)
    }

    #[inline]
    fn remove_key(&mut self, key: &str) -> Option<Value> {
        self.as_object_mut()?.remove_key(key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn small_and_large_nodes_answer_alike() {
        let small = json!({"type": "string", "enum": ["a"]});
        let large: Map<String, Value> = (0..40).map(|i| (format!("k{i}"), json!(i))).collect();
        assert_eq!(small.key("enum"), Some(&json!(["a"])));
        assert!(small.has("type") && !small.has("const") && !json!(1).has("type"));
        assert_eq!(large.key("k33"), Some(&json!(33)));
        assert!(!large.has("k40"));
        let mut map = small.as_object().cloned().unwrap();
        *map.key_mut("type").unwrap() = json!("integer");
        assert_eq!(map.remove_key("missing"), None);
        assert_eq!(map.remove_key("type"), Some(json!("integer")));
        assert_eq!(Value::Object(map), json!({"enum": ["a"]}));
    }
}
