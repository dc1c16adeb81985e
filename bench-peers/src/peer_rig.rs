//! rig: the tool as a `PortableTool` (which is a rig `Tool`) in a rig-agent `ToolSet`, called
//! with `ToolSet::execute` (0.44's successor of `ToolSet::call`).

use crate::{run_search, Found, SearchArgs};
use rig_agent::tool::ToolSet;
use rig_core::tool::{PortableTool, ToolContext};
use std::convert::Infallible;

/// The tool.
pub struct Search;

impl PortableTool for Search {
    const NAME: &'static str = "search";
    type Args = SearchArgs;
    type Output = Found;
    type Error = Infallible;

    fn description(&self) -> String {
        "Search the index.".to_owned()
    }

    fn parameters(&self) -> serde_json::Value {
        serde_json::to_value(schemars::schema_for!(SearchArgs)).expect("a schema is JSON")
    }

    async fn call(&self, a: SearchArgs) -> Result<Found, Infallible> {
        Ok(run_search(a.query, a.limit, a.exact, a.mode))
    }
}

/// A `ToolSet` holding the tool.
pub fn toolset() -> ToolSet {
    let mut set = ToolSet::default();
    set.add_tool(Search);
    set
}

/// One call, from `(name, args)` to the model-visible output rig renders.
pub async fn call(set: &ToolSet, name: &str, args: &str) -> Result<String, String> {
    let mut context = ToolContext::new();
    let result = set.execute(name, args, &mut context).await;
    match result.error() {
        None => Ok(result.output().render()),
        Some(error) => Err(error.message().to_owned()),
    }
}
