//! What an import gives: a connected server's tools ([`McpTools`]) and what the import
//! changed or left out on the way in ([`ImportNote`]).

use crate::DynamicTool;
use rmcp::model::Implementation;
use std::fmt;

/// A connected server's tools, ready for
/// [`RegistryBuilder::mcp_tools`](crate::RegistryBuilder::mcp_tools). The connection lives as
/// long as one of its tools does (the child process is stopped when the last goes).
pub struct McpTools {
    pub(super) prefix: String,
    pub(super) server: String,
    pub(super) info: Option<Implementation>,
    pub(super) protocol_version: Option<String>,
    pub(super) tools: Vec<DynamicTool>,
    /// The server's resources, templates and prompts, when it has some.
    pub(super) imported: super::resources::Imported,
    pub(super) notes: Vec<ImportNote>,
}

impl McpTools {
    /// The prefix of the tools' names.
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    /// The command line or URL.
    pub fn server(&self) -> &str {
        &self.server
    }

    /// The name and version the server gave in the handshake.
    pub fn server_name(&self) -> Option<(&str, &str)> {
        self.info
            .as_ref()
            .map(|i| (i.name.as_str(), i.version.as_str()))
    }

    /// The protocol version the server agreed to (`"2025-11-25"`, `"2026-07-28"`): see
    /// [`McpImport::protocol`](super::McpImport::protocol).
    pub fn protocol_version(&self) -> Option<&str> {
        self.protocol_version.as_deref()
    }

    /// The tools.
    pub fn tools(&self) -> &[DynamicTool] {
        &self.tools
    }

    /// The tools, owned.
    pub fn into_tools(self) -> Vec<DynamicTool> {
        self.tools
    }

    /// The server's resources, which read from it (their URIs are the server's).
    pub fn resources(&self) -> &[crate::resources::Resource] {
        &self.imported.resources
    }

    /// The server's resource templates, which read from it.
    pub fn templates(&self) -> &[crate::resources::ResourceTemplate] {
        &self.imported.templates
    }

    /// The server's prompts, named `{prefix}__{prompt}` like its tools, which get from it.
    pub fn prompts(&self) -> &[crate::resources::Prompt] {
        &self.imported.prompts
    }

    /// The tools, and the resources, templates and prompts.
    pub(crate) fn into_parts(self) -> (Vec<DynamicTool>, super::resources::Imported) {
        (self.tools, self.imported)
    }

    /// What the import changed: tools renamed, schemas cleaned.
    pub fn notes(&self) -> &[ImportNote] {
        &self.notes
    }
}

impl fmt::Debug for McpTools {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("McpTools")
            .field("server", &self.server)
            .field(
                "tools",
                &self.tools.iter().map(DynamicTool::name).collect::<Vec<_>>(),
            )
            .finish_non_exhaustive()
    }
}

/// Something an import changed, worth telling the user.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ImportNote {
    /// A tool's local name isn't plainly `{server}__{tool}`.
    Renamed {
        /// The server's name for it.
        tool: String,
        /// Its name here.
        name: String,
        /// Why.
        reason: &'static str,
    },
    /// A resource template (or other listing) this registry can't serve was left out.
    LeftOut {
        /// What: `resource template \`...\``.
        what: String,
        /// Why.
        reason: String,
    },
    /// A tool's input schema was changed so that every dialect takes it.
    SchemaCleaned {
        /// The server's name for the tool.
        tool: String,
        /// What was changed, one line each.
        changes: Vec<String>,
    },
}

impl fmt::Display for ImportNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImportNote::Renamed { tool, name, reason } => {
                write!(f, "`{tool}` is called `{name}` here: {reason}")
            }
            ImportNote::LeftOut { what, reason } => write!(f, "the {what} is left out: {reason}"),
            ImportNote::SchemaCleaned { tool, changes } => {
                write!(
                    f,
                    "the input schema of `{tool}` was cleaned: {}",
                    changes.join("; ")
                )
            }
        }
    }
}
