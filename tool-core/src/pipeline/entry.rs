//! One registry entry: a tool and everything prepared for calling it, the value every stage
//! of a call reads.

use crate::context::CallContext;
use crate::context::SharedResolver;
use crate::def::{Args, Invoke, Pending};
use crate::pipeline::checked::PropertyChecks;
use crate::pipeline::output_check::OutputCheck;
use crate::pipeline::validate::Validator;
use crate::spec::ToolSpec;
use crate::tool::RuntimeTool;
use serde_json::Value;
use std::sync::Arc;
use std::time::Duration;

/// How a call reaches the tool's code.
#[derive(Clone)]
pub(crate) enum Handler {
    /// A `#[tool]` fn: a plain fn pointer, no indirection.
    Static(Invoke),
    /// A tool registered at run time.
    Runtime(Arc<dyn RuntimeTool>),
}

impl Handler {
    /// Inlined: out of line, the 72-byte `Args` (a `serde_json::Value` under
    /// `preserve_order`) was copied once more on every call, about 25 instructions.
    #[inline]
    pub(crate) fn invoke<'a>(&'a self, args: Args<'a>, cx: &'a CallContext<'a>) -> Pending<'a> {
        match self {
            Handler::Static(invoke) => invoke(args, cx),
            Handler::Runtime(tool) => tool.invoke(args, cx),
        }
    }
}

/// One tool and everything prepared for calling it.
pub(crate) struct Entry {
    pub spec: Arc<ToolSpec>,
    pub handler: Handler,
    /// `None` when validation is turned off.
    pub validator: Option<Validator>,
    /// The declared output schema, compiled; `None` for a tool that declares none.
    pub output_check: Option<Box<OutputCheck>>,
    /// Whether serde enforces the schema exactly (see `pipeline::exact`).
    pub exact: bool,
    /// Checks of the parameters serde doesn't fully enforce, when that is all that stands
    /// between the typed deserializer and full validation (see `pipeline::checked`).
    pub checks: Option<PropertyChecks>,
    pub resolvers: Vec<SharedResolver>,
    /// The schema the ParamResolver reads when some of the tool's defaults are unusable (they
    /// are moved aside in it: `registry::defaults`); `None` when it reads the tool's own.
    pub resolve_schema: Option<Box<Value>>,
    /// Whether a context default names one of this tool's parameters.
    pub uses_context_defaults: bool,
    /// Whether arguments go into a Rust type (which applies schema defaults itself); a
    /// dynamic tool's don't, so its calls always take the full path.
    pub typed: bool,
    /// Whether the call may run beside others (see `dispatch::gate`).
    pub parallel: bool,
    /// Whether the call passes the gate and the concurrency limit at all: every tool but
    /// code mode's, whose calls pass them one by one (holding a pass itself, it would keep
    /// an exclusive call it makes waiting for it).
    pub gated: bool,
    /// How long a call may run: this tool's timeout, or the registry's default.
    pub timeout: Option<Duration>,
    /// Whether the approval policy covers this tool, so its calls ask the approver first.
    pub needs_approval: bool,
    /// The most bytes of output a call returns: this tool's cap, or the registry's.
    pub max_output: usize,
    /// Whether a good call goes from its text straight to the typed arguments: a typed tool
    /// with nothing to resolve, whose schema serde enforces exactly or isn't validated.
    pub direct: bool,
    /// Whether `call_blocking` may run a good call right where it is: a direct tool that
    /// doesn't [need the runtime](Entry::needs_runtime).
    pub runs_inline: bool,
}

impl Entry {
    /// Whether a call must run on an async runtime even under `call_blocking`: an approver to
    /// ask first, or a timeout to keep.
    pub(crate) fn needs_runtime(&self) -> bool {
        self.needs_approval || self.timeout.is_some()
    }
}
