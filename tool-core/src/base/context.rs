//! The context of one call, and the values a tool can receive from it instead of from the model;
//! and the same context as a resolver function sees it ([`ParamResolver`]), filling what the
//! model left out.

#[cfg(feature = "client")]
use crate::client::AskContext;
use crate::error::{ErrorCode, ToolError};
use crate::notify::{self, LogLevel, Notification, NotificationKind, Notifier};
use crate::output::ToolOutput;
use crate::pointer::push_segment;
use crate::schema_nav::{SchemaNav, Types};
use crate::spec::ToolSpec;
use crate::state::{State, StateMap, StateRequirement};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
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
    pub(crate) held: Option<&'a Arc<crate::hold::CallHold>>,
    /// The registry running the call, for a tool that calls its peers (code mode's).
    #[cfg_attr(not(feature = "code"), allow(dead_code))]
    pub(crate) calls: Option<&'a dyn Calls>,
}

/// What a registry is to a tool that calls the other tools (code mode): a call by name
/// through every stage, and the tools' specs. Declared here, implemented by the registry, so
/// that the floor never imports the façade.
#[cfg_attr(not(feature = "code"), allow(dead_code))]
pub(crate) trait Calls: Sync {
    /// One call through every stage, as a model's call runs.
    fn call<'a>(
        &'a self,
        name: &'a str,
        call_id: Option<&'a str>,
        args: &'a str,
    ) -> crate::def::BoxFuture<'a, ToolOutput>;
    /// A tool's spec, by its exact name.
    fn spec(&self, name: &str) -> Option<&ToolSpec>;
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

/// A resolver function: fills arguments of one tool, reading the call's context and state.
///
/// ```
/// use tool_runtime::{tool, Registry, ToolError};
/// use tool_runtime::pipeline::ParamResolver;
///
/// struct Session {
///     cwd: String,
/// }
///
/// /// Fill `cwd` from the session when the model leaves it out.
/// fn session_cwd(args: &mut ParamResolver<'_>) -> Result<(), ToolError> {
///     let session = args.state::<Session>().ok_or_else(|| ToolError::new("no session"))?;
///     args.fill("cwd", &session.cwd);
///     Ok(())
/// }
///
/// /// Run a command.
/// #[tool]
/// fn where_am_i(
///     /// The working directory; the session's when left out.
///     cwd: Option<String>,
/// ) -> String {
///     cwd.unwrap_or_default()
/// }
///
/// let registry = Registry::builder()
///     .state(Session { cwd: "/work".into() })
///     .tool_resolver("where_am_i", session_cwd)
///     .build()
///     .unwrap();
/// assert_eq!(registry.call_blocking("where_am_i", "{}").to_model_text(), "/work");
/// ```
pub type ResolverFn = fn(&mut ParamResolver<'_>) -> Result<(), ToolError>;

/// A resolver held by the registry: a fn or a closure.
pub(crate) type SharedResolver =
    Arc<dyn Fn(&mut ParamResolver<'_>) -> Result<(), ToolError> + Send + Sync>;

/// Who filled a field the model left out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FilledBy {
    /// A resolver function registered for the tool.
    Resolver,
    /// A context default registered for every tool with that parameter.
    ContextDefault,
    /// The `default` in the tool's schema.
    SchemaDefault,
}

/// One field the ParamResolver filled.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FilledField {
    /// Where, as a JSON pointer into the arguments.
    pub pointer: String,
    /// The value filled in.
    pub value: Value,
    /// Who filled it.
    pub by: FilledBy,
}

/// The arguments of one call as a resolver sees them: read what the model sent, fill what it
/// left out.
pub struct ParamResolver<'a> {
    pub(crate) args: &'a mut Map<String, Value>,
    pub(crate) nav: SchemaNav<'a>,
    pub(crate) cx: &'a CallContext<'a>,
    pub(crate) filled: &'a mut Vec<FilledField>,
    pub(crate) by: FilledBy,
}

impl<'a> ParamResolver<'a> {
    /// The tool being called.
    pub fn tool_name(&self) -> &str {
        self.cx.tool_name()
    }

    /// The call's id, if the model gave one.
    pub fn call_id(&self) -> Option<&str> {
        self.cx.call_id()
    }

    /// An argument's current value.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.args.get(name)
    }

    /// Whether an argument is missing: absent, or `null` where the schema doesn't accept null.
    pub fn is_missing(&self, name: &str) -> bool {
        missing(self.args, self.nav, name)
    }

    /// Fills an argument if it is missing; returns whether it did. A value that fails to
    /// serialize is not filled.
    pub fn fill<T: Serialize + ?Sized>(&mut self, name: &str, value: &T) -> bool {
        if !self.is_missing(name) {
            return false;
        }
        let Ok(value) = serde_json::to_value(value) else {
            return false;
        };
        let mut pointer = String::new();
        push_segment(&mut pointer, name);
        self.filled.push(FilledField {
            pointer,
            value: value.clone(),
            by: self.by,
        });
        self.args.insert(name.to_owned(), value);
        true
    }

    /// A value given to the registry builder with `.state(...)`.
    pub fn state<T: Send + Sync + 'static>(&self) -> Option<State<T>> {
        self.cx.states.get::<T>().map(State)
    }
}

fn missing(args: &Map<String, Value>, nav: SchemaNav<'_>, name: &str) -> bool {
    match args.get(name) {
        None => true,
        Some(Value::Null) => nav
            .property(nav.root(), name)
            .is_some_and(|schema| !nav.types(schema).contains(Types::NULL)),
        Some(_) => false,
    }
}
