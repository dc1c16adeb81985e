//! Approval: destructive tools (or every tool, by policy) run only when an [`Approver`] says so.

pub use crate::def::BoxFuture;
use crate::def::ToolFlags;
use crate::spec::ToolSpec;

/// An approver's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Approval {
    /// Run the call.
    Allow,
    /// Don't run it; the reason is told to the model.
    Deny {
        /// Why, in a sentence for the model.
        reason: String,
    },
}

impl Approval {
    /// A denial with a reason.
    pub fn deny(reason: impl Into<String>) -> Approval {
        Approval::Deny {
            reason: reason.into(),
        }
    }
}

/// What an approver is asked about: the tool and the call's final arguments.
#[derive(Debug)]
pub struct ApprovalRequest<'a> {
    /// The tool the call would run.
    pub tool: &'a ToolSpec,
    /// The call's id, if it has one.
    pub call_id: Option<&'a str>,
    /// The arguments as the model sent them.
    pub arguments: &'a str,
}

/// Decides whether a call may run: allow, deny with a reason, or ask a human first.
///
/// Any `Fn(&ApprovalRequest) -> Approval` closure is an approver; implement the trait for an
/// approver that must wait (a prompt in a UI, a message to an operator).
///
/// ```
/// use tool_runtime::Registry;
/// use tool_runtime::pipeline::{Approval, ApprovalRequest};
///
/// let registry = Registry::builder()
///     .approver(|request: &ApprovalRequest<'_>| {
///         if request.arguments.contains("rm") {
///             Approval::deny("removing files is not allowed in this session")
///         } else {
///             Approval::Allow
///         }
///     })
///     .build()
///     .unwrap();
/// # let _ = registry;
/// ```
pub trait Approver: Send + Sync + 'static {
    /// Answers one request.
    fn approve<'a>(&'a self, request: &'a ApprovalRequest<'a>) -> BoxFuture<'a, Approval>;
}

impl<F> Approver for F
where
    F: Fn(&ApprovalRequest<'_>) -> Approval + Send + Sync + 'static,
{
    fn approve<'a>(&'a self, request: &'a ApprovalRequest<'a>) -> BoxFuture<'a, Approval> {
        let answer = self(request);
        Box::pin(std::future::ready(answer))
    }
}

/// Which calls need approval.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ApprovalPolicy {
    /// Calls to `#[tool(destructive)]` tools (the default). Without an approver they are denied.
    #[default]
    Destructive,
    /// Every call. Without an approver every call is denied.
    Every,
    /// None: destructive tools run without asking.
    Never,
}

impl ApprovalPolicy {
    pub(crate) fn applies_to(self, flags: ToolFlags) -> bool {
        match self {
            ApprovalPolicy::Destructive => flags.destructive,
            ApprovalPolicy::Every => true,
            ApprovalPolicy::Never => false,
        }
    }
}
