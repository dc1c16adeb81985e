//! Configuring and building a [`Registry`](super::Registry).

use super::candidate::Candidate;
use crate::approval::{ApprovalPolicy, Approver};
use crate::context::{ParamResolver, SharedResolver};
use crate::def::ToolDef;
use crate::error::ToolError;
use crate::pipeline::{Limits, RepairPolicy};
use crate::state::StateMap;
use crate::tool::{DynamicTool, Tool};
use serde::Serialize;
use serde_json::Value;
use std::sync::Arc;
use std::time::Duration;

/// Collects tools, shared state and pipeline settings, then checks them all at
/// [`build`](RegistryBuilder::build).
#[must_use]
pub struct RegistryBuilder {
    /// The tools given to the builder (`register`, `tool`, `dynamic`, imports), in the order
    /// given: the registry keeps it.
    pub(super) given: Vec<Candidate>,
    pub(super) states: StateMap,
    pub(super) use_inventory: bool,
    pub(super) only: Option<Vec<String>>,
    pub(super) exclude: Vec<String>,
    pub(super) limits: Limits,
    pub(super) repair: RepairPolicy,
    pub(super) validation: bool,
    pub(super) strict_build: bool,
    pub(super) resolvers: Vec<(String, SharedResolver)>,
    pub(super) context_defaults: Vec<(String, Value)>,
    pub(super) default_timeout: Option<Duration>,
    pub(super) timeouts: Vec<(String, Duration)>,
    pub(super) parallel: Vec<(String, bool)>,
    pub(super) concurrency: Option<usize>,
    pub(super) approval: ApprovalPolicy,
    pub(super) approver: Option<Box<dyn Approver>>,
    pub(super) max_output: usize,
    pub(super) max_outputs: Vec<(String, usize)>,
    /// Resources, templates and prompts, served beside the tools.
    #[cfg(feature = "mcp")]
    pub(super) resources: crate::resources::Resources,
    /// MCP servers whose tools `build_async` imports (`crate::mcp::builder`).
    #[cfg(feature = "mcp")]
    pub(crate) mcp: Vec<crate::mcp::McpImport>,
    /// What the build does last with the registry it made (code mode's code tool), set by
    /// the layers above, which the builder doesn't name.
    pub(crate) finish: Option<Finish>,
}

/// A last step of the build, over the registry it made.
pub(crate) type Finish =
    Box<dyn FnOnce(super::Registry) -> Result<super::Registry, super::BuildError> + Send + Sync>;

impl Default for RegistryBuilder {
    fn default() -> Self {
        RegistryBuilder {
            given: Vec::new(),
            states: StateMap::default(),
            use_inventory: true,
            only: None,
            exclude: Vec::new(),
            limits: Limits::default(),
            repair: RepairPolicy::default(),
            validation: true,
            strict_build: false,
            resolvers: Vec::new(),
            context_defaults: Vec::new(),
            default_timeout: None,
            timeouts: Vec::new(),
            parallel: Vec::new(),
            concurrency: None,
            approval: ApprovalPolicy::default(),
            approver: None,
            max_output: crate::output::ToolOutput::DEFAULT_MAX_OUTPUT,
            max_outputs: Vec::new(),
            #[cfg(feature = "mcp")]
            resources: crate::resources::Resources::default(),
            #[cfg(feature = "mcp")]
            mcp: Vec::new(),
            finish: None,
        }
    }
}

impl RegistryBuilder {
    /// The names of the tools added so far, the inventory's included when it is used: names an
    /// import must not take.
    #[cfg(feature = "mcp")]
    pub(crate) fn names_in_use(&self) -> std::collections::HashSet<String> {
        let collected = self
            .use_inventory
            .then(crate::registration::collected)
            .into_iter()
            .flatten();
        collected
            .map(|def| def.name.to_owned())
            .chain(self.given.iter().map(|c| c.name.clone()))
            .collect()
    }

    /// Gives the registry a value that tools receive as `State<T>`.
    pub fn state<T: Send + Sync + 'static>(self, value: T) -> Self {
        self.state_arc(Arc::new(value))
    }

    /// Like [`state`](Self::state), for a value you already share.
    pub fn state_arc<T: Send + Sync + 'static>(mut self, value: Arc<T>) -> Self {
        self.states.insert(value);
        self
    }

    /// Adds a `#[tool]` fn by hand: `.register(my_fn::TOOL)`. Needed where `inventory` doesn't
    /// work (such as wasm32) or with [`without_inventory`](Self::without_inventory); harmless
    /// for a tool `inventory` already collects.
    pub fn register(mut self, tool: ToolDef) -> Self {
        self.given.push(Candidate::from(tool));
        self
    }

    /// [`register`](Self::register) for several `#[tool]` fns, in the order given.
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
    /// /// Multiply two numbers.
    /// #[tool]
    /// fn multiply(a: i64, b: i64) -> i64 {
    ///     a * b
    /// }
    ///
    /// let registry = Registry::builder()
    ///     .without_inventory()
    ///     .register_all([add::TOOL, multiply::TOOL])
    ///     .build()
    ///     .unwrap();
    /// assert_eq!(registry.len(), 2);
    /// ```
    pub fn register_all(mut self, tools: impl IntoIterator<Item = ToolDef>) -> Self {
        self.given.extend(tools.into_iter().map(Candidate::from));
        self
    }

    /// Leaves out the tools `inventory` collected: only tools passed to
    /// [`register`](Self::register) are used.
    pub fn without_inventory(mut self) -> Self {
        self.use_inventory = false;
        self
    }

    /// Keeps only the named tools. Naming a tool that doesn't exist is a build error.
    pub fn only<I, S>(mut self, names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.only
            .get_or_insert_with(Vec::new)
            .extend(names.into_iter().map(Into::into));
        self
    }

    /// Leaves out the named tools. Naming a tool that doesn't exist is a build error.
    pub fn exclude<I, S>(mut self, names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.exclude.extend(names.into_iter().map(Into::into));
        self
    }

    /// The size and nesting caps on argument text (default 1 MiB and 64 levels).
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// How much of a model's mistakes to repair (default [`RepairPolicy::Safe`]).
    pub fn repair(mut self, policy: RepairPolicy) -> Self {
        self.repair = policy;
        self
    }

    /// Whether to validate arguments against each tool's JSON Schema (default on). Off, only
    /// what the typed deserializer checks is checked, and no validator is compiled.
    pub fn validation(mut self, on: bool) -> Self {
        self.validation = on;
        self
    }

    /// Whether a tool given at run time ([`DynamicTool`], an imported MCP tool) whose schema
    /// can't be used fails the build (default off). Off, such a tool is left out and said in
    /// a [`BuildNote::ToolLeftOut`](crate::registry::BuildNote::ToolLeftOut), so that one
    /// server's broken schema doesn't take every other tool with it; on, it is a
    /// [`BuildError::InvalidSchema`](super::BuildError::InvalidSchema). A `#[tool]` fn's or a
    /// [`Tool`]'s schema (the program's own) fails the build either way.
    pub fn strict_build(mut self, on: bool) -> Self {
        self.strict_build = on;
        self
    }

    /// Adds a resolver for one tool's arguments: it runs before validation and fills what the
    /// model left out, reading injected state if it needs to. A tool may have several; they run
    /// in the order added. See [`ParamResolver`].
    pub fn tool_resolver<F>(mut self, tool: impl Into<String>, resolver: F) -> Self
    where
        F: Fn(&mut ParamResolver<'_>) -> Result<(), ToolError> + Send + Sync + 'static,
    {
        self.resolvers.push((tool.into(), Arc::new(resolver)));
        self
    }

    /// A default for a parameter of this name in every tool that has one, used when the model
    /// leaves it out (a working directory, a user id, a locale). Resolvers take precedence;
    /// schema defaults come after.
    pub fn context_default<T: Serialize>(mut self, parameter: impl Into<String>, value: T) -> Self {
        if let Ok(value) = serde_json::to_value(value) {
            self.context_defaults.push((parameter.into(), value));
        }
        self
    }

    /// The timeout of every tool that has none of its own (default: none). A call that runs
    /// longer gets a `timeout` error output and its future is dropped; a sync tool already
    /// running on the blocking pool finishes in the background, its result discarded.
    pub fn timeout(mut self, limit: Duration) -> Self {
        self.default_timeout = Some(limit);
        self
    }

    /// One tool's timeout, overriding [`timeout`](Self::timeout). Naming a tool that doesn't
    /// exist is a build error.
    pub fn tool_timeout(mut self, tool: impl Into<String>, limit: Duration) -> Self {
        self.timeouts.push((tool.into(), limit));
        self
    }

    /// Whether a tool may run beside other calls. By default `read_only` tools may and others
    /// run alone; this overrides it. Naming a tool that doesn't exist is a build error.
    pub fn tool_parallel(mut self, tool: impl Into<String>, parallel: bool) -> Self {
        self.parallel.push((tool.into(), parallel));
        self
    }

    /// How many calls may run at once, across every caller of the registry (default: no limit).
    pub fn concurrency_limit(mut self, calls: usize) -> Self {
        self.concurrency = Some(calls.max(1));
        self
    }

    /// Which calls need approval (default: calls to `destructive` tools).
    pub fn approval(mut self, policy: ApprovalPolicy) -> Self {
        self.approval = policy;
        self
    }

    /// Who approves the calls the [`approval`](Self::approval) policy names. Without one,
    /// such calls are denied.
    pub fn approver(mut self, approver: impl Approver) -> Self {
        self.approver = Some(Box::new(approver));
        self
    }

    /// The most bytes of output a call may return (default 8 KiB,
    /// [`ToolOutput::DEFAULT_MAX_OUTPUT`](crate::ToolOutput::DEFAULT_MAX_OUTPUT)): text, the
    /// JSON text, or an error message. A longer output is cut by
    /// [`ToolOutput::bounded`](crate::ToolOutput::bounded): text keeps its head and tail with a
    /// marker between, JSON stays valid JSON.
    pub fn max_output(mut self, bytes: usize) -> Self {
        self.max_output = bytes;
        self
    }

    /// One tool's output cap, overriding [`max_output`](Self::max_output). Naming a tool that
    /// doesn't exist is a build error.
    pub fn tool_max_output(mut self, tool: impl Into<String>, bytes: usize) -> Self {
        self.max_outputs.push((tool.into(), bytes));
        self
    }

    /// Adds a tool that owns its state: any value implementing [`Tool`].
    pub fn tool(mut self, tool: impl Tool) -> Self {
        self.given.push(Candidate::from_tool(tool));
        self
    }

    /// Adds a tool known only at run time: see [`DynamicTool`].
    pub fn dynamic(mut self, tool: DynamicTool) -> Self {
        self.given.push(Candidate::from_dynamic(tool));
        self
    }

    /// Adds a resource at a fixed URI, served beside the tools (`resources/list`,
    /// `resources/read`). Two with one URI are a build error.
    #[cfg(feature = "mcp")]
    pub fn resource(mut self, resource: crate::resources::Resource) -> Self {
        self.resources.resources.push(resource);
        self
    }

    /// Adds resources whose URIs follow a template (`resources/templates/list`, read by
    /// `resources/read`). A template that isn't level 1, or two alike, are a build error.
    #[cfg(feature = "mcp")]
    pub fn resource_template(mut self, template: crate::resources::ResourceTemplate) -> Self {
        self.resources.templates.push(template);
        self
    }

    /// Adds a prompt (`prompts/list`, `prompts/get`). Two with one name are a build error.
    #[cfg(feature = "mcp")]
    pub fn prompt(mut self, prompt: crate::resources::Prompt) -> Self {
        self.resources.prompts.push(prompt);
        self
    }
}
