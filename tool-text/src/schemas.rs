//! What the text parser needs to know about the tools: their input schemas.

use crate::Registry;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};

/// The tools' input schemas, by name: what [`parse`](super::parse) types Qwen3 XML values with
/// and checks names in marker-less formats against.
pub trait ToolSchemas {
    /// The input schema of the named tool, or `None` when there is no such tool.
    fn input_schema(&self, name: &str) -> Option<&Value>;

    /// Whether [`input_schema`](Self::input_schema) knows every tool, so that a name it doesn't
    /// know is not a tool. `false` only for `()`, which knows no schemas at all.
    fn lists_all(&self) -> bool {
        true
    }
}

/// No schemas: every name may be a tool, and values are typed best-effort.
impl ToolSchemas for () {
    fn input_schema(&self, _name: &str) -> Option<&Value> {
        None
    }

    fn lists_all(&self) -> bool {
        false
    }
}

impl ToolSchemas for Registry {
    fn input_schema(&self, name: &str) -> Option<&Value> {
        self.get(name).map(|spec| spec.input_schema())
    }
}

impl ToolSchemas for HashMap<String, Value> {
    fn input_schema(&self, name: &str) -> Option<&Value> {
        self.get(name)
    }
}

impl ToolSchemas for BTreeMap<String, Value> {
    fn input_schema(&self, name: &str) -> Option<&Value> {
        self.get(name)
    }
}

impl<T: ToolSchemas + ?Sized> ToolSchemas for &T {
    fn input_schema(&self, name: &str) -> Option<&Value> {
        (**self).input_schema(name)
    }

    fn lists_all(&self) -> bool {
        (**self).lists_all()
    }
}

/// Whether `name` may be a tool: known to `tools`, or `tools` doesn't list them.
pub(crate) fn accepts(tools: &dyn ToolSchemas, name: &str) -> bool {
    !tools.lists_all() || tools.input_schema(name).is_some()
}
