//! [`Export`]: one entry point for a registry's tool list in any shape, as a value, shared,
//! or as JSON text, made once per shape and kept.

use super::cache::{slot, ExportCache};
use super::issues::{StrictIssue, StrictIssueKind, StrictIssues};
use super::plain;
use super::plan;
use super::tool_list::ToolList;
use crate::providers::api;
use crate::spec::ToolSpec;
use crate::Provider;
use serde_json::value::RawValue;
use serde_json::Value;
use std::sync::Arc;

/// A registry's tool list in one shape: a [`Provider`]'s ([`Registry::export`](crate::Registry::export)), strict or
/// not, or the neutral list ([`Registry::export_plain`](crate::Registry::export_plain)).
///
/// The list is made on first use and kept (the registry never changes, and an agent sends it
/// with every request): [`shared`](Self::shared) hands out the registry's own copy,
/// [`raw_json`](Self::raw_json) its JSON text, for a request struct with a `&RawValue`
/// field (for 1,000 tools, 19–26 µs a request instead of 1.0–1.6 ms, BENCHMARKS.md §3).
///
/// Each provider's rules are followed: in strict mode each tool goes out in strict form, or
/// with `strict: false` when it can't be ([`check`](Self::check) says why); a name the
/// provider rejects goes out sanitized ([`name_of`](Self::name_of)), and a call to it still
/// reaches the tool.
///
/// ```
/// use serde::Serialize;
/// use serde_json::value::RawValue;
/// use tool_runtime::{tool, Provider, Registry};
///
/// /// Add two numbers.
/// #[tool]
/// fn add(a: i64, b: i64) -> i64 {
///     a + b
/// }
///
/// #[derive(Serialize)]
/// struct Request<'a> {
///     model: &'a str,
///     tools: &'a RawValue,
/// }
///
/// let registry = Registry::builder().without_inventory().register(add::TOOL).build().unwrap();
/// let tools = registry.export(Provider::OpenAiChat).strict(true).raw_json();
/// let body = serde_json::to_string(&Request { model: "gpt-5", tools: &tools }).unwrap();
/// assert!(body.starts_with(r#"{"model":"gpt-5","tools":[{"type":"function""#));
/// assert_eq!(registry.export(Provider::Anthropic).to_value()[0]["name"], "add");
/// ```
#[derive(Clone, Copy, Debug)]
#[must_use = "an Export does nothing until it is turned into a value or text"]
pub struct Export<'r> {
    tools: ToolList<'r>,
    cache: &'r ExportCache,
    /// `None`: the neutral list.
    provider: Option<Provider>,
    strict: bool,
}

impl<'r> Export<'r> {
    /// `provider`'s export of `tools` (`None`: the neutral list), not strict, kept in `cache`.
    pub(crate) fn new(
        tools: ToolList<'r>,
        cache: &'r ExportCache,
        provider: Option<Provider>,
    ) -> Self {
        Export {
            tools,
            cache,
            provider,
            strict: false,
        }
    }

    /// Strict mode on or off (off unless asked): OpenAI structured outputs, Anthropic strict
    /// tool use. No effect for a provider without one (Gemini, MCP) or the neutral list.
    pub fn strict(self, on: bool) -> Self {
        let has_strict_mode = self.provider.is_some_and(Provider::has_strict_mode);
        Export {
            strict: on && has_strict_mode,
            ..self
        }
    }

    /// The provider whose shape this is (`None` for the neutral list).
    pub fn provider(&self) -> Option<Provider> {
        self.provider
    }

    /// Whether strict mode is on.
    pub fn is_strict(&self) -> bool {
        self.strict
    }

    fn slot(&self) -> usize {
        slot(self.provider, self.strict)
    }

    /// The tool list, a copy of the registry's.
    pub fn to_value(&self) -> Value {
        Value::clone(&self.shared())
    }

    /// The registry's own tool list, without a copy. Serialize it into each request as it is
    /// (`serde_json::to_writer(&mut body, &*tools)`, or a request struct with a `&Value`
    /// field).
    pub fn shared(&self) -> Arc<Value> {
        Arc::clone(self.cache.values[self.slot()].get_or_init(|| {
            Arc::new(match self.provider {
                Some(provider) => (api(provider).export)(self.tools, self.strict),
                None => plain::tools(self.tools),
            })
        }))
    }

    /// The tool list as JSON text, written once: a request struct with a `&RawValue` field
    /// copies its bytes into each body instead of serializing the whole tree again.
    pub fn raw_json(&self) -> Arc<RawValue> {
        Arc::clone(self.cache.texts[self.slot()].get_or_init(|| {
            let tools = self.shared();
            // A `Value` has only string keys and finite numbers: writing it can't fail.
            let text = serde_json::value::to_raw_value(&*tools)
                .expect("a serde_json::Value always serializes");
            Arc::from(text)
        }))
    }

    /// Whether the tool `name` goes out in strict form in this provider's strict mode
    /// (whether or not this export asks for it), and if not, every reason why.
    ///
    /// It judges the tool as the export does, so it counts request-wide limits too:
    /// Anthropic's 20 strict tools, 24 optional and 16 union-typed parameters, spent by the
    /// tools before this one in registry order.
    ///
    /// ```
    /// use tool_runtime::export::StrictIssueKind;
    /// use tool_runtime::{tool, Provider, Registry};
    /// use std::collections::HashMap;
    ///
    /// /// Tally words.
    /// #[tool]
    /// fn tally(
    ///     /// Counts by word.
    ///     counts: HashMap<String, u32>,
    /// ) -> u32 {
    ///     counts.values().sum()
    /// }
    ///
    /// let registry = Registry::builder().without_inventory().register(tally::TOOL).build().unwrap();
    /// let export = registry.export(Provider::OpenAiChat).strict(true);
    /// let issues = export.check("tally").unwrap_err();
    /// assert_eq!(issues.issues[0].pointer, "/properties/counts/additionalProperties");
    /// assert_eq!(issues.issues[0].kind, StrictIssueKind::OpenObject);
    /// // The export doesn't fail: the tool goes out with `strict: false`.
    /// assert_eq!(export.to_value()[0]["function"]["strict"], false);
    /// ```
    ///
    /// # Errors
    ///
    /// Every reason the tool can't be strict: [`StrictIssueKind::NoStrictMode`] for a
    /// provider without one, [`StrictIssueKind::UnknownTool`] for a name the registry lacks.
    pub fn check(&self, name: &str) -> Result<(), StrictIssues> {
        let fail = |kind| StrictIssues {
            tool: name.to_owned(),
            issues: vec![StrictIssue::new("", kind)],
        };
        let Some(target) = self.provider.and_then(|provider| api(provider).strict) else {
            return Err(fail(StrictIssueKind::NoStrictMode));
        };
        let Some(index) = self.tools.position(name) else {
            return Err(fail(StrictIssueKind::UnknownTool));
        };
        let specs = self.tools.specs().take(index + 1);
        match plan::strict_all(specs, target, plan::Explain::Everything).pop() {
            Some(Err(issues)) => Err(StrictIssues {
                tool: name.to_owned(),
                issues,
            }),
            _ => Ok(()),
        }
    }

    /// The name the tool `name` goes out under: its own, or, where the provider's rule
    /// rejects it, the sanitized name a call to which [`Registry::call`](crate::Registry::call) maps back.
    pub fn name_of(&self, name: &str) -> Option<&'r str> {
        let index = self.tools.position(name)?;
        Some(match self.provider {
            Some(provider) => self.tools.name(api(provider).names, index),
            None => name_at(self.tools, index),
        })
    }
}

/// The own name of tool `index`.
fn name_at(tools: ToolList<'_>, index: usize) -> &str {
    tools.specs().nth(index).map_or("", ToolSpec::name)
}
