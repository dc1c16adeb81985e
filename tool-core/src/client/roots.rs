//! A root the client lets the server work in (`roots/list`).

use super::question::Question;
use super::ClientCapabilities;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One of the client's roots: a directory or file, by URI (`file:///home/ada/project`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Root {
    /// Where it is: a `file://` URI in today's spec.
    pub uri: String,
    /// A name for people, when the client gave one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// `roots/list`: the question that asks for them.
pub(crate) struct ListRoots;

impl Question for ListRoots {
    const METHOD: &'static str = "roots/list";
    const CAPABILITY: &'static str = "roots";
    type Answer = Vec<Root>;

    fn missing(&self, declared: ClientCapabilities) -> Option<&'static str> {
        (!declared.roots).then_some("roots")
    }

    fn params(&self) -> Result<Value, serde_json::Error> {
        Ok(Value::Object(Default::default()))
    }

    fn answer(self, result: Value) -> Result<Vec<Root>, serde_json::Error> {
        #[derive(Deserialize)]
        struct Listed {
            roots: Vec<Root>,
        }
        serde_json::from_value::<Listed>(result).map(|listed| listed.roots)
    }
}
