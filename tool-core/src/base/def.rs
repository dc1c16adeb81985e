//! The definition `#[tool]` generates for each fn, and the erased call it points to.

use crate::context::CallContext;
use crate::error::{ErrorCode, ToolError};
use crate::error_format::ErrorFormat;
use crate::output::ToolOutput;
use crate::state::StateRequirement;
use serde::de::DeserializeOwned;
use std::fmt;
use std::future::Future;
use std::pin::Pin;

/// A tool defined by `#[tool]`: `my_fn::TOOL`. Collected automatically through `inventory`,
/// or passed by hand to [`RegistryBuilder::register`](crate::RegistryBuilder::register).
///
/// Its fields are filled in by the macro; read a tool through its [`ToolSpec`](crate::ToolSpec).
#[derive(Clone, Copy)]
pub struct ToolDef {
    #[doc(hidden)]
    pub name: &'static str,
    #[doc(hidden)]
    pub title: Option<&'static str>,
    #[doc(hidden)]
    pub description: &'static str,
    #[doc(hidden)]
    pub flags: ToolFlags,
    #[doc(hidden)]
    pub schema: fn(&mut schemars::SchemaGenerator) -> schemars::Schema,
    /// The return value's schema, from `#[tool(output_schema)]`.
    #[doc(hidden)]
    pub output_schema: Option<fn(&mut schemars::SchemaGenerator) -> schemars::Schema>,
    #[doc(hidden)]
    pub invoke: Invoke,
    #[doc(hidden)]
    pub requires: &'static [Option<StateRequirement>],
    #[doc(hidden)]
    pub resolver: Option<crate::context::ResolverFn>,
    #[doc(hidden)]
    pub timeout_ms: Option<u64>,
    #[doc(hidden)]
    pub max_output: Option<usize>,
    #[doc(hidden)]
    pub error_format: ErrorFormat,
    #[doc(hidden)]
    pub location: SourceLocation,
}

impl ToolDef {
    /// The tool's name.
    pub fn name(&self) -> &'static str {
        self.name
    }
}

impl fmt::Debug for ToolDef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolDef")
            .field("name", &self.name)
            .field("location", &self.location)
            .finish_non_exhaustive()
    }
}

/// Hints about what a tool does, set as flags on `#[tool(...)]`; exported as MCP annotations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ToolFlags {
    /// The tool only reads (`#[tool(read_only)]`).
    pub read_only: bool,
    /// The tool may destroy or overwrite data (`#[tool(destructive)]`).
    pub destructive: bool,
    /// Calling the tool twice with the same arguments has no further effect (`#[tool(idempotent)]`).
    pub idempotent: bool,
    /// The tool reaches outside systems, such as the web (`#[tool(open_world)]`).
    pub open_world: bool,
    /// The tool may be exported in a provider's strict mode (default `true`;
    /// `#[tool(strict = false)]` opts out).
    pub strict: bool,
    /// Whether calls may run beside other calls (`#[tool(parallel)]`,
    /// `#[tool(parallel = false)]`); `None` follows `read_only`.
    pub parallel: Option<bool>,
    /// A sync tool that runs on the calling task instead of tokio's blocking pool
    /// (`#[tool(inline)]`): for cheap fns, where the hop to another thread costs more than
    /// the work. A slow one would hold up the executor's thread, and a timeout can't stop
    /// it, so the macro refuses `inline` with `timeout` (and on an async fn).
    pub inline: bool,
    /// Whether an MCP client may run the tool as a task (`#[tool(task)]`,
    /// `#[tool(task = "required")]`): answered at once with a task id, the result
    /// fetched later. Only MCP reads it; elsewhere a call runs as any other.
    pub task: TaskSupport,
    /// The call becomes a task when the tool says so (`#[tool(task, defer_task)]`), not
    /// when it starts: until the tool calls
    /// [`ToolContext::continue_as_task`](crate::ToolContext::continue_as_task) it is a plain
    /// call, whose questions to the client are answered in input-required rounds (protocol
    /// 2026-07-28) or as requests; a call that finishes first answers with its result.
    /// Ignored when `task` is [`TaskSupport::Forbidden`].
    pub defer_task: bool,
}

/// Whether a tool runs as an MCP task (the `io.modelcontextprotocol/tasks` extension):
/// its call answered at once with a task id, the result polled for with `tasks/get`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TaskSupport {
    /// Never a task: every call answers with its result (the default).
    #[default]
    Forbidden,
    /// A task for clients that support tasks, a plain call for the others
    /// (`#[tool(task)]`, `#[tool(task = "optional")]`).
    Optional,
    /// Only as a task: a client without task support gets the spec's
    /// "missing required client capability" error (`#[tool(task = "required")]`).
    Required,
}

impl ToolFlags {
    /// No hints: not read-only, not destructive, strict mode allowed, parallel as `read_only`
    /// says (what [`Default`] gives, usable in a `const`).
    pub const DEFAULT: ToolFlags = ToolFlags {
        read_only: false,
        destructive: false,
        idempotent: false,
        open_world: false,
        strict: true,
        parallel: None,
        inline: false,
        task: TaskSupport::Forbidden,
        defer_task: false,
    };
}

impl Default for ToolFlags {
    fn default() -> ToolFlags {
        ToolFlags::DEFAULT
    }
}

/// Where a tool was defined, for error messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SourceLocation {
    /// The source file.
    pub file: &'static str,
    /// The line of the `#[tool]` attribute.
    pub line: u32,
    /// The column of the `#[tool]` attribute.
    pub column: u32,
}

impl fmt::Display for SourceLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// The erased entry point of a `#[tool]` fn: arguments and context in, a pending output out.
pub type Invoke = for<'a> fn(Args<'a>, &'a CallContext<'a>) -> Pending<'a>;

/// The arguments of one call, as the pipeline hands them to the tool.
pub enum Args<'a> {
    /// JSON text, deserialized straight into the tool's argument struct.
    Text(&'a str),
    /// An already parsed (and possibly repaired) JSON value.
    Value(serde_json::Value),
}

impl Args<'_> {
    /// Deserializes into the tool's argument struct; failures become error outputs that say
    /// what was wrong with the JSON.
    ///
    /// # Errors
    ///
    /// An `invalid_arguments` error output, naming what the JSON got wrong.
    pub fn parse<T: DeserializeOwned>(self, cx: &CallContext<'_>) -> Result<T, ToolOutput> {
        // serde's derived structs also accept a JSON array of the fields in order; the schema
        // says "object", so only an object may reach the deserializer.
        let result = match self {
            // Models put nothing before the `{`: check that first, trimming only otherwise.
            Args::Text(text) if text.as_bytes().first() == Some(&b'{') => {
                serde_json::from_str(text)
            }
            Args::Text(text) => match text.trim_start().as_bytes().first() {
                Some(b'{') | None => serde_json::from_str(text),
                Some(_) => match serde_json::from_str::<serde::de::IgnoredAny>(text) {
                    Ok(_) => return Err(not_an_object(cx.tool)),
                    Err(e) => Err(e),
                },
            },
            // Through text, not `from_value`: one instantiation of the arguments' `Deserialize`
            // per tool instead of two, which is most of what `#[tool]` adds to compile time.
            // Only repaired or filled-in arguments come this way.
            Args::Value(value) if value.is_object() => serde_json::from_str(&value.to_string()),
            Args::Value(_) => return Err(not_an_object(cx.tool)),
        };
        result.map_err(|e| argument_error(cx.tool, &e))
    }
}

fn not_an_object(tool: &str) -> ToolOutput {
    ToolOutput::from(
        ToolError::with_code(
            ErrorCode::InvalidArguments,
            format!("Invalid arguments for {tool}: the arguments must be a JSON object of named parameters."),
        )
        .for_tool(tool),
    )
}

fn argument_error(tool: &str, error: &serde_json::Error) -> ToolOutput {
    use serde_json::error::Category;
    let (code, message) = match error.classify() {
        Category::Syntax | Category::Eof => (
            ErrorCode::MalformedArguments,
            format!("Arguments for {tool} are not valid JSON: {error}. Send a JSON object."),
        ),
        Category::Data | Category::Io => (
            ErrorCode::InvalidArguments,
            format!("Invalid arguments for {tool}: {error}."),
        ),
    };
    ToolOutput::from(ToolError::with_code(code, message).for_tool(tool))
}

/// A boxed future the runtime can hold for any tool.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// What invoking a tool gives back: an output (refused, or already run inline), or the run
/// still to do. [`Pending::run`] takes any of them to its output; more variants may come, so a
/// `match` on it needs a `_` arm.
#[non_exhaustive]
pub enum Pending<'a> {
    /// Finished without running: the arguments were refused, or a value couldn't be injected.
    Refused(ToolOutput),
    /// A sync fn the caller let run inline, and its output. Kept apart from `Refused`, so a
    /// tool's own error is never taken for refused arguments and the tool run again.
    Ran(ToolOutput),
    /// A sync fn, ready to run: the dispatcher chooses the thread (the blocking pool).
    Sync(Box<dyn FnOnce() -> ToolOutput + Send + 'static>),
    /// An async fn's future.
    Async(BoxFuture<'a, ToolOutput>),
}

/// Wraps a sync tool's call: run now when the caller runs sync tools inline, else deferred.
#[inline]
pub fn sync_pending<'a, F>(cx: &CallContext<'_>, run: F) -> Pending<'a>
where
    F: FnOnce() -> ToolOutput + Send + 'static,
{
    if cx.inline {
        Pending::Ran(crate::panic::run_caught(cx.tool, run))
    } else {
        Pending::Sync(Box::new(run))
    }
}

impl<'a> Pending<'a> {
    /// Runs the call to completion on the current task.
    pub async fn run(self) -> ToolOutput {
        match self {
            Pending::Refused(output) | Pending::Ran(output) => output,
            Pending::Sync(run) => run(),
            Pending::Async(future) => future.await,
        }
    }
}

/// The `TOOL` that stands in for a fn whose `#[tool]` has a mistake: the compile fails on
/// that mistake anyway, and the stand-in keeps `f::TOOL` elsewhere from adding errors. It is
/// never registered; were it run, it would refuse the call.
#[doc(hidden)]
pub const fn fallback_tool(name: &'static str) -> ToolDef {
    fn schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::Schema::default()
    }
    fn invoke<'a>(_: Args<'a>, cx: &'a CallContext<'a>) -> Pending<'a> {
        Pending::Refused(ToolOutput::from(ToolError::new(format!(
            "{} could not be built: its #[tool] has a mistake",
            cx.tool
        ))))
    }
    ToolDef {
        name,
        title: None,
        description: "",
        flags: ToolFlags::DEFAULT,
        schema,
        output_schema: None,
        invoke,
        requires: &[],
        resolver: None,
        timeout_ms: None,
        max_output: None,
        error_format: ErrorFormat::Text,
        location: SourceLocation {
            file: "",
            line: 0,
            column: 0,
        },
    }
}
