//! Importing a server's resources, resource templates and prompts beside its tools: listed
//! when the server declares them, and read, got and completed by forwarding to it. A read or
//! a prompt's questions (requests under the handshake, input-required results under
//! 2026-07-28) are asked of the reader's client ([`AskContext`]), as a local one's would be.

use super::asking::Asks;
use super::rounds::{self, Retry, RoundError};
use super::ImportNote;
use crate::client::AskContext;
use crate::mcp::content;
use crate::resources::{
    Completion, Contents, Prompt, PromptArgs, PromptMessage, Resource, ResourceError,
    ResourceTemplate, UriTemplate, VariableValues,
};
use rmcp::model::{
    ArgumentInfo, ClientRequest, CompleteRequestParams, CompletionContext, ErrorCode,
    GetPromptRequest, GetPromptRequestParams, ReadResourceRequest, ReadResourceRequestParams,
    Reference, ResourceContents, ServerResult,
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
    /// The requests in flight, for the server's questions to find the reader they ask.
    pub(crate) asks: Arc<Asks>,
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

    /// The request `build` makes, its questions asked through `cx`: a question that could
    /// not be asked is [`ResourceError::Ask`], as it would be for a local read.
    async fn forward(
        &self,
        cx: AskContext,
        build: impl Fn(Retry) -> ClientRequest,
    ) -> Result<ServerResult, ResourceError> {
        let peer = &self.peer;
        match rounds::forward(peer, &self.asks, cx, self.timeout, build).await {
            Ok(result) => Ok(result),
            Err(RoundError::Ask(error)) => Err(ResourceError::Ask(error)),
            Err(RoundError::Service(error)) => Err(self.failure(error)),
            Err(error) => Err(ResourceError::failed(format!(
                "MCP server `{}`: {error}",
                self.server
            ))),
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
            let mut resource = Resource::asking(remote.uri, remote.name, move |cx| {
                let (forward, uri) = (forward.clone(), uri.clone());
                async move { read(&forward, uri, cx).await }
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
        let read_one = move |vars: crate::resources::Vars, cx| {
            let forward = reader.clone();
            async move { read(&forward, vars.uri().to_owned(), cx).await }
        };
        let mut template = ResourceTemplate::asking(&remote.uri_template, remote.name, read_one);
        // The URI is forwarded whole, never joined to a path here: the server checks its own
        // values, and `%2F` in one of its URIs is its business.
        for variable in parsed.variables() {
            template = template.variable_values(variable, VariableValues::Raw);
        }
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
            let mut prompt =
                Prompt::asking(format!("{prefix}__{}", remote.name), move |args, cx| {
                    let (forward, name) = (getter.clone(), name.clone());
                    async move { get(&forward, name, args, cx).await }
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
async fn read(
    forward: &Forwarder,
    uri: String,
    cx: AskContext,
) -> Result<Vec<Contents>, ResourceError> {
    let request = |retry: Retry| {
        let mut params = ReadResourceRequestParams::new(uri.clone());
        params.input_responses = retry.input_responses;
        params.request_state = retry.request_state;
        ClientRequest::ReadResourceRequest(ReadResourceRequest::new(params))
    };
    let result = match forward.forward(cx, request).await {
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
        Ok(ServerResult::ReadResourceResult(result)) => result,
        Ok(_) => return Err(forward.failure(ServiceError::UnexpectedResponse)),
        Err(error) => return Err(error),
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
    cx: AskContext,
) -> Result<Vec<PromptMessage>, ResourceError> {
    let arguments: serde_json::Map<String, serde_json::Value> = args
        .iter()
        .map(|(k, v)| (k.to_owned(), serde_json::Value::String(v.to_owned())))
        .collect();
    let request = |retry: Retry| {
        let mut params = GetPromptRequestParams::new(name.clone());
        params.arguments = Some(arguments.clone());
        params.input_responses = retry.input_responses;
        params.request_state = retry.request_state;
        ClientRequest::GetPromptRequest(GetPromptRequest::new(params))
    };
    let result = match forward.forward(cx, request).await? {
        ServerResult::GetPromptResult(result) => result,
        _ => return Err(forward.failure(ServiceError::UnexpectedResponse)),
    };
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
