//! Code mode as a builder setting: which tools the model sees, the code tool alone or beside
//! them, with the limits and the gate every call shares.

use super::{description, flags, input_schema, CodeSettings, CodeTool};
use crate::approval::ApprovalPolicy;
use crate::pipeline::Handler;
use crate::registry::{Registry, RegistryBuilder};
use crate::tool::DynamicTool;
use crate::ToolOutput;
use std::sync::Arc;

/// Which tools the model sees when code mode is on. Without
/// [`code_mode`](RegistryBuilder::code_mode) it sees the tools alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CodeMode {
    /// The code tool alone: the model sees one tool, and every tool is a function inside it.
    /// Exports, MCP's `tools/list` and text prompts list the code tool; a direct call to any
    /// other tool is an unknown tool.
    Alone,
    /// The code tool beside the tools: the model may call a tool directly or write code that
    /// calls several. Direct calls and calls from code pass one gate and one concurrency
    /// limit.
    Beside,
}

impl RegistryBuilder {
    /// Turns code mode on: the registry gets the code tool (`run_python`, default
    /// [`CodeLimits`](super::CodeLimits)), alone or beside the tools. See
    /// [`code`](crate::code).
    ///
    /// ```
    /// use tool_runtime::code::CodeMode;
    /// use tool_runtime::{tool, Registry};
    ///
    /// /// Add two numbers.
    /// #[tool]
    /// fn add(a: i64, b: i64) -> i64 {
    ///     a + b
    /// }
    ///
    /// let alone = Registry::builder().without_inventory().register(add::TOOL).code_mode(CodeMode::Alone).build().unwrap();
    /// assert_eq!(alone.specs().map(|s| s.name()).collect::<Vec<_>>(), ["run_python"]);
    /// let beside = Registry::builder().without_inventory().register(add::TOOL).code_mode(CodeMode::Beside).build().unwrap();
    /// assert_eq!(beside.specs().map(|s| s.name()).collect::<Vec<_>>(), ["add", "run_python"]);
    /// let out = beside.call_blocking("run_python", r#"{"code": "add(a=2, b=40)"}"#);
    /// assert_eq!(out.to_model_text(), "42");
    /// ```
    pub fn code_mode(self, mode: CodeMode) -> Self {
        self.code_mode_with(mode, CodeSettings::default())
    }

    /// [`code_mode`](Self::code_mode) with the code tool's name and limits.
    pub fn code_mode_with(mut self, mode: CodeMode, settings: CodeSettings) -> Self {
        self.finish = Some(match mode {
            CodeMode::Alone => Box::new(move |registry| alone(Arc::new(registry), settings)),
            CodeMode::Beside => Box::new(move |registry| beside(registry, settings)),
        });
        self
    }
}

impl Registry {
    /// The registry a model sees in code mode alone ([`CodeMode::Alone`]): the code tool over
    /// these tools, with their output cap, resources and prompts. What
    /// [`code_mode`](RegistryBuilder::code_mode) builds, for a registry built already (an
    /// agent's: `Agent::code_mode`).
    ///
    /// # Errors
    ///
    /// A [`BuildError`](crate::BuildError) when the code tool's name is not a usable tool name.
    pub fn code_registry(
        self: &Arc<Self>,
        settings: CodeSettings,
    ) -> Result<Registry, crate::BuildError> {
        alone(Arc::clone(self), settings)
    }
}

/// A registry of the code tool alone, over `tools`. It keeps the tools' output cap and
/// serves their resources and prompts.
fn alone(tools: Arc<Registry>, settings: CodeSettings) -> Result<Registry, crate::BuildError> {
    let max_output = tools.config.max_output;
    #[cfg_attr(not(feature = "mcp"), allow(unused_mut))]
    let mut outer = Registry::builder()
        .without_inventory()
        .dynamic(tools.code_tool_with(settings))
        .max_output(max_output)
        // Each call the code makes asks for approval where its tool needs it; the code
        // itself doesn't.
        .approval(ApprovalPolicy::Never)
        .build()?;
    #[cfg(feature = "mcp")]
    {
        outer.resources = Arc::clone(&tools.resources);
    }
    outer.notes.clone_from(&tools.notes);
    Ok(outer)
}

/// `registry` with the code tool added, calling the tools through the registry it runs in.
/// It holds no pass on the gate and counts for no concurrency: each call it makes does.
fn beside(mut registry: Registry, settings: CodeSettings) -> Result<Registry, crate::BuildError> {
    let template = DynamicTool::new(
        settings.name,
        description(registry.specs()),
        input_schema(),
        // Never run: its handler is replaced below by one that reaches the registry.
        |_, _| async { ToolOutput::text("") },
    )
    .with_flags(flags(registry.specs()));
    // The entry as the build prepares any tool (schema, validator, output cap), in a
    // registry of its own with the same cap, then moved here.
    let mut made = Registry::builder()
        .without_inventory()
        .dynamic(template)
        .max_output(registry.config.max_output)
        .approval(ApprovalPolicy::Never)
        .build()?;
    let mut entry = made
        .tools
        .pop()
        .expect("the registry was built with one tool");
    entry.handler = Handler::Runtime(Arc::new(CodeTool {
        limits: settings.limits,
        engine: settings.engine,
    }));
    entry.gated = false;
    entry.needs_approval = false;
    entry.runs_inline = false;
    registry.add_entry(entry)?;
    Ok(registry)
}
