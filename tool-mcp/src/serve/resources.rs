//! Serving a registry's [`Resources`]: `resources/*`, `prompts/*` and `completion/complete`
//! for [`McpServer`], and the subscriptions of one session.

use super::asking::Asked;
use super::paging::page;
use crate::client::AskError;
use crate::lock::lock;
use crate::output::{Resource as Embedded, ResourceBody};
use crate::resources::{
    Completion, CompletionTarget, Prompt, PromptArgs, PromptMessage, ResourceError, Resources,
};
use crate::rounds::input_required;
use crate::McpServer;
use rmcp::model::{
    CompleteRequestParams, CompleteResult, CompletionInfo, ErrorData, GetPromptRequestParams,
    GetPromptResponse, GetPromptResult, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, PaginatedRequestParams, PromptArgument, ReadResourceRequestParams,
    ReadResourceResponse, ReadResourceResult, Reference, ResourceContents,
};
use rmcp::service::{Peer, RequestContext, RoleServer};
use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use tokio_util::sync::{CancellationToken, DropGuard};

/// The resource URIs one session subscribed to, and the task telling it of their updates.
#[derive(Default)]
pub(crate) struct Subscriptions {
    uris: Arc<Mutex<HashSet<String>>>,
    /// Stops the task when the session's server goes: rmcp drops it with the session.
    listener: Mutex<Option<DropGuard>>,
}

/// How many URIs one session may be subscribed to at once: with [`MAX_URI_BYTES`](crate::resources::MAX_URI_BYTES) each, a
/// session keeps at most 2 MiB of them, however many `resources/subscribe` it sends.
pub(crate) const SUBSCRIPTIONS_MAX: usize = 256;

impl Subscriptions {
    /// Subscribes to `uri`, starting the task that forwards updates on the first call. Only
    /// a URI the registry serves is kept (a resource's, or one a template matches), and at
    /// most [`SUBSCRIPTIONS_MAX`] of them: a session can't grow the process with URIs
    /// nothing will ever update.
    ///
    /// # Errors
    ///
    /// `-32002` for a URI nothing serves, `-32602` for one over [`MAX_URI_BYTES`](crate::resources::MAX_URI_BYTES), one whose
    /// template refuses a value, or one past the session's [`SUBSCRIPTIONS_MAX`].
    pub(crate) fn subscribe(
        &self,
        uri: String,
        resources: &Arc<Resources>,
        peer: &Peer<RoleServer>,
    ) -> Result<(), ErrorData> {
        resources.serves(&uri).map_err(error_data)?;
        {
            let mut uris = lock(&self.uris);
            if uris.len() >= SUBSCRIPTIONS_MAX && !uris.contains(&uri) {
                return Err(ErrorData::invalid_params(
                    format!(
                        "this session is subscribed to {SUBSCRIPTIONS_MAX} resources, the most \
                         it may be: unsubscribe from one first"
                    ),
                    Some(serde_json::json!({ "max": SUBSCRIPTIONS_MAX })),
                ));
            }
            uris.insert(uri);
        }
        let mut listener = lock(&self.listener);
        if listener.is_some() {
            return Ok(());
        }
        let stop = CancellationToken::new();
        *listener = Some(stop.clone().drop_guard());
        let uris = self.uris.clone();
        let peer = peer.clone();
        let mut updates = resources.updates();
        tokio::spawn(async move {
            loop {
                let uri = tokio::select! {
                    () = stop.cancelled() => return,
                    uri = updates.recv() => uri,
                };
                let uri = match uri {
                    Ok(uri) => uri,
                    // Fell behind: the updates missed can't be named, the next ones can.
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
                };
                if !lock(&uris).contains(&uri) {
                    continue;
                }
                let params = rmcp::model::ResourceUpdatedNotificationParam::new(uri);
                if peer.notify_resource_updated(params).await.is_err() {
                    return; // the client is gone
                }
            }
        });
        Ok(())
    }

    /// Unsubscribes from `uri` (a URI never subscribed to is no error).
    pub(crate) fn unsubscribe(&self, uri: &str) {
        lock(&self.uris).remove(uri);
    }
}

impl McpServer {
    pub(crate) fn list_resources_page(
        &self,
        request: Option<&PaginatedRequestParams>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let resources = self.registry().resources();
        let (items, next) = page(resources.resources(), cursor(request), self.page_size)?;
        let items = items
            .iter()
            .map(|r| {
                let listing = r.listing();
                let mut wire = rmcp::model::Resource::new(r.uri(), &listing.name);
                wire.title.clone_from(&listing.title);
                wire.description.clone_from(&listing.description);
                wire.mime_type.clone_from(&listing.mime_type);
                wire.size = listing.size;
                wire
            })
            .collect();
        let mut result = ListResourcesResult::with_all_items(items);
        result.next_cursor = next;
        Ok(result)
    }

    pub(crate) fn list_templates_page(
        &self,
        request: Option<&PaginatedRequestParams>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        let resources = self.registry().resources();
        let (items, next) = page(resources.templates(), cursor(request), self.page_size)?;
        let items = items
            .iter()
            .map(|t| {
                let listing = t.listing();
                let mut wire = rmcp::model::ResourceTemplate::new(t.uri_template(), &listing.name);
                wire.title.clone_from(&listing.title);
                wire.description.clone_from(&listing.description);
                wire.mime_type.clone_from(&listing.mime_type);
                wire
            })
            .collect();
        let mut result = ListResourceTemplatesResult::with_all_items(items);
        result.next_cursor = next;
        Ok(result)
    }

    /// `resources/read`: the contents, or the questions the reader asked first.
    pub(crate) async fn read(
        &self,
        request: ReadResourceRequestParams,
        cx: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let read = self.registry().resources().read(&request.uri);
        let contents = match self.asking(&request, &cx, read).await? {
            Asked::InputRequired(questions) => return Ok(questions.into()),
            Asked::Done(contents) => contents.map_err(error_data)?,
        };
        Ok(ReadResourceResult::new(contents.into_iter().map(wire_contents).collect()).into())
    }

    pub(crate) fn list_prompts_page(
        &self,
        request: Option<&PaginatedRequestParams>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let resources = self.registry().resources();
        let (items, next) = page(resources.prompts(), cursor(request), self.page_size)?;
        let mut result = ListPromptsResult::with_all_items(items.iter().map(wire_prompt).collect());
        result.next_cursor = next;
        Ok(result)
    }

    /// `prompts/get`: the messages, or the questions the prompt asked first.
    pub(crate) async fn get_prompt_messages(
        &self,
        request: GetPromptRequestParams,
        cx: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let resources = self.registry().resources();
        let args = PromptArgs::new(request.arguments.iter().flatten().map(|(k, v)| {
            // The spec's arguments are strings; a client sending a number meant its text.
            let v = match v {
                serde_json::Value::String(text) => text.clone(),
                other => other.to_string(),
            };
            (k.clone(), v)
        }));
        let got = resources.get_prompt(&request.name, args);
        let messages = match self.asking(&request, &cx, got).await? {
            Asked::InputRequired(questions) => return Ok(questions.into()),
            Asked::Done(messages) => messages.map_err(error_data)?,
        };
        let messages = messages
            .iter()
            .map(wire_message)
            .collect::<Result<Vec<_>, _>>()?;
        let mut result = GetPromptResult::new(messages);
        result.description = resources
            .prompt(&request.name)
            .and_then(|p| p.shown_description().cloned());
        Ok(result.into())
    }

    pub(crate) async fn complete_argument(
        &self,
        request: CompleteRequestParams,
    ) -> Result<CompleteResult, ErrorData> {
        let target = match &request.r#ref {
            Reference::Prompt(prompt) => CompletionTarget::Prompt(&prompt.name),
            Reference::Resource(template) => CompletionTarget::Template(&template.uri),
            _ => return Err(ErrorData::invalid_params("an unknown kind of `ref`", None)),
        };
        let context = request
            .context
            .and_then(|c| c.arguments)
            .unwrap_or_default();
        let completion =
            Completion::new(request.argument.name, request.argument.value).with_context(context);
        let mut values = self
            .registry()
            .resources()
            .complete(target, completion)
            .await
            .map_err(|error| ErrorData::invalid_params(error.to_string(), None))?;
        let total = values.len();
        values.truncate(CompletionInfo::MAX_VALUES);
        let mut info = CompletionInfo::default();
        info.has_more = Some(total > values.len());
        info.total = u32::try_from(total).ok();
        info.values = values;
        Ok(CompleteResult::new(info))
    }
}

fn cursor(request: Option<&PaginatedRequestParams>) -> Option<&str> {
    request.and_then(|r| r.cursor.as_deref())
}

/// The spec's errors: `-32002` for a resource not found, `-32602` for a prompt asked for
/// wrongly, a URI too long or whose template refuses a value, or a client's answer that doesn't fit its question, `-32021` for a question the
/// client can't answer, `-32603` for a reader or prompt that failed.
fn error_data(error: ResourceError) -> ErrorData {
    let message = error.to_string();
    match error {
        ResourceError::NotFound { uri } => {
            ErrorData::resource_not_found(message, Some(serde_json::json!({ "uri": uri })))
        }
        ResourceError::UnknownPrompt { .. }
        | ResourceError::MissingArgument { .. }
        | ResourceError::InvalidUri(_)
        | ResourceError::Ask(AskError::Answer { .. }) => ErrorData::invalid_params(message, None),
        ResourceError::Ask(AskError::Unsupported { capability }) => ErrorData {
            message: message.into(),
            ..input_required::missing_capability(capability)
        },
        _ => ErrorData::internal_error(message, None),
    }
}

fn wire_contents(contents: Embedded) -> ResourceContents {
    match contents.body {
        ResourceBody::Text { text } => ResourceContents::TextResourceContents {
            uri: contents.uri,
            mime_type: contents.mime_type,
            text,
            meta: None,
        },
        ResourceBody::Blob { blob } => ResourceContents::BlobResourceContents {
            uri: contents.uri,
            mime_type: contents.mime_type,
            blob,
            meta: None,
        },
    }
}

fn wire_prompt(prompt: &Prompt) -> rmcp::model::Prompt {
    let arguments = prompt
        .arguments()
        .iter()
        .map(|a| {
            let mut wire = PromptArgument::new(&a.name).with_required(a.required);
            wire.description.clone_from(&a.description);
            wire
        })
        .collect::<Vec<_>>();
    let mut wire = rmcp::model::Prompt::new(
        prompt.name(),
        prompt.shown_description().cloned(),
        (!arguments.is_empty()).then_some(arguments),
    );
    wire.title = prompt.shown_title().cloned();
    wire
}

/// A message in MCP's shape, its content written by the same code as a tool result's.
fn wire_message(message: &PromptMessage) -> Result<rmcp::model::PromptMessage, ErrorData> {
    let role = message.role.as_str();
    let wire = serde_json::json!({
        "role": role,
        "content": crate::results::mcp_block(&message.content),
    });
    serde_json::from_value(wire).map_err(|error| {
        ErrorData::internal_error(format!("a prompt message MCP can't carry: {error}"), None)
    })
}

/// The capabilities `resources` adds: `resources` (with `subscribe`) when there are resources
/// or templates, `prompts` when there are prompts, `completions` when there are either.
pub(crate) fn capabilities(
    mut capabilities: rmcp::model::ServerCapabilities,
    resources: &Resources,
) -> rmcp::model::ServerCapabilities {
    let has_resources = !resources.resources().is_empty() || !resources.templates().is_empty();
    if has_resources {
        let mut declared = rmcp::model::ResourcesCapability::default();
        declared.subscribe = Some(true);
        capabilities.resources = Some(declared);
    }
    if !resources.prompts().is_empty() {
        capabilities.prompts = Some(rmcp::model::PromptsCapability::default());
    }
    if has_resources || !resources.prompts().is_empty() {
        capabilities.completions = Some(rmcp::model::JsonObject::new());
    }
    capabilities
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::ContentBlock;
    use crate::resources::Resource;
    use crate::Registry;
    use rmcp::ServerHandler;

    #[test]
    fn errors_are_the_specs_codes() {
        let code = |error| error_data(error).code.0;
        assert_eq!(code(ResourceError::NotFound { uri: "x".into() }), -32002);
        assert_eq!(
            code(ResourceError::UnknownPrompt { name: "p".into() }),
            -32602
        );
        let missing = ResourceError::MissingArgument {
            prompt: "p".into(),
            argument: "a".into(),
        };
        assert_eq!(code(missing), -32602);
        assert_eq!(code(ResourceError::failed("no")), -32603);
        // A question the client can't answer names the capability, whatever the version.
        let unsupported = error_data(ResourceError::Ask(AskError::Unsupported {
            capability: "elicitation",
        }));
        assert_eq!(unsupported.code.0, -32021);
        assert!(unsupported.message.contains("does not support elicitation"));
        let data = unsupported.data.unwrap();
        assert!(
            data["requiredCapabilities"]["elicitation"].is_object(),
            "{data}"
        );
        let unreadable = serde_json::from_str::<u8>("x").unwrap_err();
        let answer = AskError::Answer {
            method: "elicitation/create",
            source: unreadable,
        };
        assert_eq!(code(ResourceError::Ask(answer)), -32602);
        let alone = AskError::NoClient {
            capability: "sampling",
        };
        assert_eq!(code(ResourceError::Ask(alone)), -32603);
    }

    #[test]
    fn capabilities_follow_what_the_registry_has() {
        let bare = McpServer::new(Registry::builder().without_inventory().build().unwrap());
        let info = bare.get_info();
        assert!(info.capabilities.resources.is_none());
        assert!(info.capabilities.prompts.is_none());
        assert!(info.capabilities.completions.is_none());
        let registry = Registry::builder()
            .without_inventory()
            .resource(Resource::static_text("a://b", "b", "text"))
            .build()
            .unwrap();
        let info = McpServer::new(registry).get_info();
        let resources = info.capabilities.resources.unwrap();
        assert_eq!(resources.subscribe, Some(true));
        assert!(info.capabilities.prompts.is_none());
        assert!(info.capabilities.completions.is_some());
    }

    #[test]
    fn prompt_messages_carry_every_kind_of_block() {
        for (content, kind) in [
            (ContentBlock::text("t"), "text"),
            (ContentBlock::image("image/png", [1]), "image"),
            (ContentBlock::audio("audio/wav", [1]), "audio"),
            (
                ContentBlock::resource_text("a://b", "text/plain", "t"),
                "resource",
            ),
        ] {
            let wire = wire_message(&PromptMessage::assistant(content)).unwrap();
            let json = serde_json::to_value(&wire).unwrap();
            assert_eq!(json["role"], "assistant");
            assert_eq!(json["content"]["type"], kind, "{json}");
        }
    }

    #[test]
    fn resource_lists_come_in_pages() {
        let registry = (0..5)
            .fold(Registry::builder().without_inventory(), |b, i| {
                b.resource(Resource::static_text(format!("a://{i}"), "r", ""))
            })
            .build()
            .unwrap();
        let server = McpServer::new(registry).page_size(2);
        let first = server.list_resources_page(None).unwrap();
        assert_eq!(first.resources.len(), 2);
        let mut request = PaginatedRequestParams::default();
        request.cursor = first.next_cursor;
        let second = server.list_resources_page(Some(&request)).unwrap();
        assert_eq!(second.resources[0].uri, "a://2");
    }
}
