//! Duplicate keys in a `tools/call`'s arguments, kept for the registry to refuse.
//!
//! rmcp reads a request into a map before the server sees it, and a map keeps only the last
//! of two equal keys: `{"path": "a.txt", "path": "../../etc/passwd"}` would reach the tool as
//! the second value, while an approver or a log reading the raw request sees the first. The
//! registry refuses duplicate keys on every path, so here, on the raw bytes of each message,
//! a call whose arguments repeat a key has them replaced by [`MARKER`] holding their exact
//! text; [`McpServer`](crate::McpServer) hands that text to the registry, which refuses it as
//! malformed arguments, the same answer `registry.call` gives.

use crate::pipeline::repair;
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;

/// The key the arguments' text travels under. A NUL can't start a real parameter's name, and
/// a client that sends it itself only gets its own text read as arguments.
pub(crate) const MARKER: &str = "\u{0}tool-runtime:raw-arguments";

/// The message with each `tools/call` whose arguments repeat a key rewritten (see the module
/// doc), or `None` when there is nothing to change (the common case costs one search).
pub(crate) fn shield(message: &[u8]) -> Option<Vec<u8>> {
    memchr::memmem::find(message, b"tools/call")?;
    let text = std::str::from_utf8(message).ok()?;
    let trimmed = text.trim_start();
    if trimmed.starts_with('[') {
        let batch: Vec<&RawValue> = serde_json::from_str(text).ok()?;
        if !batch.iter().any(|m| repeats_a_key(m.get())) {
            return None;
        }
        let rewritten: Vec<Value> = batch.iter().filter_map(|m| rewrite(m.get())).collect();
        return serde_json::to_vec(&rewritten).ok();
    }
    if !repeats_a_key(text) {
        return None;
    }
    serde_json::to_vec(&rewrite(text)?).ok()
}

#[derive(Deserialize)]
struct Message<'a> {
    #[serde(borrow)]
    method: Option<&'a str>,
    #[serde(borrow)]
    params: Option<Params<'a>>,
}

#[derive(Deserialize)]
struct Params<'a> {
    #[serde(borrow)]
    arguments: Option<&'a RawValue>,
}

/// The arguments' text of a `tools/call` message, if it is one.
fn arguments(message: &str) -> Option<&str> {
    let message: Message<'_> = serde_json::from_str(message).ok()?;
    (message.method == Some("tools/call"))
        .then_some(message.params?.arguments)
        .flatten()
        .map(RawValue::get)
}

fn repeats_a_key(message: &str) -> bool {
    arguments(message).is_some_and(|arguments| repair::parse_json(arguments).is_err())
}

/// The message as a value, its arguments under [`MARKER`] when they repeat a key.
fn rewrite(message: &str) -> Option<Value> {
    let mut value: Value = serde_json::from_str(message).ok()?;
    if let Some(arguments) = arguments(message).filter(|a| repair::parse_json(a).is_err()) {
        value["params"]["arguments"] = serde_json::json!({ MARKER: arguments });
    }
    Some(value)
}

/// The arguments' text a rewritten call carries, if it is one.
pub(crate) fn carried(arguments: &serde_json::Map<String, Value>) -> Option<&str> {
    match (arguments.len(), arguments.get(MARKER)) {
        (1, Some(Value::String(text))) => Some(text),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_calls_with_a_repeated_key_change() {
        let call = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"a.txt","path":"../../etc/passwd"}}}"#;
        let shielded: Value = serde_json::from_slice(&shield(call.as_bytes()).unwrap()).unwrap();
        let arguments = shielded["params"]["arguments"].as_object().unwrap();
        assert_eq!(
            carried(arguments),
            Some(r#"{"path":"a.txt","path":"../../etc/passwd"}"#)
        );
        assert_eq!(shielded["params"]["name"], "read_file");
        assert_eq!(shielded["id"], 1);

        let fine = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"a.txt"}}}"#;
        assert_eq!(shield(fine.as_bytes()), None);
        let other = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"x":1,"x":2}}"#;
        assert_eq!(shield(other.as_bytes()), None);
        let batch = format!("[{call},{fine}]");
        let shielded: Value = serde_json::from_slice(&shield(batch.as_bytes()).unwrap()).unwrap();
        assert!(carried(shielded[0]["params"]["arguments"].as_object().unwrap()).is_some());
        assert_eq!(shielded[1]["params"]["arguments"]["path"], "a.txt");
    }
}
