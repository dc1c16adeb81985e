//! The `Mcp-Param-*` headers of a `tools/call` (protocol 2026-07-28, SEP-2243), added when
//! rmcp's client left them out.
//!
//! rmcp adds them from the input schemas it caches as `tools/list` answers pass its worker.
//! But rmcp 3.11 caches an answer only when its worker reads it from the stream's channel
//! itself; when the stream's end is seen first, the queued answer is handed on uncached
//! (`drain_queued_stream_messages`), and every call of those tools then goes without its
//! headers, which a server refuses (`-32020`, "missing Mcp-Param-Region header"). Seen on a
//! loaded 2-core machine in about 1 import of 60. So the import keeps its own record of the
//! listed tools' annotations, and a call whose standard headers are there (`Mcp-Method`: the
//! protocol has them) but whose `Mcp-Param-*` are not gets them here, encoded as rmcp encodes
//! them (`=?base64?...?=` for a value that can't travel bare).

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use hyper::header::{HeaderName, HeaderValue};
use rmcp::model::{ClientJsonRpcMessage, ClientRequest, JsonRpcMessage, Tool};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, RwLock};

/// The header names' prefix.
const PREFIX: &str = "mcp-param-";

/// What marks a Base64-wrapped value.
const WRAPPED: (&str, &str) = ("=?base64?", "?=");

/// Each listed tool's annotations: the header's name, and the property path to its argument.
type Annotations = HashMap<String, Vec<(String, Vec<String>)>>;

/// The listed tools' `x-mcp-header` annotations, shared by the import and its HTTP client.
#[derive(Clone, Debug, Default)]
pub(crate) struct ParamHeaders(Arc<RwLock<Annotations>>);

impl ParamHeaders {
    /// Keeps the annotations of `tools` whose annotations MCP clients take (a tool with a
    /// refused one is left out of the registry, and gets no header).
    pub(crate) fn learn(&self, tools: &[Tool]) {
        let learnt: Annotations = tools
            .iter()
            .filter_map(|tool| {
                let found = crate::registry::mcp_header_bindings(&tool.input_schema).ok()?;
                (!found.is_empty()).then(|| (tool.name.to_string(), found))
            })
            .collect();
        if let Ok(mut annotations) = self.0.write() {
            *annotations = learnt;
        }
    }

    /// Adds `message`'s `Mcp-Param-*` headers to `headers` when it is a `tools/call` sent with
    /// the standard headers and none of its own.
    pub(crate) fn complete(
        &self,
        message: &ClientJsonRpcMessage,
        headers: &mut HashMap<HeaderName, HeaderValue>,
    ) {
        let JsonRpcMessage::Request(request) = message else {
            return;
        };
        let ClientRequest::CallToolRequest(call) = &request.request else {
            return;
        };
        let standard = headers.keys().any(|name| name.as_str() == "mcp-method");
        let has_own = headers.keys().any(|name| name.as_str().starts_with(PREFIX));
        if !standard || has_own {
            return;
        }
        let Ok(annotations) = self.0.read() else {
            return;
        };
        let (Some(wanted), Some(arguments)) = (
            annotations.get(call.params.name.as_ref()),
            call.params.arguments.as_ref(),
        ) else {
            return;
        };
        for (header, path) in wanted {
            let Some(text) = at(arguments, path).and_then(primitive) else {
                continue;
            };
            if let (Ok(name), Ok(value)) = (
                HeaderName::from_bytes(format!("{PREFIX}{header}").as_bytes()),
                HeaderValue::from_str(&encode(&text)),
            ) {
                headers.insert(name, value);
            }
        }
    }
}

/// The argument at `path` in `arguments`.
fn at<'a>(arguments: &'a serde_json::Map<String, Value>, path: &[String]) -> Option<&'a Value> {
    let (first, rest) = path.split_first()?;
    rest.iter()
        .try_fold(arguments.get(first)?, |value, key| value.get(key))
}

/// A string, number or boolean as the header carries it; nothing for another value.
fn primitive(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// `value` bare when it can travel so, else Base64-wrapped: leading or trailing space or tab,
/// a control or non-ASCII character, or text that looks wrapped already.
fn encode(value: &str) -> String {
    let bytes = value.as_bytes();
    let edges = [bytes.first(), bytes.last()]
        .iter()
        .any(|b| matches!(b, Some(b' ' | b'\t')));
    let outside = value.chars().any(|c| !(' '..='~').contains(&c));
    let looks_wrapped = value.starts_with(WRAPPED.0) && value.ends_with(WRAPPED.1);
    if !value.is_empty() && (edges || outside || looks_wrapped) {
        format!("{}{}{}", WRAPPED.0, STANDARD.encode(value), WRAPPED.1)
    } else {
        value.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn call(arguments: Value) -> ClientJsonRpcMessage {
        serde_json::from_value(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "route", "arguments": arguments}}))
        .unwrap()
    }

    fn headers(pairs: &[(&'static str, &'static str)]) -> HashMap<HeaderName, HeaderValue> {
        pairs
            .iter()
            .map(|(n, v)| (HeaderName::from_static(n), HeaderValue::from_static(v)))
            .collect()
    }

    #[test]
    fn a_call_without_its_param_headers_gets_them() {
        let route: Tool = serde_json::from_value(json!({"name": "route", "inputSchema": {
            "type": "object", "properties": {
                "region": {"type": "string", "x-mcp-header": "Region"},
                "shard": {"type": "integer", "x-mcp-header": "Shard"},
                "where": {"type": "object", "properties": {
                    "zone": {"type": "string", "x-mcp-header": "Zone"}}},
                "note": {"type": "string"}}}}))
        .unwrap();
        let refused: Tool = serde_json::from_value(json!({"name": "odd", "inputSchema": {
            "type": "object", "properties": {"n": {"type": "number", "x-mcp-header": "N"}}}}))
        .unwrap();
        let params = ParamHeaders::default();
        params.learn(&[route, refused]);
        assert!(!params.0.read().unwrap().contains_key("odd"));

        let mut sent = headers(&[("mcp-method", "tools/call")]);
        params.complete(
            &call(json!({"region": "Zürich", "shard": 7, "where": {"zone": "b"}, "note": "x"})),
            &mut sent,
        );
        let value = |name: &'static str| {
            let name = HeaderName::from_static(name);
            sent.get(&name).map(|v| v.to_str().unwrap().to_owned())
        };
        assert_eq!(
            value("mcp-param-region").as_deref(),
            Some("=?base64?WsO8cmljaA==?=")
        );
        assert_eq!(value("mcp-param-shard").as_deref(), Some("7"));
        assert_eq!(value("mcp-param-zone").as_deref(), Some("b"));
        assert_eq!(sent.len(), 4);

        // Headers rmcp added stand; without the standard headers (an older protocol) none.
        let mut rmcps = headers(&[("mcp-method", "tools/call"), ("mcp-param-region", "eu")]);
        params.complete(&call(json!({"region": "us", "shard": 1})), &mut rmcps);
        assert_eq!(rmcps.len(), 2);
        let mut older = HashMap::new();
        params.complete(&call(json!({"region": "us", "shard": 1})), &mut older);
        assert!(older.is_empty());
    }

    #[test]
    fn values_are_wrapped_as_rmcp_wraps_them() {
        assert_eq!(encode("eu-west"), "eu-west");
        assert_eq!(encode("7"), "7");
        assert_eq!(encode(""), "");
        assert_eq!(encode("Zürich"), "=?base64?WsO8cmljaA==?=");
        assert_eq!(
            encode(" padded"),
            format!("=?base64?{}?=", STANDARD.encode(" padded"))
        );
        assert_eq!(
            encode("a\nb"),
            format!("=?base64?{}?=", STANDARD.encode("a\nb"))
        );
        assert_eq!(
            encode("=?base64?SGVsbG8=?="),
            format!("=?base64?{}?=", STANDARD.encode("=?base64?SGVsbG8=?="))
        );
    }
}
