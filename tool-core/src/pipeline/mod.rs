//! The call pipeline: every stage a call passes through between the model's text and the
//! tool, each a function over the tool's entry (`Entry`) and the registry's settings
//! (`Config`), in the order a call flows:
//!
//! 1. `limits`: size and depth caps on the raw text, and `tool_lookup`: the tool by name;
//! 2. `repair`: harmless mistakes fixed under a [`RepairPolicy`], each recorded;
//! 3. `resolve`: the ParamResolver fills what the model left out;
//! 4. `validate`: JSON Schema validation, every error described for the model;
//! 5. deserialize into the typed arguments (`prepare` runs 1 to 5), then `dispatch` runs it;
//! 6. `output_check`: a declared output schema checked, and the output cap kept.
//!
//! Tools whose schema the typed deserializer enforces exactly skip the intermediate JSON
//! value when the call is good (see `exact`); any call that fails there takes the full
//! path, so the model always gets the full path's answer. Nothing here calls back up into
//! `dispatch` or the registry: [`Registry`](crate::Registry) calls each stage in turn.
//!
//! What a program plugs into those stages is named here too: the values injected into a tool
//! ([`Inject`], from the call's [`CallContext`]; a type that needs a registry state says so
//! in [`Inject::REQUIREMENT`], a [`StateRequirement`], so a missing one is a build error, not
//! a failed call), the approval of destructive calls ([`Approver`], [`ApprovalPolicy`]), and
//! the token that cancels a batch ([`CancellationToken`]).

pub(crate) mod checked;
pub(crate) mod config;
pub(crate) mod entry;
pub(crate) mod exact;
pub(crate) mod limits;
pub(crate) mod number_text;
pub(crate) mod output_check;
pub(crate) mod prepare;
#[doc(hidden)]
pub mod repair;
pub(crate) mod report;
pub(crate) mod resolve;
pub(crate) mod span;
pub(crate) mod tool_lookup;
pub(crate) mod validate;

pub use crate::context::{FilledBy, FilledField, ParamResolver, ResolverFn};
// The values injected into a tool, its approval and its cancellation are stages of a call too,
// so they are named here rather than in modules of their own.
pub use crate::approval::{Approval, ApprovalPolicy, ApprovalRequest, Approver};
pub use crate::context::{CallContext, Inject};
pub use crate::def::BoxFuture;
pub use crate::state::StateRequirement;
pub use crate::violation::Violation;
pub(crate) use config::Config;
pub(crate) use entry::{Entry, Handler};
pub use limits::{LimitExceeded, Limits};
pub use repair::{Repair, RepairKind, RepairPolicy};
pub use report::{CallReport, StageTimings};
pub use tokio_util::sync::CancellationToken;
