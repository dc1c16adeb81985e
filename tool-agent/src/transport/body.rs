//! A request body written in one pass: the transport's own fields, the caller's extra
//! fields (never overriding the transport's), and the tool list copied in as JSON text.

use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// One field's value.
pub(crate) enum Field<'a> {
    Str(&'a str),
    Bool(bool),
    Value(Value),
    Raw(&'a RawValue),
    /// A list of one element given as JSON text (Gemini's `tools: [{functionDeclarations}]`).
    RawInList(&'a RawValue),
    /// A list: an optional first element, the conversation, an optional last element.
    List(Option<Value>, &'a [Value], Option<Value>),
    /// An object of fields (TensorZero's `input: {"system", "messages"}`).
    Object(Vec<(&'static str, Field<'a>)>),
}

/// A JSON object: `fields` first, then each `extra` field whose key they don't use.
pub(crate) struct Body<'a> {
    pub(crate) fields: Vec<(&'static str, Field<'a>)>,
    pub(crate) extra: &'a Map<String, Value>,
}

impl Body<'_> {
    /// The body as JSON bytes.
    pub(crate) fn to_vec(&self) -> Vec<u8> {
        // Only string keys and `Value`s: writing can't fail.
        serde_json::to_vec(self).unwrap_or_default()
    }
}

impl super::Http {
    /// The fields every chat-shaped body opens with (OpenAI Chat, Ollama): the model, the
    /// system prompt as the first `role: "system"` message, the conversation (ending with
    /// `last`, when given), and the tools.
    pub(crate) fn chat_fields<'a>(
        &'a self,
        request: &'a crate::ModelRequest<'_>,
        last: Option<Value>,
    ) -> Vec<(&'static str, Field<'a>)> {
        let system = request
            .system
            .map(|text| serde_json::json!({"role": "system", "content": text}));
        let mut fields = vec![
            ("model", Field::Str(&self.model)),
            ("messages", Field::List(system, request.messages, last)),
        ];
        if let Some(tools) = request.tools {
            fields.push(("tools", Field::Raw(tools)));
        }
        fields
    }

    /// A request body of `fields` and the caller's extra fields, as JSON bytes.
    pub(crate) fn body(&self, fields: Vec<(&'static str, Field<'_>)>) -> Vec<u8> {
        Body {
            fields,
            extra: &self.extra,
        }
        .to_vec()
    }
}

impl Serialize for Body<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        for (key, value) in &self.fields {
            map.serialize_entry(key, value)?;
        }
        for (key, value) in self.extra {
            if !self.fields.iter().any(|(own, _)| own == key) {
                map.serialize_entry(key, value)?;
            }
        }
        map.end()
    }
}

impl Serialize for Field<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Field::Str(text) => serializer.serialize_str(text),
            Field::Bool(on) => serializer.serialize_bool(*on),
            Field::Value(value) => value.serialize(serializer),
            Field::Raw(raw) => raw.serialize(serializer),
            Field::RawInList(raw) => [raw].serialize(serializer),
            Field::List(first, rest, last) => {
                let mut seq = serializer.serialize_seq(Some(
                    rest.len() + first.is_some() as usize + last.is_some() as usize,
                ))?;
                if let Some(first) = first {
                    seq.serialize_element(first)?;
                }
                for item in *rest {
                    seq.serialize_element(item)?;
                }
                if let Some(last) = last {
                    seq.serialize_element(last)?;
                }
                seq.end()
            }
            Field::Object(fields) => {
                let mut map = serializer.serialize_map(Some(fields.len()))?;
                for (key, value) in fields {
                    map.serialize_entry(key, value)?;
                }
                map.end()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn extra_fields_follow_and_never_override_the_transports() {
        let tools = RawValue::from_string(r#"[{"name":"f"}]"#.into()).unwrap();
        let extra = json!({"temperature": 0.2, "model": "other", "stream": true});
        let messages = [json!({"role": "user", "content": "hi"})];
        let body = Body {
            fields: vec![
                ("model", Field::Str("m")),
                (
                    "messages",
                    Field::List(Some(json!({"role": "system"})), &messages, None),
                ),
                ("tools", Field::Raw(&tools)),
                ("stream", Field::Bool(false)),
            ],
            extra: extra.as_object().unwrap(),
        };
        let text = String::from_utf8(body.to_vec()).unwrap();
        assert_eq!(
            text,
            r#"{"model":"m","messages":[{"role":"system"},{"role":"user","content":"hi"}],"tools":[{"name":"f"}],"stream":false,"temperature":0.2}"#
        );
    }
}
