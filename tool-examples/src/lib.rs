//! Example tools in the style of codex-rs's built-in tools, and the registry that serves them.
//!
//! The tools read a workspace directory ([`Workspace`]) and keep a task plan ([`PlanBoard`]):
//!
//! | tool | kind | shows |
//! |------|------|-------|
//! | `read_file` | sync | defaults, path confinement, text output |
//! | `list_dir` | async (`tokio::fs`) | defaults, ranges, text output |
//! | `update_plan` | sync | nested structs, an enum, `Option`, mutable shared state |
//! | `csv_summary` | sync | `Option<Vec<_>>`, safe serialization: timestamps, NaN and infinity in a JSON result |
//! | `exec_command` | sync, `destructive` | a program run without a shell, a timeout, bounded output |
//! | `search_files` | async | bool and optional filters, a JSON result |
//! | `search_tools`, `describe_tool` | sync | `ToolContext`: finding tools in a large registry |
//!
//! [`conformance`] holds the tools the MCP conformance suite calls by name, for
//! `tool-examples serve --conformance`.

#![warn(missing_docs)]

#[cfg(feature = "client")]
pub mod conformance;
mod text;
mod timestamp;
pub mod tools;
mod workspace;

pub use tools::update_plan::PlanBoard;
pub use workspace::{Resolved, Workspace};

use std::path::PathBuf;
use std::sync::Arc;
use tool_runtime::registry::BuildError;
use tool_runtime::registry::ToolDef;
use tool_runtime::{Registry, RegistryBuilder};

/// Every example tool's definition, for registering them by hand.
pub const TOOLS: &[ToolDef] = &[
    tools::csv_summary::csv_summary::TOOL,
    tools::exec_command::exec_command::TOOL,
    tools::list_dir::list_dir::TOOL,
    tools::read_file::read_file::TOOL,
    tools::search_files::search_files::TOOL,
    tools::search_tools::search_tools::TOOL,
    tools::search_tools::describe_tool::TOOL,
    tools::update_plan::update_plan::TOOL,
];

/// The example registry: every example tool, confined to `root`, with a fresh plan board.
pub fn registry(root: PathBuf) -> Result<Registry, BuildError> {
    registry_with_plan(root, Arc::new(PlanBoard::default()))
}

/// [`registry`] with a plan board the caller keeps, to read the plan `update_plan` sets.
pub fn registry_with_plan(root: PathBuf, plan: Arc<PlanBoard>) -> Result<Registry, BuildError> {
    builder(root, plan).build()
}

/// A builder holding the example tools and their state, to add tools or state before building.
///
/// The tools are registered by hand rather than collected by `inventory`, so a program that
/// links other `#[tool]` fns still gets exactly these here.
pub fn builder(root: PathBuf, plan: Arc<PlanBoard>) -> RegistryBuilder {
    builder_in(Workspace::new(root), plan)
}

/// [`builder`] over a workspace set up beforehand (the environment `exec_command` passes on,
/// say).
pub fn builder_in(workspace: Workspace, plan: Arc<PlanBoard>) -> RegistryBuilder {
    TOOLS
        .iter()
        .fold(Registry::builder().without_inventory(), |b, &tool| {
            b.register(tool)
        })
        .state(workspace)
        .state_arc(plan)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tools_lists_every_tool_in_the_crate() {
        // Inventory collects every #[tool] linked into this test binary: only this crate's.
        let dir = tempfile::tempdir().unwrap();
        let collected = Registry::builder();
        #[cfg(feature = "client")]
        let collected = collected.exclude(conformance::TOOLS.iter().map(|t| t.name()));
        let collected = collected
            .state(Workspace::new(dir.path()))
            .state(PlanBoard::default())
            .build()
            .unwrap();
        let registry = registry(dir.path().to_path_buf()).unwrap();
        // Inventory's tools come by name, the registered ones in `TOOLS`' order.
        let names = |r: &Registry| {
            let mut names: Vec<_> = r.specs().map(|s| s.name().to_owned()).collect();
            names.sort();
            names
        };
        assert_eq!(names(&collected), names(&registry));
        assert_eq!(registry.len(), TOOLS.len());
    }

    #[test]
    fn the_plan_board_is_shared_with_the_caller() {
        let dir = tempfile::tempdir().unwrap();
        let board = Arc::new(PlanBoard::default());
        let registry = registry_with_plan(dir.path().to_path_buf(), board.clone()).unwrap();
        let out = registry.call_blocking(
            "update_plan",
            r#"{"plan": [{"step": "ship it", "status": "pending"}]}"#,
        );
        assert!(!out.is_error(), "{out:?}");
        assert_eq!(board.current().items[0].step, "ship it");
    }
}
