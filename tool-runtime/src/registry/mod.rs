//! The registry: every tool, its schema and compiled validator, and the pipeline's settings.
//! The calls themselves go through [`crate::pipeline`].

mod build;
mod build_error;
mod build_note;
mod builder;
mod calls;
pub(crate) mod candidate;
mod defaults;
mod keywords;
pub(crate) mod legacy;
mod mcp_header;
mod schema_depth;
mod text;

pub use build_error::{BuildError, Location};
pub use build_note::BuildNote;
pub use builder::RegistryBuilder;
pub(crate) use defaults::UNUSABLE_DEFAULT;
#[cfg(feature = "mcp")]
pub(crate) use mcp_header::KEYWORD as MCP_HEADER;
pub use mcp_header::{McpHeaderError, McpHeaderProblem};
pub use schema_depth::MAX_SCHEMA_DEPTH;

use crate::approval::Approver;
use crate::dispatch::gate::Gate;
use crate::export::names::ExportNames;
use crate::export::{Dialect, Export};
use crate::pipeline::checked::PropertyChecks;
use crate::pipeline::output_check::OutputCheck;
use crate::pipeline::resolve::SharedResolver;
use crate::pipeline::tool_lookup::NameIndex;
use crate::pipeline::validate::Validator;
use crate::pipeline::{Limits, RepairPolicy};
use crate::spec::ToolSpec;
use crate::state::StateMap;
use crate::Provider;
use candidate::Handler;
use serde_json::value::RawValue;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::OnceLock;
use std::time::Duration;

/// Every tool the program can offer a model, ready to export and to call.
///
/// Built once with [`Registry::builder`]; calls take `&self`, so share it freely.
pub struct Registry {
    pub(crate) tools: Vec<Entry>,
    /// Name to tool, hashed with foldhash: the lookup is on every call's path.
    pub(crate) index: HashMap<String, usize, foldhash::fast::RandomState>,
    pub(crate) names: NameIndex,
    /// Each tool's name in every provider's rule, and the way back (`export::names`).
    pub(crate) exported: ExportNames,
    pub(crate) states: Arc<StateMap>,
    /// Every tool's spec, shared with `ToolContext` so tools can list their peers.
    pub(crate) catalog: Arc<[Arc<ToolSpec>]>,
    pub(crate) config: Config,
    pub(crate) gate: Arc<Gate>,
    /// The runtime [`call_blocking`](Registry::call_blocking) drives async tools with, made on first use.
    blocking: OnceLock<Result<tokio::runtime::Runtime, String>>,
    /// Each dialect's export, made on first use: the registry never changes, so neither does
    /// its tool list, which an agent sends with every request.
    pub(crate) exports: [OnceLock<Arc<Value>>; Dialect::COUNT],
    /// The same exports as JSON text, written on first use ([`Export::raw_json`]).
    pub(crate) export_texts: [OnceLock<Arc<RawValue>>; Dialect::COUNT],
    /// What the build did not use as written ([`BuildNote`]).
    pub(crate) notes: Vec<BuildNote>,
    /// Resources, templates and prompts, served beside the tools.
    #[cfg(feature = "mcp")]
    pub(crate) resources: Arc<crate::resources::Resources>,
}

/// How the pipeline treats calls, set on the builder.
pub(crate) struct Config {
    pub limits: Limits,
    pub repair: RepairPolicy,
    pub context_defaults: Vec<(String, Value)>,
    /// How many calls may run at once, across all callers.
    pub concurrency: Option<Arc<tokio::sync::Semaphore>>,
    pub approver: Option<Box<dyn Approver>>,
    /// The output cap of a tool that has none of its own, in bytes.
    pub max_output: usize,
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

impl Registry {
    /// Starts a registry that collects every `#[tool]` fn linked into the program.
    pub fn builder() -> RegistryBuilder {
        RegistryBuilder::default()
    }

    /// What the build did not use as written: defaults the schema refuses, and (in the CLI
    /// and logs) why. Empty for a registry whose schemas are all usable as they are.
    pub fn notes(&self) -> &[BuildNote] {
        &self.notes
    }

    /// The resources, resource templates and prompts given to the builder: to read, get and
    /// complete, and to say a resource changed.
    #[cfg(feature = "mcp")]
    pub fn resources(&self) -> &Arc<crate::resources::Resources> {
        &self.resources
    }

    /// A tool's spec, by name.
    pub fn get(&self, name: &str) -> Option<&ToolSpec> {
        self.index.get(name).map(|&i| &*self.tools[i].spec)
    }

    /// The spec of the tool a call names: by its own name, or the name an export gave it.
    #[cfg(feature = "mcp")]
    pub(crate) fn called(&self, name: &str) -> Option<&ToolSpec> {
        self.get(name)
            .or_else(|| Some(&*self.tools[self.exported.tool(name)?].spec))
    }

    /// Every tool's spec, in the registry's order: the `#[tool]` fns `inventory` collected,
    /// by name (it gives them in no reliable order), then the tools given to the builder
    /// (`register`, `tool`, `dynamic`, an MCP server's tools in the server's order) in the
    /// order given. Exports and `tools/list` use the same order.
    pub fn specs(&self) -> impl ExactSizeIterator<Item = &ToolSpec> {
        self.tools.iter().map(|t| &*t.spec)
    }

    /// How many tools there are.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// The provider-neutral tool list: `[{"name", "description", "parameters"}]`, each
    /// schema the tool's own JSON Schema (2020-12, an object root). What a backend that takes
    /// JSON Schema directly wants, or a prompt listing the tools; [`export`](Self::export)
    /// gives a provider's shape.
    ///
    /// ```
    /// use tool_runtime::{tool, Registry};
    ///
    /// /// Add two numbers.
    /// #[tool]
    /// fn add(a: i64, b: i64) -> i64 {
    ///     a + b
    /// }
    ///
    /// let registry = Registry::builder().without_inventory().register(add::TOOL).build().unwrap();
    /// let tools = registry.export_schema();
    /// assert_eq!(tools[0]["name"], "add");
    /// assert_eq!(tools[0]["description"], "Add two numbers.");
    /// assert_eq!(tools[0]["parameters"]["required"], serde_json::json!(["a", "b"]));
    /// ```
    pub fn export_schema(&self) -> Value {
        self.export_plain().to_value()
    }

    /// The tool list in `provider`'s shape, following its documented rules: an [`Export`]
    /// to turn strict mode on and to take as a value, shared, or as JSON text.
    pub fn export(&self, provider: Provider) -> Export<'_> {
        Export::new(self, Dialect::of(provider, false))
    }

    /// The tools as TensorZero configuration: a `tensorzero.toml` fragment and one JSON
    /// Schema file per tool, to [`write_to`](crate::export::TensorZeroConfig::write_to) a
    /// config folder.
    pub fn export_tensorzero(&self) -> crate::export::TensorZeroConfig<'_> {
        crate::export::TensorZeroConfig::new(self.export(Provider::TensorZero))
    }

    /// The neutral list of [`export_schema`](Self::export_schema) as an [`Export`] (shared,
    /// or as JSON text, made once).
    pub fn export_plain(&self) -> Export<'_> {
        Export::new(self, Dialect::Plain)
    }

    pub(crate) fn blocking_runtime(&self) -> Result<&tokio::runtime::Runtime, &str> {
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

impl Drop for Registry {
    fn drop(&mut self) {
        // Dropping a tokio runtime blocks, which tokio forbids inside async code, where a
        // registry may well be dropped: let it wind down in the background instead.
        if let Some(Ok(runtime)) = self.blocking.take() {
            runtime.shutdown_background();
        }
    }
}

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Registry")
            .field(
                "tools",
                &self.tools.iter().map(|t| &t.spec.name).collect::<Vec<_>>(),
            )
            .finish_non_exhaustive()
    }
}
