//! The requests that may end in an input-required result (SEP-2322: `tools/call`,
//! `prompts/get`, `resources/read`): where each carries the client's answers, and what its
//! `requestState` is bound to, so that a state given for one request can't serve another.

use rmcp::model::{
    CallToolRequestParams, GetPromptRequestParams, InputResponses, JsonObject,
    ReadResourceRequestParams,
};
use serde_json::Value;

/// A request an [`InputRound`](super::input_required::InputRound) answers.
pub(crate) trait RoundTrip {
    /// The method, what it names (a tool, a prompt, a URI) and its arguments: the one request
    /// a `requestState` sealed for it opens for.
    fn bound_to(&self) -> String;

    /// The `requestState` of an earlier round, brought back.
    fn request_state(&self) -> Option<&str>;

    /// The client's answers to the questions of the round before.
    fn input_responses(&self) -> Option<&InputResponses>;
}

/// `RoundTrip` for a request's params, which all carry `requestState` and `inputResponses`:
/// what sets them apart is what their state is bound to.
macro_rules! round_trip {
    ($params:ty, |$request:ident| $bound_to:expr) => {
        impl RoundTrip for $params {
            fn bound_to(&self) -> String {
                let $request = self;
                $bound_to
            }

            fn request_state(&self) -> Option<&str> {
                self.request_state.as_deref()
            }

            fn input_responses(&self) -> Option<&InputResponses> {
                self.input_responses.as_ref()
            }
        }
    };
}

round_trip!(CallToolRequestParams, |call| binding(
    "tools/call",
    &call.name,
    call.arguments.as_ref()
));
round_trip!(GetPromptRequestParams, |get| binding(
    "prompts/get",
    &get.name,
    get.arguments.as_ref()
));
round_trip!(ReadResourceRequestParams, |read| binding(
    "resources/read",
    &read.uri,
    None
));

/// `method`, `name` and the arguments, one a line. The arguments' keys are sorted: a client
/// that sends the same arguments in another order asks the same thing (serde_json keeps the
/// order it read, `preserve_order`).
fn binding(method: &str, name: &str, arguments: Option<&JsonObject>) -> String {
    let arguments = arguments.map_or_else(String::new, |a| {
        sorted(&Value::Object(a.clone())).to_string()
    });
    format!("{method}\n{name}\n{arguments}")
}

/// `value` with every object's keys in order.
fn sorted(value: &Value) -> Value {
    match value {
        Value::Object(object) => {
            let mut entries: Vec<_> = object.iter().collect();
            entries.sort_by_key(|(key, _)| *key);
            Value::Object(
                entries
                    .into_iter()
                    .map(|(k, v)| (k.clone(), sorted(v)))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn object(value: Value) -> JsonObject {
        value.as_object().cloned().unwrap()
    }

    #[test]
    fn a_binding_names_the_method_the_target_and_the_arguments() {
        let call = CallToolRequestParams::new("greet")
            .with_arguments(object(json!({"b": 1, "a": {"d": 2, "c": 3}})));
        assert_eq!(
            call.bound_to(),
            "tools/call\ngreet\n{\"a\":{\"c\":3,\"d\":2},\"b\":1}"
        );
        let reordered = CallToolRequestParams::new("greet")
            .with_arguments(object(json!({"a": {"c": 3, "d": 2}, "b": 1})));
        assert_eq!(call.bound_to(), reordered.bound_to());
        let prompt = GetPromptRequestParams::new("greet")
            .with_arguments(object(json!({"b": 1, "a": {"d": 2, "c": 3}})));
        assert_ne!(
            prompt.bound_to(),
            call.bound_to(),
            "a prompt's state is not a tool's"
        );
        assert_eq!(
            GetPromptRequestParams::new("greet").bound_to(),
            "prompts/get\ngreet\n"
        );
        assert_eq!(
            ReadResourceRequestParams::new("a://b").bound_to(),
            "resources/read\na://b\n"
        );
    }
}
