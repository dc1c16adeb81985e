//! The registry: every tool, its schema, and the way in for calls.

mod build_error;
mod builder;

pub use build_error::{BuildError, Location};
pub use builder::RegistryBuilder;

use crate::context::CallContext;
use crate::def::{Args, Invoke, Pending};
use crate::dialect::Dialect;
use crate::error::{ErrorCode, ToolError};
use crate::output::ToolOutput;
use crate::spec::ToolSpec;
use crate::state::StateMap;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::OnceLock;

/// Every tool the program can offer a model, ready to export and to call.
///
/// Built once with [`Registry::builder`]; calls take `&self`, so share it freely.
pub struct Registry {
    tools: Vec<Entry>,
    index: HashMap<String, usize>,
    states: StateMap,
    /// The runtime [`call_blocking`](Registry::call_blocking) drives async tools with, made on first use.
    blocking: OnceLock<Result<tokio::runtime::Runtime, String>>,
}

struct Entry {
    spec: ToolSpec,
    invoke: Invoke,
}

impl Registry {
    /// Starts a registry that collects every `#[tool]` fn linked into the program.
    pub fn builder() -> RegistryBuilder {
        RegistryBuilder::default()
    }

    /// A tool's spec, by name.
    pub fn get(&self, name: &str) -> Option<&ToolSpec> {
        self.index.get(name).map(|&i| &self.tools[i].spec)
    }

    /// Every tool's spec, ordered by name.
    pub fn specs(&self) -> impl ExactSizeIterator<Item = &ToolSpec> {
        self.tools.iter().map(|t| &t.spec)
    }

    /// How many tools there are.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// The tool list in a model API's shape.
    pub fn export_schema(&self, dialect: Dialect) -> Value {
        dialect.export(self.specs())
    }

    /// Calls a tool with JSON arguments and returns its output. Never panics on bad input:
    /// an unknown tool, malformed JSON or arguments that don't fit give an error output.
    pub async fn call(&self, name: &str, args: &str) -> ToolOutput {
        match self.start(name, None, args) {
            Ok((invoke, cx)) => invoke(Args::Text(args), &cx).run().await,
            Err(output) => output,
        }
    }

    /// [`call`](Self::call) for code that isn't async. Async tools run on a small runtime the
    /// registry keeps for this; calling it from inside an async runtime gives an error output
    /// (use `call(...).await` there).
    pub fn call_blocking(&self, name: &str, args: &str) -> ToolOutput {
        let (invoke, cx) = match self.start(name, None, args) {
            Ok(found) => found,
            Err(output) => return output,
        };
        let pending = invoke(Args::Text(args), &cx);
        match pending {
            Pending::Done(output) => output,
            Pending::Sync(run) => run(),
            Pending::Async(future) => {
                if tokio::runtime::Handle::try_current().is_ok() {
                    return ToolOutput::Error(
                        ToolError::with_code(
                            ErrorCode::RuntimeError,
                            "call_blocking was called inside an async runtime, where blocking would stall it; use `registry.call(..).await`",
                        )
                        .for_tool(name),
                    );
                }
                match self.blocking_runtime() {
                    Ok(runtime) => runtime.block_on(future),
                    Err(reason) => ToolOutput::Error(
                        ToolError::with_code(
                            ErrorCode::RuntimeError,
                            format!("could not start a runtime for the call: {reason}"),
                        )
                        .for_tool(name),
                    ),
                }
            }
        }
    }

    fn start<'a>(
        &'a self,
        name: &'a str,
        call_id: Option<&'a str>,
        _args: &str,
    ) -> Result<(Invoke, CallContext<'a>), ToolOutput> {
        match self.index.get(name) {
            Some(&i) => Ok((
                self.tools[i].invoke,
                CallContext {
                    tool: &self.tools[i].spec.name,
                    call_id,
                    states: &self.states,
                },
            )),
            None => Err(self.unknown_tool(name)),
        }
    }

    fn unknown_tool(&self, name: &str) -> ToolOutput {
        const SHOWN: usize = 20;
        let names: Vec<&str> = self
            .tools
            .iter()
            .take(SHOWN)
            .map(|t| t.spec.name.as_str())
            .collect();
        let more = self.tools.len().saturating_sub(SHOWN);
        let mut message = format!(
            "Unknown tool {name:?}. Available tools: {}",
            names.join(", ")
        );
        if more > 0 {
            message.push_str(&format!(" (and {more} more)"));
        }
        message.push('.');
        ToolOutput::Error(ToolError::with_code(ErrorCode::UnknownTool, message).for_tool(name))
    }

    fn blocking_runtime(&self) -> Result<&tokio::runtime::Runtime, &str> {
        self.blocking
            .get_or_init(|| {
                tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .map_err(|e| e.to_string())
            })
            .as_ref()
            .map_err(String::as_str)
    }
}

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Registry")
            .field("tools", &self.index.keys().collect::<Vec<_>>())
            .finish_non_exhaustive()
    }
}
