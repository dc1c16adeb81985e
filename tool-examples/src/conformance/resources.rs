//! The resources, resource template and prompts the conformance suite reads and gets by
//! name, written with the registry's builder API: each says the scenario it answers. One
//! prompt asks its client first ([`Prompt::asking`]).

use super::RED_PIXEL_PNG;
use std::sync::Arc;
use std::time::Duration;
use tool_runtime::output::ContentBlock;
use tool_runtime::resources::{
    Contents, Prompt, PromptMessage, Resource, ResourceTemplate, Resources,
};
use tool_runtime::RegistryBuilder;

/// The resource `resources-subscribe` and `resources-unsubscribe` watch.
pub const WATCHED: &str = "test://watched-resource";

/// Adds the suite's resources, template and prompts to `builder`.
pub fn add_to(builder: RegistryBuilder) -> RegistryBuilder {
    builder
        // `resources-read-text`: "returns `{uri, mimeType: "text/plain", text}`".
        .resource(
            Resource::static_text(
                "test://static-text",
                "static-text",
                "This is the content of the static text resource.",
            )
            .description("A static text resource for testing."),
        )
        // `resources-read-binary`: a `blob` (base64) with a `mimeType`.
        .resource(
            Resource::new("test://static-binary", "static-binary", || async {
                Ok(Contents::blob(RED_PIXEL_PNG))
            })
            .description("A static binary resource (a 1×1 PNG) for testing.")
            .mime_type("image/png"),
        )
        // `resources-subscribe`, `resources-unsubscribe`.
        .resource(
            Resource::static_text(WATCHED, "watched-resource", "Watched resource content.")
                .description("A resource whose updates subscribers hear of (every second)."),
        )
        // `resources-templates-read`: "substitute `{id}`", the id in the contents.
        .resource_template(
            ResourceTemplate::new("test://template/{id}/data", "template", |vars| async move {
                let data = serde_json::json!({
                    "id": &vars["id"],
                    "templateTest": true,
                    "data": format!("Data for ID: {}", &vars["id"]),
                });
                Ok(Contents::text(data.to_string()))
            })
            .description("A resource template with an `{id}` parameter.")
            .mime_type("application/json")
            .complete_from("id", ["1", "2", "3", "123"]),
        )
        // `prompts-get-simple`.
        .prompt(
            Prompt::new("test_simple_prompt", |_| async {
                Ok(vec![PromptMessage::user(
                    "This is a simple prompt for testing.",
                )])
            })
            .description("A simple prompt without arguments."),
        )
        // `prompts-get-with-args`, `completion-complete`.
        .prompt(
            Prompt::new("test_prompt_with_arguments", |args| async move {
                Ok(vec![PromptMessage::user(format!(
                    "Prompt with arguments: arg1='{}', arg2='{}'",
                    &args["arg1"], &args["arg2"]
                ))])
            })
            .description("A prompt with required arguments.")
            .argument("arg1", "The first test argument.", true)
            .argument("arg2", "The second test argument.", true)
            .complete_from("arg1", ["test", "testValue1", "other"])
            .complete_from("arg2", ["testValue2"]),
        )
        // `prompts-get-embedded-resource`: a `resource` block, then text.
        .prompt(
            Prompt::new("test_prompt_with_embedded_resource", |args| async move {
                Ok(vec![
                    PromptMessage::user(ContentBlock::resource_text(
                        &args["resourceUri"],
                        "text/plain",
                        "Embedded resource content for testing.",
                    )),
                    PromptMessage::user("Please process the embedded resource above."),
                ])
            })
            .description("A prompt that embeds a resource.")
            .argument("resourceUri", "The URI of the resource to embed.", true),
        )
        // `prompts-get-with-image`: an `image` block, then text.
        .prompt(
            Prompt::new("test_prompt_with_image", |_| async {
                Ok(vec![
                    PromptMessage::user(ContentBlock::image("image/png", RED_PIXEL_PNG)),
                    PromptMessage::user("Please analyze the image above."),
                ])
            })
            .description("A prompt with an image."),
        )
        // `input-required-result-non-tool-request` (SEP-2322, protocol 2026-07-28): the
        // prompt asks `user_context` first, so `prompts/get` answers with an input-required
        // result, and the client's retry with the answer gets the messages.
        .prompt(
            Prompt::asking("test_input_required_result_prompt", |_, cx| async move {
                let answer = cx
                    .ask("user_context")
                    .elicit::<UserContext>("What context should the prompt use?")
                    .await?;
                let context = answer
                    .accepted()
                    .map_or_else(|| "none given".into(), |c| c.context);
                Ok(vec![PromptMessage::user(format!(
                    "Answer with this context in mind: {context}"
                ))])
            })
            .description("A prompt that asks the user for its context first."),
        )
}

/// What `test_input_required_result_prompt` asks: `{context: string}`, required.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct UserContext {
    context: String,
}

/// Says [`WATCHED`] changed every `period`, for as long as the runtime runs: what an app
/// does when its data changes, so that subscribed clients get
/// `notifications/resources/updated`.
pub fn keep_touching_watched(resources: Arc<Resources>, period: Duration) {
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(period);
        loop {
            ticks.tick().await;
            resources.updated(WATCHED);
        }
    });
}
