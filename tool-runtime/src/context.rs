//! The context of one call, and the values a tool can receive from it instead of from the model.

#[cfg(feature = "client")]
use crate::client::AskContext;
use crate::error::{ErrorCode, ToolError};
use crate::notify::{self, LogLevel, Notification, NotificationKind, Notifier};
use crate::output::ToolOutput;
use crate::spec::ToolSpec;
use crate::state::{State, StateMap, StateRequirement};
use std::sync::Arc;

/// What the runtime knows about the call being made; the source of injected parameters.
pub struct CallContext<'a> {
    pub(crate) tool: &'a str,
    pub(crate) call_id: Option<&'a str>,
    pub(crate) states: &'a Arc<StateMap>,
    pub(crate) catalog: &'a Arc<[Arc<ToolSpec>]>,
    /// Run a sync tool during invoke instead of handing back a closure: for callers that run
    /// it on the current thread anyway, this saves boxing the closure.
    pub(crate) inline: bool,
    /// The call's hold on the gate, lent to its questions to the client (`dispatch::hold`):
    /// `None` for a call with no client to ask.
    #[cfg_attr(not(feature = "client"), allow(dead_code))]
    pub(crate) held: Option<&'a Arc<crate::dispatch::hold::CallHold>>,
}

impl<'a> CallContext<'a> {
    /// The name of the tool being called.
    pub fn tool_name(&self) -> &'a str {
        self.tool
    }

    /// The id the model gave the call, if any.
    pub fn call_id(&self) -> Option<&'a str> {
        self.call_id
    }
}

/// A tool parameter of this type receives the call's context: the tool's name and the call's
/// id, the registry's state and tools, a way to report progress and log lines while the
/// call runs ([`progress`](ToolContext::progress), [`log`](ToolContext::log)), and a way to
/// ask the MCP client for a model's message or the user's input
/// ([`sample`](ToolContext::sample), [`elicit`](ToolContext::elicit); see
/// [`client`](crate::client)).
///
/// ```
/// use tool_runtime::{tool, ToolContext};
///
/// /// Say which call this is.
/// #[tool]
/// fn whoami(ctx: ToolContext) -> String {
///     format!("{} ({})", ctx.tool_name(), ctx.call_id().unwrap_or("no id"))
/// }
/// ```
#[derive(Clone)]
pub struct ToolContext {
    tool: String,
    call_id: Option<String>,
    states: Arc<StateMap>,
    catalog: Arc<[Arc<ToolSpec>]>,
    /// Where progress and log messages go: the caller's [`Notifier`], if it set one.
    notifier: Option<Notifier>,
    /// Who sampling and elicitation requests go to: the caller's
    /// [`Client`](crate::client::Client), if it set one.
    #[cfg(feature = "client")]
    pub(crate) asking: AskContext,
}

impl ToolContext {
    /// The name of the tool being called.
    pub fn tool_name(&self) -> &str {
        &self.tool
    }

    /// The id the model gave the call, if any.
    pub fn call_id(&self) -> Option<&str> {
        self.call_id.as_deref()
    }

    /// A value given to the registry builder with `.state(...)`, for tools that can't name
    /// their state in their signature (a [`Tool`](crate::Tool) impl, a dynamic tool).
    pub fn state<T: Send + Sync + 'static>(&self) -> Option<State<T>> {
        self.states.get::<T>().map(State)
    }

    /// Every tool of the registry this call runs in, in the registry's order
    /// ([`Registry::specs`](crate::Registry::specs)): for tools that help the model find other
    /// tools.
    pub fn tools(&self) -> impl ExactSizeIterator<Item = &ToolSpec> {
        self.catalog.iter().map(|spec| &**spec)
    }

    /// One tool of the registry, by name.
    pub fn tool(&self, name: &str) -> Option<&ToolSpec> {
        self.tools().find(|spec| spec.name() == name)
    }

    /// Says how far the call has got: `progress` out of `total` when the total is known (it
    /// should only grow). Over MCP it reaches the client as `notifications/progress`, when the
    /// client asked for progress; otherwise it is a `tracing` event. Never blocks.
    pub fn progress(&self, progress: f64, total: Option<f64>, message: Option<&str>) {
        self.notify(NotificationKind::Progress {
            progress,
            total,
            message: message.map(str::to_owned),
        });
    }

    /// Sends a log line about the call. Over MCP it reaches the client as
    /// `notifications/message` (at or above the level the client set); otherwise it is a
    /// `tracing` event. Never blocks.
    pub fn log(&self, level: LogLevel, message: impl Into<String>) {
        self.notify(NotificationKind::Log {
            level,
            message: message.into(),
        });
    }

    fn notify(&self, kind: NotificationKind) {
        let message = Notification {
            tool: self.tool.clone(),
            call_id: self.call_id.clone(),
            kind,
        };
        match &self.notifier {
            Some(notifier) => notifier.send(message),
            None => notify::trace(&message),
        }
    }
}

impl std::fmt::Debug for ToolContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolContext")
            .field("tool", &self.tool)
            .field("call_id", &self.call_id)
            .finish_non_exhaustive()
    }
}

/// Whether a call starting now may ask a client: one is in scope
/// ([`Client::scope`](crate::client::Client::scope)), so the call lends its hold on the gate
/// to its questions. Never, without the `client` feature: there is nothing to ask through.
pub(crate) fn may_ask() -> bool {
    #[cfg(feature = "client")]
    return crate::client::Client::in_scope();
    #[cfg(not(feature = "client"))]
    false
}

/// A parameter type the runtime supplies instead of the model: `State<T>`, `ToolContext`, or
/// your own type marked `#[tool(inject)]`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` can't be injected into a tool",
    note = "injected parameters are `State<T>` (a value given to `Registry::builder().state(..)`), `ToolContext`, or your own type implementing `Inject`"
)]
pub trait Inject: Sized {
    /// The state this parameter needs, checked when the registry is built.
    const REQUIREMENT: Option<StateRequirement>;

    /// Takes the value from the call's context.
    fn inject(cx: &CallContext<'_>) -> Result<Self, ToolOutput>;
}

impl<T: Send + Sync + 'static> Inject for State<T> {
    const REQUIREMENT: Option<StateRequirement> = Some(StateRequirement::of::<T>());

    fn inject(cx: &CallContext<'_>) -> Result<Self, ToolOutput> {
        cx.states.get::<T>().map(State).ok_or_else(|| {
            ToolOutput::from(
                ToolError::with_code(
                    ErrorCode::MissingState,
                    format!(
                        "the registry has no value of type {}",
                        std::any::type_name::<T>()
                    ),
                )
                .for_tool(cx.tool),
            )
        })
    }
}

impl Inject for ToolContext {
    const REQUIREMENT: Option<StateRequirement> = None;

    fn inject(cx: &CallContext<'_>) -> Result<Self, ToolOutput> {
        Ok(ToolContext {
            tool: cx.tool.to_owned(),
            call_id: cx.call_id.map(str::to_owned),
            states: Arc::clone(cx.states),
            catalog: Arc::clone(cx.catalog),
            notifier: Notifier::current(),
            #[cfg(feature = "client")]
            asking: AskContext::for_call(cx.held),
        })
    }
}
