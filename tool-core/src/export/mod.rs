//! Exporting the tool list: the machinery every provider's export (in `providers/<name>/`)
//! is built on, and [`Export`], the handle [`Registry::export`] and
//! [`Registry::export_plain`] give, with strict mode a knob of the export
//! ([`Export::strict`]).
//!
//! - `handle.rs`: [`Export`], the one entry point (a value, shared, or JSON text), and
//!   `cache.rs`, where each shape is kept once made;
//! - `tool_list.rs`: what an export reads (the specs and their exported names, not the
//!   registry);
//! - `plain.rs`: the neutral list;
//! - `strict.rs` (+ `refs.rs`, `limits.rs`, `plan.rs`): the strict-mode lowering OpenAI and
//!   Anthropic share, the reference graph it checks, their size limits, and which tools fall
//!   back to non-strict;
//! - `gemini_schema.rs`: the reduction to Gemini's OpenAPI subset;
//! - `rewrites.rs`: what both lowerings share: keywords a provider can't take moved into the
//!   description, unions of constants made enums;
//! - `names.rs`: names each provider accepts, and the way back from an exported name.
//!
//! [`Registry::export`]: crate::Registry::export
//! [`Registry::export_plain`]: crate::Registry::export_plain
pub(crate) mod cache;
pub(crate) mod gemini_schema;
pub(crate) mod handle;
mod issues;
mod keys;
mod limits;
pub(crate) mod names;
mod plain;
pub(crate) mod plan;
mod refs;
pub(crate) mod rewrites;
pub(crate) mod strict;
pub(crate) mod tool_list;
pub(crate) mod walk;

pub use handle::Export;
pub use issues::{StrictIssue, StrictIssueKind, StrictIssues, StrictLimit};

use crate::providers::api;
use crate::spec::ToolSpec;
use crate::Provider;
use serde_json::Value;

impl ToolSpec {
    /// Whether this tool alone can go out in `provider`'s strict mode, and if not, every
    /// reason why. Request-wide limits are counted for this tool alone;
    /// [`Export::check`] counts the tools exported with it.
    ///
    /// # Errors
    ///
    /// Every reason the tool can't be strict ([`StrictIssueKind::NoStrictMode`] for a
    /// provider without a strict mode).
    pub fn strict_compatibility(&self, provider: Provider) -> Result<(), StrictIssues> {
        let result = match api(provider).strict {
            None => Err(vec![StrictIssue::new("", StrictIssueKind::NoStrictMode)]),
            Some(target) => {
                plan::strict_all(std::iter::once(self), target, plan::Explain::Everything)
                    .pop()
                    .unwrap_or(Ok(Value::Null))
                    .map(|_| ())
            }
        };
        result.map_err(|issues| StrictIssues {
            tool: self.name.clone(),
            issues,
        })
    }
}

/// A schema as a model API takes it: without the root's `$schema` (an imported tool keeps
/// JSON Schema 2020-12's marker, SEP-1613; no model API asks for it), cloned whole otherwise.
pub(crate) fn for_model(schema: &Value) -> Value {
    match schema {
        Value::Object(map) if map.contains_key("$schema") => {
            let mut map = map.clone();
            map.remove("$schema");
            Value::Object(map)
        }
        other => other.clone(),
    }
}
