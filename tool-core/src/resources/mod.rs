//! Resources, resource templates and prompts: what an MCP server offers beside its tools.
//!
//! A [`Resource`] is data at a fixed URI, a [`ResourceTemplate`] data at the URIs of a
//! level-1 [`UriTemplate`] (`users://{id}/profile`), a [`Prompt`] a message template the
//! client's user picks. Each holds the closure that reads or writes it, and is added to the
//! registry with [`RegistryBuilder::resource`](crate::RegistryBuilder::resource),
//! [`resource_template`](crate::RegistryBuilder::resource_template) and
//! [`prompt`](crate::RegistryBuilder::prompt); [`Registry::resources`](crate::Registry::resources)
//! gives them back ([`Resources`]) to read, get and complete, and to say a resource
//! [`updated`](Resources::updated) for the MCP sessions subscribed to it. A closure may ask
//! the client that sent the request for input, as a tool does ([`Prompt::asking`],
//! [`Resource::asking`], [`ResourceTemplate::asking`], through an
//! [`AskContext`](crate::client::AskContext)). With the `mcp`
//! feature, `tool_runtime::mcp::McpServer` serves them (`resources/*`, `prompts/*`,
//! `completion/complete`) and [`McpImport`](crate::mcp::McpImport) imports a server's.

mod builders;
mod completion;
mod contents;
mod error;
mod prompt;
mod resource;
mod store;
mod uri_template;

pub use completion::Completion;
pub use contents::Contents;
pub use error::{BoxError, ResourceError};
pub use prompt::{Prompt, PromptArgs, PromptArgument, PromptMessage, Role};
pub use resource::{Listing, Resource, ResourceTemplate, Vars};
pub(crate) use store::check;
pub use store::{CompletionTarget, Resources};
pub use uri_template::{MatchError, TemplateError, UriTemplate, VariableValues, MAX_URI_BYTES};
