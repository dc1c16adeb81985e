//! Importing a server's resources, resource templates and prompts beside its tools: listed
//! when the server declares them, and read, got and completed by forwarding to it.

use super::content;
use super::import::ImportNote;
use crate::resources::{
    Completion, Contents, Prompt, PromptArgs, PromptMessage, Resource, ResourceError,
    ResourceTemplate, UriTemplate,
};
use rmcp::model::{
    ArgumentInfo, CompleteRequestParams, CompletionContext, ErrorCode, GetPromptRequestParams,
    ReadResourceRequestParams, Reference, ResourceContents,
};
use rmcp::service::{Peer, RoleClient, ServiceError};
use std::any::Any;
use std::sync::Arc;
use std::time::Duration;

/// What a server listed besides its tools.
#[derive(Default)]
pub(crate) struct Listed {
    resources: Vec<rmcp::model::Resource>,
    templates: Vec<rmcp::model::ResourceTemplate>,
    prompts: Vec<rmcp::model::Prompt>,
    /// Whether the server answers `completion/complete`.
    completes: bool,
}

/// Lists what the server declares: resources and templates for `resources`, prompts for
/// `prompts`. A server that declares neither is asked nothing.
pub(crate) async fn list(peer: &Peer<RoleClient>) -> Result<Listed, ServiceError> {
    let Some(capabilities) = peer.peer_info().map(|info| info.capabilities.clone()) else {
        return Ok(Listed::default());
    };
    let mut listed = Listed {
        completes: capabilities.completions.is_some(),
        ..Listed::default()
    };
    if capabilities.resources.is_some() {
        listed.resources = peer.list_all_resources().await?;
        listed.templates = peer.list_all_resource_templates().await?;
    }
    if capabilities.prompts.is_some() {
        listed.prompts = peer.list_all_prompts().await?;
    }
    Ok(listed)
}

/// An imported server's resources, templates and prompts, ready for the registry.
#[derive(Default)]
pub(crate) struct Imported {
    pub(crate) resources: Vec<Resource>,
    pub(crate) templates: Vec<ResourceTemplate>,
    pub(crate) prompts: Vec<Prompt>,
}

/// How requests reach the server, and what keeps the connection open while a resource or
/// prompt of it is in a registry.
#[derive(Clone)]
pub(crate) struct Forwarder {
    pub(crate) peer: Peer<RoleClient>,
    pub(crate) timeout: Duration,
    pub(crate) server: String,
    /// The connection (the child process lives as long as it does), held for its `Drop`.
    #[allow(dead_code)]
    pub(crate) keep: Arc<dyn Any + Send + Sync>,
}

impl Forwarder {
    /// `request` within the call timeout, its failure a [`ResourceError`].
    async fn ask<T>(
        &self,
        request: impl std::future::Future<Output = Result<T, ServiceError>>,
    ) -> Result<T, ResourceError> {
        match tokio::time::timeout(self.timeout, request).await {
            Ok(answer) => answer.map_err(|error| self.failure(error)),
            Err(_) => Err(ResourceError::failed(format!(
                "MCP server `{}` did not answer within {:.1}s",
                self.server,
                self.timeout.as_secs_f64()
            ))),
        }
    }

    fn failure(&self, error: ServiceError) -> ResourceError {
        ResourceError::Failed {
            message: format!("MCP server `{}`: {error}", self.server),
            source: Some(Box::new(error)),
        }
    }
}

/// The server's listing as the registry's own resources, templates and prompts (prompts named
/// `{prefix}__{name}`, like tools; URIs kept, being the server's). A template that is not
/// level 1 is left out with a note.
pub(crate) fn adopt(
    listed: Listed,
    prefix: &str,
    forward: &Forwarder,
    notes: &mut Vec<ImportNote>,
) -> Imported {
    let resources = listed
        .resources
        .into_iter()
        .map(|remote| {
            let uri = remote.uri.clone();
            let forward = forward.clone();
            let mut resource = Resource::new(remote.uri, remote.name, move || {
                let (forward, uri) = (forward.clone(), uri.clone());
                async move { read(&forward, uri).await }
            });
            if let Some(title) = remote.title {
                resource = resource.title(title);
            }
            if let Some(description) = remote.description {
                resource = resource.description(description);
            }
            if let Some(mime_type) = remote.mime_type {
                resource = resource.mime_type(mime_type);
            }
            if let Some(size) = remote.size {
                resource = resource.size(size);
            }
            resource
        })
        .collect();
    let mut templates = Vec::new();
    for remote in listed.templates {
        let parsed = match UriTemplate::parse(&remote.uri_template) {
            Ok(parsed) => parsed,
            Err(error) => {
                notes.push(ImportNote::LeftOut {
                    what: format!("resource template `{}`", remote.uri_template),
                    reason: error.to_string(),
                });
                continue;
            }
        };
        let reader = forward.clone();
        let mut template = ResourceTemplate::new(&remote.uri_template, remote.name, move |vars| {
            let forward = reader.clone();
            async move { read(&forward, vars.uri().to_owned()).await }
        });
        if let Some(title) = remote.title {
            template = template.title(title);
        }
        if let Some(description) = remote.description {
            template = template.description(description);
        }
        if let Some(mime_type) = remote.mime_type {
            template = template.mime_type(mime_type);
        }
        if listed.completes {
            for variable in parsed.variables() {
                let reference = Reference::for_resource(remote.uri_template.clone());
                template = template.complete(variable, completer(forward, reference));
            }
        }
        templates.push(template);
    }
    let prompts = listed
        .prompts
        .into_iter()
        .map(|remote| {
            let name = remote.name.clone();
            let getter = forward.clone();
            let mut prompt = Prompt::new(format!("{prefix}__{}", remote.name), move |args| {
                let (forward, name) = (getter.clone(), name.clone());
                async move { get(&forward, name, args).await }
            });
            if let Some(title) = remote.title {
                prompt = prompt.title(title);
            }
            if let Some(description) = remote.description {
                prompt = prompt.description(description);
            }
            for argument in remote.arguments.into_iter().flatten() {
                prompt = prompt.argument(
                    &argument.name,
                    argument.description.unwrap_or_default(),
                    argument.required.unwrap_or(false),
                );
                if listed.completes {
                    let reference = Reference::for_prompt(remote.name.clone());
                    prompt = prompt.complete(argument.name, completer(forward, reference));
                }
            }
            prompt
        })
        .collect();
    Imported {
        resources,
        templates,
        prompts,
    }
}

/// Reads `uri` from the server. A server's "not found" (`-32002`, or `-32602` from
/// 2026-07-28 on) is [`ResourceError::NotFound`] here too.
async fn read(forward: &Forwarder, uri: String) -> Result<Vec<Contents>, ResourceError> {
    let request = forward
        .peer
        .read_resource(ReadResourceRequestParams::new(uri.clone()));
    let result = match forward.ask(request).await {
        Err(ResourceError::Failed {
            source: Some(source),
            message,
        }) => {
            let not_found = matches!(
                source.downcast_ref::<ServiceError>(),
                Some(ServiceError::McpError(error))
                    if error.code == ErrorCode::RESOURCE_NOT_FOUND
                        || error.code == ErrorCode::INVALID_PARAMS
            );
            return Err(if not_found {
                ResourceError::NotFound { uri }
            } else {
                ResourceError::Failed {
                    message,
                    source: Some(source),
                }
            });
        }
        answer => answer?,
    };
    Ok(result
        .contents
        .into_iter()
        .filter_map(|contents| match contents {
            ResourceContents::TextResourceContents {
                uri,
                mime_type,
                text,
                ..
            } => Some(with_mime(Contents::text(text).at(uri), mime_type)),
            ResourceContents::BlobResourceContents {
                uri,
                mime_type,
                blob,
                ..
            } => Some(with_mime(Contents::blob_base64(blob).at(uri), mime_type)),
            // A kind of contents this version doesn't know.
            _ => None,
        })
        .collect())
}

fn with_mime(contents: Contents, mime_type: Option<String>) -> Contents {
    match mime_type {
        Some(mime_type) => contents.mime_type(mime_type),
        None => contents,
    }
}

/// Gets the server's prompt `name` for `args`.
async fn get(
    forward: &Forwarder,
    name: String,
    args: PromptArgs,
) -> Result<Vec<PromptMessage>, ResourceError> {
    let arguments = args
        .iter()
        .map(|(k, v)| (k.to_owned(), serde_json::Value::String(v.to_owned())))
        .collect();
    let mut params = GetPromptRequestParams::new(name);
    params.arguments = Some(arguments);
    let result = forward.ask(forward.peer.get_prompt(params)).await?;
    Ok(result
        .messages
        .into_iter()
        .map(|message| {
            let block = serde_json::to_value(&message.content).unwrap_or_default();
            let content = content::content_block(&block);
            match message.role {
                rmcp::model::Role::Assistant => PromptMessage::assistant(content),
                _ => PromptMessage::user(content),
            }
        })
        .collect())
}

/// A completer asking the server; nothing to offer when it fails.
fn completer(
    forward: &Forwarder,
    reference: Reference,
) -> impl Fn(Completion) -> futures_util::future::BoxFuture<'static, Vec<String>> + Send + Sync + 'static
{
    let forward = forward.clone();
    move |request: Completion| {
        let forward = forward.clone();
        let mut params = CompleteRequestParams::new(
            reference.clone(),
            ArgumentInfo::new(request.argument, request.value),
        );
        if !request.context.is_empty() {
            params = params.with_context(CompletionContext::with_arguments(request.context));
        }
        Box::pin(async move {
            match forward.ask(forward.peer.complete(params)).await {
                Ok(result) => result.completion.values,
                Err(error) => {
                    tracing::debug!(%error, "completion/complete failed");
                    Vec::new()
                }
            }
        })
    }
}
