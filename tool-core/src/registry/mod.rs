//! The registry: every tool, its schema and compiled validator, and the pipeline's settings.
//! A façade over the stages: its call path (`calls`) runs each stage of [`crate::pipeline`]
//! and `dispatch` in turn, and nothing below calls back up into it.

mod build;
mod build_error;
mod build_note;
mod builder;
mod call_all;
mod calls;
pub(crate) mod candidate;
mod defaults;
mod keywords;
pub(crate) mod legacy;
mod mcp_header;
mod schema_depth;

pub use build_error::{BuildError, Location};
pub use build_note::BuildNote;
pub use builder::RegistryBuilder;
pub use call_all::CallAll;
// What `#[tool]` generates and the builder registers.
pub use crate::def::{SourceLocation, TaskSupport, ToolDef, ToolFlags};
#[cfg(feature = "mcp")]
pub(crate) use mcp_header::bindings as mcp_header_bindings;
pub(crate) use mcp_header::KEYWORD as MCP_HEADER;
pub use mcp_header::{McpHeaderError, McpHeaderProblem};
pub use schema_depth::MAX_SCHEMA_DEPTH;

use crate::export::cache::ExportCache;
use crate::export::names::ExportNames;
use crate::export::tool_list::ToolList;
use crate::export::Export;
use crate::pipeline::tool_lookup::{Index, NameIndex};
use crate::pipeline::{Config, Entry};
use crate::spec::ToolSpec;
use crate::state::StateMap;
use crate::Provider;
use std::sync::Arc;
use std::sync::OnceLock;

/// Every tool the program can offer a model, ready to export and to call.
///
/// Built once with [`Registry::builder`]; calls take `&self`, so share it freely.
pub struct Registry {
    pub(crate) tools: Vec<Entry>,
    /// Name to tool, hashed with foldhash: the lookup is on every call's path.
    pub(crate) index: Index,
    pub(crate) names: NameIndex,
    /// Each tool's name in every provider's rule, and the way back (`export::names`).
    pub(crate) exported: ExportNames,
    pub(crate) states: Arc<StateMap>,
    /// Every tool's spec, shared with `ToolContext` so tools can list their peers.
    pub(crate) catalog: Arc<[Arc<ToolSpec>]>,
    pub(crate) config: Config,
    /// The runtime [`call_blocking`](Registry::call_blocking) drives async tools with, made on first use.
    blocking: OnceLock<Result<tokio::runtime::Runtime, String>>,
    /// Each shape's export, as a value and as text, made on first use.
    pub(crate) exports: ExportCache,
    /// What the build did not use as written ([`BuildNote`]).
    pub(crate) notes: Vec<BuildNote>,
    /// Resources, templates and prompts, served beside the tools.
    #[cfg(feature = "mcp")]
    pub(crate) resources: Arc<crate::resources::Resources>,
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
    #[doc(hidden)]
    pub fn called(&self, name: &str) -> Option<&ToolSpec> {
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

    /// The tool list in `provider`'s shape, following its documented rules: an [`Export`]
    /// to turn strict mode on and to take as a value, shared, or as JSON text.
    pub fn export(&self, provider: Provider) -> Export<'_> {
        Export::new(self.tool_list(), &self.exports, Some(provider))
    }

    /// The tools as TensorZero configuration: a `tensorzero.toml` fragment and one JSON
    /// Schema file per tool, to [`write_to`](crate::providers::TensorZeroConfig::write_to) a
    /// config folder.
    pub fn export_tensorzero(&self) -> crate::providers::TensorZeroConfig<'_> {
        crate::providers::TensorZeroConfig::new(self.export(Provider::TensorZero))
    }

    /// The provider-neutral tool list: `[{"name", "description", "parameters"}]`, each
    /// schema the tool's own JSON Schema (2020-12, an object root). What a backend that takes
    /// JSON Schema directly wants, or a prompt listing the tools; [`export`](Self::export)
    /// gives a provider's shape. An [`Export`]: a value, shared, or JSON text, made once.
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
    /// let tools = registry.export_plain().to_value();
    /// assert_eq!(tools[0]["name"], "add");
    /// assert_eq!(tools[0]["description"], "Add two numbers.");
    /// assert_eq!(tools[0]["parameters"]["required"], serde_json::json!(["a", "b"]));
    /// ```
    pub fn export_plain(&self) -> Export<'_> {
        Export::new(self.tool_list(), &self.exports, None)
    }

    /// What an export reads: the specs and the names each provider's rule gives them.
    fn tool_list(&self) -> ToolList<'_> {
        ToolList::new(&self.catalog, &self.exported)
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
