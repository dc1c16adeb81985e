//! Which tools go out strict, with what schema: each tool's lowering, then the request-wide
//! budgets (Anthropic's), spent in registry order.

use super::issues::{StrictIssue, StrictIssueKind, StrictLimit};
use super::limits::{self, Budget};
use super::names::NameRule;
use super::strict::{self, Target};
use super::tool_list::ToolList;
use crate::spec::ToolSpec;
use serde_json::Value;

/// One tool as an OpenAI or Anthropic export lists it.
pub(crate) struct Planned<'r> {
    /// The name the provider sees (see `names.rs`).
    pub name: &'r str,
    pub spec: &'r ToolSpec,
    /// The strict form when `strict`, else the schema as the registry holds it (but for a
    /// `$schema`, [`super::for_model`]).
    pub schema: Value,
    pub strict: bool,
}

/// Every tool's entry; with `strict`, each in strict form unless it can't be.
pub(crate) fn entries(tools: ToolList<'_>, target: Target, strict: bool) -> Vec<Planned<'_>> {
    let outcomes = if strict {
        strict_all(tools.specs(), target, Explain::OutcomeOnly)
    } else {
        Vec::new()
    };
    let mut outcomes = outcomes.into_iter();
    tools
        .specs()
        .enumerate()
        .map(|(i, spec)| {
            let (schema, strict) = match outcomes.next() {
                Some(Ok(lowered)) => (lowered, true),
                _ => (super::for_model(spec.input_schema()), false),
            };
            Planned {
                name: tools.name(NameRule::OpenAiAnthropic, i),
                spec,
                schema,
                strict,
            }
        })
        .collect()
}

/// How much a caller of [`strict_all`] needs to know of a tool that can't go out strict.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Explain {
    /// Every reason (`strict_check`): the tool's own schema's first, then the budget's.
    Everything,
    /// Only that it can't (an export): a tool that Anthropic's spent budget can't take
    /// whatever its schema is not lowered just to be told so.
    OutcomeOnly,
}

/// The strict form of each tool, in order, or the reasons it can't have one: its own
/// schema's, then what would overrun the request's budget.
pub(crate) fn strict_all<'a>(
    specs: impl Iterator<Item = &'a ToolSpec>,
    target: Target,
    explain: Explain,
) -> Vec<Result<Value, Vec<StrictIssue>>> {
    let mut spent = Budget::default();
    let mut strict_tools = 0;
    specs
        .map(|spec| {
            if target == Target::Anthropic && explain == Explain::OutcomeOnly {
                // The root's optional parameters are the least the tool would spend: the
                // lowering keeps them as they are.
                let least = Budget {
                    optional: limits::root_optional(spec.input_schema()),
                    unions: 0,
                };
                let over = overruns(strict_tools, spent, least);
                if !over.is_empty() {
                    return Err(over);
                }
            }
            let lowered = strict_one(spec, target)?;
            if target == Target::Anthropic {
                let need = limits::anthropic(&lowered);
                let over = overruns(strict_tools, spent, need);
                if !over.is_empty() {
                    return Err(over);
                }
                strict_tools += 1;
                spent.optional += need.optional;
                spent.unions += need.unions;
            }
            Ok(lowered)
        })
        .collect()
}

/// What Anthropic's request budget can't take if a tool needing `need` goes out strict after
/// `strict_tools` strict tools that spent `spent`.
fn overruns(strict_tools: usize, spent: Budget, need: Budget) -> Vec<StrictIssue> {
    [
        (
            StrictLimit::StrictTools,
            strict_tools + 1,
            limits::ANTHROPIC_MAX_STRICT_TOOLS,
        ),
        (
            StrictLimit::OptionalParams,
            spent.optional + need.optional,
            limits::ANTHROPIC_MAX_OPTIONAL,
        ),
        (
            StrictLimit::UnionParams,
            spent.unions + need.unions,
            limits::ANTHROPIC_MAX_UNIONS,
        ),
    ]
    .into_iter()
    .filter(|(_, value, max)| value > max)
    .map(|(limit, value, max)| StrictIssue::new("", StrictIssueKind::Limit { limit, value, max }))
    .collect()
}

/// One tool's strict form, judged by its own schema and the per-schema limits.
fn strict_one(spec: &ToolSpec, target: Target) -> Result<Value, Vec<StrictIssue>> {
    if !spec.flags().strict {
        return Err(vec![StrictIssue::new("", StrictIssueKind::OptedOut)]);
    }
    let lowered = strict::lower(spec.input_schema(), target)?;
    let issues = match target {
        Target::OpenAi => limits::openai_bounded(&lowered.schema, lowered.levels_at_most),
        Target::Anthropic => Vec::new(),
    };
    if issues.is_empty() {
        Ok(lowered.schema)
    } else {
        Err(issues)
    }
}
