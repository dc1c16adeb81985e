//! An elicitation request (`elicitation/create`, form mode) and the user's answer.

use super::question::Question;
use super::ClientCapabilities;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What a tool asks the user: a message, and the form to fill in (a flat JSON schema, see
/// [`elicitation_schema`](super::elicitation_schema)). It serializes to the request's
/// `params`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ElicitationRequest {
    /// What is asked and why, for the user.
    pub message: String,
    /// The form.
    pub requested_schema: Value,
}

/// `elicitation/create` in form mode: the request, and the type its content reads into.
pub(crate) struct Form<T> {
    request: ElicitationRequest,
    content: std::marker::PhantomData<fn() -> T>,
}

impl<T> Form<T> {
    /// A form asking `message`, to fill in as `requested_schema` (already checked to be
    /// one an elicitation may hold).
    pub(crate) fn new(message: String, requested_schema: Value) -> Form<T> {
        Form {
            request: ElicitationRequest {
                message,
                requested_schema,
            },
            content: std::marker::PhantomData,
        }
    }
}

impl<T: DeserializeOwned> Question for Form<T> {
    const METHOD: &'static str = "elicitation/create";
    const CAPABILITY: &'static str = "elicitation";
    type Answer = Elicitation<T>;

    fn missing(&self, declared: ClientCapabilities) -> Option<&'static str> {
        (!declared.elicitation).then_some("elicitation")
    }

    fn params(&self) -> Result<Value, serde_json::Error> {
        serde_json::to_value(&self.request)
    }

    fn answer(self, result: Value) -> Result<Elicitation<T>, serde_json::Error> {
        serde_json::from_value(result)
    }
}

/// The user's answer to an elicitation: the form filled in, or a refusal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Elicitation<T> {
    /// The user filled in the form.
    Accept(T),
    /// The user said no (the tool may go on without the answer).
    Decline,
    /// The user dismissed the question without choosing (the tool may ask again later).
    Cancel,
}

impl<T> Elicitation<T> {
    /// The form filled in, if the user accepted.
    pub fn accepted(self) -> Option<T> {
        match self {
            Elicitation::Accept(value) => Some(value),
            Elicitation::Decline | Elicitation::Cancel => None,
        }
    }

    /// `accept`, `decline` or `cancel`, as MCP writes it.
    pub fn action(&self) -> &'static str {
        match self {
            Elicitation::Accept(_) => "accept",
            Elicitation::Decline => "decline",
            Elicitation::Cancel => "cancel",
        }
    }
}

/// `{"action": ..., "content": ...}`: an elicitation result as MCP writes it.
#[derive(Serialize, Deserialize)]
struct Wire<T> {
    action: Action,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    content: Option<T>,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Action {
    Accept,
    Decline,
    Cancel,
}

impl<T: Serialize> Serialize for Elicitation<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let wire = match self {
            Elicitation::Accept(content) => Wire {
                action: Action::Accept,
                content: Some(content),
            },
            Elicitation::Decline => Wire {
                action: Action::Decline,
                content: None,
            },
            Elicitation::Cancel => Wire {
                action: Action::Cancel,
                content: None,
            },
        };
        wire.serialize(serializer)
    }
}

impl<'de, T: DeserializeOwned> Deserialize<'de> for Elicitation<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let wire = Wire::<Value>::deserialize(deserializer)?;
        Ok(match wire.action {
            // An accept without content: a form whose fields are all optional, left empty.
            Action::Accept => Elicitation::Accept(
                serde_json::from_value(
                    wire.content
                        .unwrap_or_else(|| Value::Object(Default::default())),
                )
                .map_err(serde::de::Error::custom)?,
            ),
            Action::Decline => Elicitation::Decline,
            Action::Cancel => Elicitation::Cancel,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn answers_read_and_write_as_mcp_results() {
        let accept: Elicitation<Value> =
            serde_json::from_value(json!({"action": "accept", "content": {"a": 1}})).unwrap();
        assert_eq!(accept, Elicitation::Accept(json!({"a": 1})));
        let decline: Elicitation<Value> =
            serde_json::from_value(json!({"action": "decline"})).unwrap();
        assert_eq!(decline, Elicitation::Decline);
        assert_eq!(
            serde_json::to_value(Elicitation::<Value>::Cancel).unwrap(),
            json!({"action": "cancel"})
        );
        assert_eq!(
            serde_json::to_value(Elicitation::Accept(json!({"b": true}))).unwrap(),
            json!({"action": "accept", "content": {"b": true}})
        );
    }
}
