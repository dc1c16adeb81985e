//! Importing servers' tools from the registry builder.
//!
//! Connecting to a server is async and [`RegistryBuilder::build`] is not, so the builder
//! keeps the servers named with [`mcp_stdio`](RegistryBuilder::mcp_stdio) and
//! [`mcp_http`](RegistryBuilder::mcp_http) and connects them in
//! [`build_async`](RegistryBuilder::build_async). A server already connected
//! ([`McpImport::connect`]) is added with [`mcp_tools`](RegistryBuilder::mcp_tools), and then
//! the plain `build` works.

use crate::mcp::{McpImport, McpTools};
use crate::registry::{BuildError, Registry, RegistryBuilder};

impl RegistryBuilder {
    /// Imports the tools of the MCP server `command` starts (`npx`, `["-y",
    /// "@modelcontextprotocol/server-everything"]`), named `{server}__{tool}`. Connected by
    /// [`build_async`](Self::build_async); a server that can't start is a build error.
    pub fn mcp_stdio<I, S>(self, command: impl Into<String>, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.mcp(McpImport::stdio(command, args))
    }

    /// Imports the tools of the MCP server at a streamable-HTTP `url`. Connected by
    /// [`build_async`](Self::build_async).
    pub fn mcp_http(self, url: impl Into<String>) -> Self {
        self.mcp(McpImport::http(url))
    }

    /// Imports the tools of a server configured with [`McpImport`] (its name, timeouts,
    /// token). Connected by [`build_async`](Self::build_async).
    pub fn mcp(mut self, import: McpImport) -> Self {
        self.mcp.push(import);
        self
    }

    /// Adds the tools of a server already connected, and its resources, templates and
    /// prompts.
    pub fn mcp_tools(self, tools: McpTools) -> Self {
        let (tools, imported) = tools.into_parts();
        let builder = tools
            .into_iter()
            .fold(self, |builder, tool| builder.dynamic(tool));
        let builder = imported
            .resources
            .into_iter()
            .fold(builder, |builder, resource| builder.resource(resource));
        let builder = imported
            .templates
            .into_iter()
            .fold(builder, |builder, template| {
                builder.resource_template(template)
            });
        imported
            .prompts
            .into_iter()
            .fold(builder, |builder, prompt| builder.prompt(prompt))
    }

    /// [`build`](Self::build), after connecting every server named with
    /// [`mcp_stdio`](Self::mcp_stdio), [`mcp_http`](Self::mcp_http) or [`mcp`](Self::mcp),
    /// all at once. A server that can't be started or reached, or doesn't list its tools in
    /// time, is a [`BuildError::ToolSource`] naming it (with the other problems, if any).
    /// What the imports renamed or cleaned is logged with `tracing` (warn).
    ///
    /// # Errors
    ///
    /// What [`build`](Self::build) reports, and a [`BuildError::ToolSource`] for each server
    /// that couldn't be reached or listed.
    pub async fn build_async(mut self) -> Result<Registry, BuildError> {
        let imports = std::mem::take(&mut self.mcp);
        let connected =
            futures_util::future::join_all(imports.into_iter().map(|import| async move {
                let source = import.describe();
                (source, import.open().await)
            }))
            .await;
        // An imported tool whose plain name a local tool already has gets a hash, as two
        // imported tools sharing a name do.
        let mut taken = self.names_in_use();
        let mut errors = Vec::new();
        for (source, connected) in connected {
            match connected {
                Ok(connected) => {
                    let tools = connected.into_tools(&mut taken);
                    for note in tools.notes() {
                        tracing::warn!(server = %tools.server(), "{note}");
                    }
                    self = self.mcp_tools(tools);
                }
                Err(error) => errors.push(BuildError::ToolSource {
                    origin: source,
                    reason: error.to_string(),
                }),
            }
        }
        match self.build() {
            Ok(registry) if errors.is_empty() => Ok(registry),
            Ok(_) => Err(BuildError::from_list(errors).unwrap_or(BuildError::Multiple(Vec::new()))),
            Err(error) => {
                errors.extend(error.into_problems());
                Err(BuildError::from_list(errors).unwrap_or(BuildError::Multiple(Vec::new())))
            }
        }
    }
}
