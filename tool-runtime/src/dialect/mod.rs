//! The shapes in which a registry's tool list is exported, one per model API, each checked
//! against its provider's documented rules.
//!
//! - `openai.rs`, `anthropic.rs`, `gemini.rs`, `mcp.rs`: each provider's tool entry;
//! - `strict.rs` (+ `refs.rs`, `limits.rs`, `plan.rs`): the strict-mode lowering OpenAI and
//!   Anthropic share, the reference graph it checks, their size limits, and which tools fall
//!   back to non-strict;
//! - `gemini_schema.rs`: the reduction to Gemini's OpenAPI subset;
//! - `names.rs`: names each provider accepts, and the way back from an exported name.

mod anthropic;
mod fold;
mod gemini;
mod gemini_schema;
mod issues;
mod keys;
mod limits;
mod mcp;
pub(crate) mod names;
mod openai;
mod plan;
mod refs;
mod strict;
mod walk;

pub use issues::{StrictIssue, StrictIssueKind, StrictIssues, StrictLimit};

use crate::registry::Registry;
use crate::spec::ToolSpec;
use names::NameRule;
use serde_json::Value;
use strict::Target;

/// A model API's way of listing tools. Pass one to
/// [`Registry::export_schema`](crate::Registry::export_schema).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Dialect {
    /// OpenAI Chat Completions `tools`: `[{"type": "function", "function": {...}}]`.
    OpenAiChat {
        /// OpenAI structured outputs ("strict mode").
        strict: bool,
    },
    /// OpenAI Responses `tools`: `[{"type": "function", "name", ...}]`.
    OpenAiResponses {
        /// OpenAI structured outputs ("strict mode").
        strict: bool,
    },
    /// Anthropic Messages `tools`: `[{"name", "description", "input_schema"}]`.
    Anthropic {
        /// Anthropic strict tool use.
        strict: bool,
    },
    /// Gemini `{"functionDeclarations": [...]}`, schemas in Gemini's OpenAPI subset.
    Gemini,
    /// Model Context Protocol `tools/list` entries: `{name, title?, description, inputSchema, annotations?}`.
    Mcp,
}

impl Dialect {
    /// Every dialect (non-strict variants), for tools that try them all.
    pub const ALL: &'static [Dialect] = &[
        Dialect::OpenAiChat { strict: false },
        Dialect::OpenAiResponses { strict: false },
        Dialect::Anthropic { strict: false },
        Dialect::Gemini,
        Dialect::Mcp,
    ];

    /// How many dialects there are, strict variants counted apart.
    pub(crate) const COUNT: usize = 8;

    /// This dialect's place among the [`COUNT`](Self::COUNT).
    pub(crate) fn index(self) -> usize {
        match self {
            Dialect::OpenAiChat { strict } => usize::from(strict),
            Dialect::OpenAiResponses { strict } => 2 + usize::from(strict),
            Dialect::Anthropic { strict } => 4 + usize::from(strict),
            Dialect::Gemini => 6,
            Dialect::Mcp => 7,
        }
    }

    /// The dialect's name as the CLI spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::OpenAiChat { .. } => "openai-chat",
            Dialect::OpenAiResponses { .. } => "openai-responses",
            Dialect::Anthropic { .. } => "anthropic",
            Dialect::Gemini => "gemini",
            Dialect::Mcp => "mcp",
        }
    }

    /// The same dialect with strict mode on or off (no effect where there is none).
    #[must_use]
    pub fn with_strict(self, on: bool) -> Dialect {
        match self {
            Dialect::OpenAiChat { .. } => Dialect::OpenAiChat { strict: on },
            Dialect::OpenAiResponses { .. } => Dialect::OpenAiResponses { strict: on },
            Dialect::Anthropic { .. } => Dialect::Anthropic { strict: on },
            other => other,
        }
    }

    /// Whether strict mode is asked for.
    pub fn is_strict(self) -> bool {
        matches!(
            self,
            Dialect::OpenAiChat { strict: true }
                | Dialect::OpenAiResponses { strict: true }
                | Dialect::Anthropic { strict: true }
        )
    }

    /// Whether the provider has a strict mode at all.
    pub fn has_strict_mode(self) -> bool {
        self.strict_target().is_some()
    }

    fn strict_target(self) -> Option<Target> {
        match self {
            Dialect::OpenAiChat { .. } | Dialect::OpenAiResponses { .. } => Some(Target::OpenAi),
            Dialect::Anthropic { .. } => Some(Target::Anthropic),
            Dialect::Gemini | Dialect::Mcp => None,
        }
    }

    fn name_rule(self) -> NameRule {
        match self {
            Dialect::OpenAiChat { .. }
            | Dialect::OpenAiResponses { .. }
            | Dialect::Anthropic { .. } => NameRule::OpenAiAnthropic,
            Dialect::Gemini => NameRule::Gemini,
            Dialect::Mcp => NameRule::Mcp,
        }
    }
}

impl std::str::FromStr for Dialect {
    type Err = String;
    fn from_str(text: &str) -> Result<Dialect, String> {
        Dialect::ALL
            .iter()
            .copied()
            .find(|d| d.as_str() == text)
            .ok_or_else(|| {
                let names: Vec<&str> = Dialect::ALL.iter().map(|d| d.as_str()).collect();
                format!(
                    "unknown dialect `{text}`; expected one of: {}",
                    names.join(", ")
                )
            })
    }
}

/// The registry's tool list in `dialect`'s shape.
pub(crate) fn export(registry: &Registry, dialect: Dialect) -> Value {
    match dialect {
        Dialect::OpenAiChat { strict } => openai::chat(registry, strict),
        Dialect::OpenAiResponses { strict } => openai::responses(registry, strict),
        Dialect::Anthropic { strict } => anthropic::tools(registry, strict),
        Dialect::Gemini => gemini::declarations(registry),
        Dialect::Mcp => mcp::tools(registry),
    }
}

impl Registry {
    /// Whether a tool goes out in strict form when this registry is exported in `dialect`'s
    /// strict mode (whatever `dialect`'s own `strict` says), and if not, every reason why.
    ///
    /// It judges the tool as [`export_schema`](Self::export_schema) does, so it counts
    /// request-wide limits too: Anthropic's 20 strict tools, 24 optional and 16 union-typed
    /// parameters, spent by the tools before this one in registry order.
    ///
    /// ```
    /// use tool_runtime::{tool, Dialect, Registry, StrictIssueKind};
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
    /// let issues = registry.strict_check("tally", Dialect::OpenAiChat { strict: true }).unwrap_err();
    /// assert_eq!(issues.issues[0].pointer, "/properties/counts/additionalProperties");
    /// assert_eq!(issues.issues[0].kind, StrictIssueKind::OpenObject);
    /// // The export doesn't fail: the tool goes out with `strict: false`.
    /// let tools = registry.export_schema(Dialect::OpenAiChat { strict: true });
    /// assert_eq!(tools[0]["function"]["strict"], false);
    /// ```
    pub fn strict_check(&self, name: &str, dialect: Dialect) -> Result<(), StrictIssues> {
        let fail = |kind| StrictIssues {
            tool: name.to_owned(),
            issues: vec![StrictIssue::new("", kind)],
        };
        let Some(target) = dialect.strict_target() else {
            return Err(fail(StrictIssueKind::NoStrictMode));
        };
        let Some(&index) = self.index.get(name) else {
            return Err(fail(StrictIssueKind::UnknownTool));
        };
        let specs = self.specs().take(index + 1);
        match plan::strict_all(specs, target, plan::Explain::Everything).pop() {
            Some(Err(issues)) => Err(StrictIssues {
                tool: name.to_owned(),
                issues,
            }),
            _ => Ok(()),
        }
    }

    /// The name a tool is exported under in `dialect`: its own, or, where the provider's rule
    /// rejects it, the sanitized name a call to which [`call`](Self::call) maps back.
    pub fn exported_name(&self, name: &str, dialect: Dialect) -> Option<&str> {
        let &index = self.index.get(name)?;
        Some(self.exported.get(dialect.name_rule(), index))
    }
}

impl ToolSpec {
    /// Whether this tool alone can go out in `dialect`'s strict mode (whatever `dialect`'s
    /// own `strict` says), and if not, every reason why. Request-wide limits are counted for
    /// this tool alone; [`Registry::strict_check`] counts the tools exported with it.
    pub fn strict_compatibility(&self, dialect: Dialect) -> Result<(), StrictIssues> {
        let result = match dialect.strict_target() {
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
