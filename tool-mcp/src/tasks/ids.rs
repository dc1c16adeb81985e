//! Task ids and question keys.

use std::collections::BTreeSet;
use std::time::Duration;

/// `key`, or `key-2`, `key-3`, ... when a question of the task had it already.
pub(crate) fn unique(keys: &BTreeSet<String>, key: String) -> String {
    let mut candidate = key.clone();
    let mut n = 1;
    while keys.contains(&candidate) {
        n += 1;
        candidate = format!("{key}-{n}");
    }
    candidate
}

/// A random (version 4) UUID: task ids are the only key sessionless clients have.
pub(crate) fn new_id() -> String {
    uuid::Uuid::new_v4().to_string()
}

pub(crate) fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}
