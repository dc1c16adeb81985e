//! Exporting the tool list: the neutral one ([`Registry::export_schema`]) and each provider's
//! shape ([`Registry::export`], an [`Export`]), each checked against its provider's documented
//! rules, with strict mode a knob of the export ([`Export::strict`]).
//!
//! - `handle.rs`: [`Export`], the one entry point (a value, shared, or JSON text);
//! - `plain.rs`: the neutral list;
//! - `openai.rs`, `anthropic.rs`, `gemini.rs`, `mcp.rs`, `tensorzero.rs`: each provider's
//!   tool entry;
//! - `tensorzero_config.rs`: a `tensorzero.toml` and one schema file per tool;
//! - `strict.rs` (+ `refs.rs`, `limits.rs`, `plan.rs`): the strict-mode lowering OpenAI and
//!   Anthropic share, the reference graph it checks, their size limits, and which tools fall
//!   back to non-strict;
//! - `gemini_schema.rs`: the reduction to Gemini's OpenAPI subset;
//! - `rewrites.rs`: what both lowerings share: keywords a provider can't take moved into the
//!   description, unions of constants made enums;
//! - `names.rs`: names each provider accepts, and the way back from an exported name.
mod anthropic;
mod gemini;
mod gemini_schema;
mod handle;
mod issues;
mod keys;
mod limits;
mod mcp;
pub(crate) mod names;
mod openai;
mod plain;
pub(crate) mod plan;
mod refs;
pub(crate) mod rewrites;
pub(crate) mod strict;
mod tensorzero;
mod tensorzero_config;
pub(crate) mod walk;

pub use handle::Export;
pub use issues::{StrictIssue, StrictIssueKind, StrictIssues, StrictLimit};
pub use tensorzero_config::{TensorZeroConfig, TensorZeroFile, TensorZeroWriteError};

use crate::registry::Registry;
use crate::spec::ToolSpec;
use crate::Provider;
use names::NameRule;
use serde_json::Value;
use strict::Target;

/// The shape of one export: a provider with strict mode on or off, or the neutral list.
/// Internal: users name a [`Provider`] and turn strictness on with [`Export::strict`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// OpenAI Chat Completions `tools`: `[{"type": "function", "function": {...}}]`.
    OpenAiChat { strict: bool },
    /// OpenAI Responses `tools`: `[{"type": "function", "name", ...}]`.
    OpenAiResponses { strict: bool },
    /// Anthropic Messages `tools`: `[{"name", "description", "input_schema"}]`.
    Anthropic { strict: bool },
    /// Gemini `{"functionDeclarations": [...]}`, schemas in Gemini's OpenAPI subset.
    Gemini,
    /// Model Context Protocol `tools/list` entries.
    Mcp,
    /// The provider-neutral list (`plain.rs`).
    Plain,
    /// TensorZero tools: `[{"name", "description", "parameters", "strict"}]`.
    TensorZero { strict: bool },
    /// Ollama `tools`: Chat Completions' shape without `strict`.
    Ollama,
}

impl Dialect {
    /// How many dialects there are, strict variants counted apart.
    pub(crate) const COUNT: usize = 12;

    /// `provider`'s dialect, strict where it has a strict mode and `strict` asks for it.
    pub(crate) fn of(provider: Provider, strict: bool) -> Dialect {
        match provider {
            Provider::OpenAiChat => Dialect::OpenAiChat { strict },
            Provider::OpenAiResponses => Dialect::OpenAiResponses { strict },
            Provider::Anthropic => Dialect::Anthropic { strict },
            Provider::Gemini => Dialect::Gemini,
            Provider::Mcp => Dialect::Mcp,
            Provider::TensorZero => Dialect::TensorZero { strict },
            Provider::Ollama => Dialect::Ollama,
        }
    }

    /// The provider it is the shape of (`None` for the neutral list).
    pub(crate) fn provider(self) -> Option<Provider> {
        match self {
            Dialect::OpenAiChat { .. } => Some(Provider::OpenAiChat),
            Dialect::OpenAiResponses { .. } => Some(Provider::OpenAiResponses),
            Dialect::Anthropic { .. } => Some(Provider::Anthropic),
            Dialect::Gemini => Some(Provider::Gemini),
            Dialect::Mcp => Some(Provider::Mcp),
            Dialect::TensorZero { .. } => Some(Provider::TensorZero),
            Dialect::Ollama => Some(Provider::Ollama),
            Dialect::Plain => None,
        }
    }

    /// This dialect's place among the [`COUNT`](Self::COUNT).
    pub(crate) fn index(self) -> usize {
        match self {
            Dialect::OpenAiChat { strict } => usize::from(strict),
            Dialect::OpenAiResponses { strict } => 2 + usize::from(strict),
            Dialect::Anthropic { strict } => 4 + usize::from(strict),
            Dialect::Gemini => 6,
            Dialect::Mcp => 7,
            Dialect::Plain => 8,
            Dialect::TensorZero { strict } => 9 + usize::from(strict),
            Dialect::Ollama => 11,
        }
    }

    /// Whether strict mode is asked for.
    pub(crate) fn is_strict(self) -> bool {
        matches!(
            self,
            Dialect::OpenAiChat { strict: true }
                | Dialect::OpenAiResponses { strict: true }
                | Dialect::Anthropic { strict: true }
                | Dialect::TensorZero { strict: true }
        )
    }

    fn strict_target(self) -> Option<Target> {
        match self {
            // TensorZero passes `strict` on to OpenAI-compatible providers: OpenAI's rules.
            Dialect::OpenAiChat { .. }
            | Dialect::OpenAiResponses { .. }
            | Dialect::TensorZero { .. } => Some(Target::OpenAi),
            Dialect::Anthropic { .. } => Some(Target::Anthropic),
            Dialect::Gemini | Dialect::Mcp | Dialect::Plain | Dialect::Ollama => None,
        }
    }

    /// The naming rule the dialect's names follow (`None`: the tools' own names).
    fn name_rule(self) -> Option<NameRule> {
        match self {
            Dialect::OpenAiChat { .. }
            | Dialect::OpenAiResponses { .. }
            | Dialect::Anthropic { .. }
            // TensorZero sends the name on to the model's provider: the strictest common rule.
            | Dialect::TensorZero { .. }
            // Ollama checks no name, but the same server takes the same tools on its
            // OpenAI-compatible endpoint.
            | Dialect::Ollama => Some(NameRule::OpenAiAnthropic),
            Dialect::Gemini => Some(NameRule::Gemini),
            Dialect::Mcp => Some(NameRule::Mcp),
            Dialect::Plain => None,
        }
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
        Dialect::Plain => plain::tools(registry),
        Dialect::TensorZero { strict } => tensorzero::tools(registry, strict),
        Dialect::Ollama => crate::providers::ollama::tools(registry),
    }
}

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
        let result = match Dialect::of(provider, true).strict_target() {
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
