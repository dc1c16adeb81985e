//! A root the client lets the server work in (`roots/list`).

use serde::{Deserialize, Serialize};

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
