//! [`Resources`]: every resource, template and prompt of a registry, and the updates its
//! subscribers hear about.

use super::completion::Completion;
use super::resource::{fixed, Reader};
use super::{
    MatchError, Prompt, PromptArgs, PromptMessage, Resource, ResourceError, ResourceTemplate, Vars,
    MAX_URI_BYTES,
};
use crate::client::AskContext;
use crate::output::Resource as Embedded;
use tokio::sync::broadcast;

/// How many updates a slow subscriber may fall behind before it misses some.
const UPDATES_BUFFERED: usize = 256;

/// A registry's resources, resource templates and prompts: listed, read and got here and by
/// `tool_runtime::mcp::McpServer`, which serves them beside the tools.
///
/// ```
/// use tool_runtime::resources::{Contents, Prompt, PromptArgs, PromptMessage, Resource};
/// use tool_runtime::Registry;
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let registry = Registry::builder()
///     .without_inventory()
///     .resource(Resource::static_text("memo://today", "today", "Ship it."))
///     .prompt(Prompt::new("greet", |args| async move {
///         Ok(vec![PromptMessage::user(format!("Say hello to {}.", &args["name"]))])
///     }).argument("name", "Who to greet.", true))
///     .build()
///     .unwrap();
/// let contents = registry.resources().read("memo://today").await.unwrap();
/// assert_eq!(contents[0].mime_type.as_deref(), Some("text/plain"));
/// let messages = registry.resources().get_prompt("greet", PromptArgs::new([("name", "Ada")])).await.unwrap();
/// assert_eq!(messages[0].content.to_model_text(), "Say hello to Ada.");
/// registry.resources().updated("memo://today"); // subscribed clients hear of it
/// # });
/// ```
pub struct Resources {
    pub(crate) resources: Vec<Resource>,
    pub(crate) templates: Vec<ResourceTemplate>,
    pub(crate) prompts: Vec<Prompt>,
    updates: broadcast::Sender<String>,
}

impl Default for Resources {
    fn default() -> Self {
        Resources {
            resources: Vec::new(),
            templates: Vec::new(),
            prompts: Vec::new(),
            updates: broadcast::channel(UPDATES_BUFFERED).0,
        }
    }
}

/// What [`Resources::complete`] completes an argument of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompletionTarget<'a> {
    /// A prompt's argument, by the prompt's name.
    Prompt(&'a str),
    /// A template's variable, by the template as written.
    Template(&'a str),
}

impl Resources {
    /// The resources at fixed URIs, in the order added.
    pub fn resources(&self) -> &[Resource] {
        &self.resources
    }

    /// The resource templates, in the order added.
    pub fn templates(&self) -> &[ResourceTemplate] {
        &self.templates
    }

    /// The prompts, in the order added.
    pub fn prompts(&self) -> &[Prompt] {
        &self.prompts
    }

    /// Whether there is nothing here at all.
    pub fn is_empty(&self) -> bool {
        self.resources.is_empty() && self.templates.is_empty() && self.prompts.is_empty()
    }

    /// Reads the resource at `uri`: the resource with that URI, or else the first template
    /// matching it. Each contents' URI is `uri` unless the reader said otherwise, and its MIME
    /// type the resource's unless the reader set one.
    ///
    /// # Errors
    ///
    /// [`ResourceError::NotFound`] when nothing has that URI; [`ResourceError::InvalidUri`]
    /// for a URI over [`MAX_URI_BYTES`](super::MAX_URI_BYTES) or a variable whose decoded
    /// value its template refuses (the reader doesn't run); what the reader returned.
    pub async fn read(&self, uri: &str) -> Result<Vec<Embedded>, ResourceError> {
        let (read, vars, mime_type) = self.find(uri)?;
        let contents = read(vars, AskContext::current()).await?;
        Ok(contents
            .into_iter()
            .map(|c| c.into_embedded(uri, mime_type.as_deref()))
            .collect())
    }

    /// Whether a resource is at `uri`, or a template matches it with values it takes: what a
    /// subscription must name, so that a client can't make a session keep URIs nothing
    /// serves.
    ///
    /// # Errors
    ///
    /// As [`read`](Self::read) before its reader runs: [`ResourceError::NotFound`],
    /// [`ResourceError::InvalidUri`].
    pub fn serves(&self, uri: &str) -> Result<(), ResourceError> {
        self.find(uri).map(|_| ())
    }

    /// The reader, variables and MIME type of `uri`. A template that refuses a value is
    /// passed over for the next; when none takes the URI, the first refusal says why.
    fn find(&self, uri: &str) -> Result<(&Reader, Vars, &Option<String>), ResourceError> {
        if uri.len() > MAX_URI_BYTES {
            return Err(ResourceError::InvalidUri(MatchError::TooLong {
                length: uri.len(),
                max: MAX_URI_BYTES,
            }));
        }
        if let Some(resource) = self.resources.iter().find(|r| r.uri == uri) {
            return Ok((&resource.read, fixed(uri), &resource.listing.mime_type));
        }
        let mut refused = None;
        for template in &self.templates {
            match template.vars(uri) {
                Ok(Some(vars)) => return Ok((&template.read, vars, &template.listing.mime_type)),
                Ok(None) => {}
                Err(error) => {
                    refused.get_or_insert(error);
                }
            }
        }
        Err(match refused {
            Some(error) => ResourceError::InvalidUri(error),
            None => ResourceError::NotFound {
                uri: uri.to_owned(),
            },
        })
    }

    /// The prompt `name`'s messages for `args`.
    ///
    /// # Errors
    ///
    /// [`ResourceError::UnknownPrompt`], [`ResourceError::MissingArgument`] for a required
    /// argument left out, and what the prompt returned.
    pub async fn get_prompt(
        &self,
        name: &str,
        args: PromptArgs,
    ) -> Result<Vec<PromptMessage>, ResourceError> {
        let prompt = self
            .prompt(name)
            .ok_or_else(|| ResourceError::UnknownPrompt {
                name: name.to_owned(),
            })?;
        prompt.render(args).await
    }

    /// A prompt, by name.
    pub fn prompt(&self, name: &str) -> Option<&Prompt> {
        self.prompts.iter().find(|p| p.name == name)
    }

    /// The values to offer while an argument of `target` is typed: none for an argument
    /// without a completer.
    ///
    /// # Errors
    ///
    /// [`ResourceError::UnknownPrompt`] or [`ResourceError::NotFound`] when `target` names
    /// nothing here.
    pub async fn complete(
        &self,
        target: CompletionTarget<'_>,
        request: Completion,
    ) -> Result<Vec<String>, ResourceError> {
        let completers = match target {
            CompletionTarget::Prompt(name) => {
                &self
                    .prompt(name)
                    .ok_or_else(|| ResourceError::UnknownPrompt {
                        name: name.to_owned(),
                    })?
                    .completers
            }
            CompletionTarget::Template(text) => {
                &self
                    .templates
                    .iter()
                    .find(|t| t.text == text)
                    .ok_or_else(|| ResourceError::NotFound {
                        uri: text.to_owned(),
                    })?
                    .completers
            }
        };
        Ok(completers.complete(request).await)
    }

    /// Whether any prompt or template completes an argument: the `completions` capability.
    pub fn completes(&self) -> bool {
        self.prompts.iter().any(|p| !p.completers.is_empty())
            || self.templates.iter().any(|t| !t.completers.is_empty())
    }

    /// Says the resource at `uri` changed: every MCP session subscribed to it gets
    /// `notifications/resources/updated`.
    pub fn updated(&self, uri: impl Into<String>) {
        // No receiver is no session listening: nothing to tell.
        let _ = self.updates.send(uri.into());
    }

    /// The URIs [`updated`](Self::updated) names from now on.
    pub fn updates(&self) -> broadcast::Receiver<String> {
        self.updates.subscribe()
    }
}

impl std::fmt::Debug for Resources {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Resources")
            .field("resources", &self.resources.len())
            .field("templates", &self.templates.len())
            .field("prompts", &self.prompts.len())
            .finish()
    }
}

/// What the registry's build refuses: templates that aren't level 1, and two resources,
/// templates or prompts that a client couldn't tell apart.
pub(crate) fn check(resources: &Resources) -> Vec<crate::BuildError> {
    use crate::BuildError;
    let mut errors: Vec<BuildError> = resources
        .templates
        .iter()
        .filter_map(|t| match &t.template {
            Ok(_) => None,
            Err(error) => Some(BuildError::UriTemplate {
                template: t.text.clone(),
                source: error.clone(),
            }),
        })
        .collect();
    let mut duplicates = |kind: &'static str, names: Vec<&str>| {
        let mut seen = std::collections::HashSet::new();
        for name in names {
            if !seen.insert(name) {
                errors.push(BuildError::DuplicateResource {
                    kind,
                    name: name.to_owned(),
                });
            }
        }
    };
    duplicates(
        "resources",
        resources.resources.iter().map(|r| r.uri.as_str()).collect(),
    );
    duplicates(
        "resource templates",
        resources
            .templates
            .iter()
            .map(|t| t.text.as_str())
            .collect(),
    );
    duplicates(
        "prompts",
        resources.prompts.iter().map(|p| p.name.as_str()).collect(),
    );
    errors
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::ResourceBody;
    use crate::resources::Contents;
    use crate::{BuildError, Registry};

    fn block_on<F: std::future::Future>(future: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(future)
    }

    fn registry() -> Registry {
        Registry::builder()
            .without_inventory()
            .resource(Resource::static_text("a://one", "one", "1"))
            .resource(
                Resource::new("a://pair", "pair", || async {
                    Ok(vec![
                        Contents::text("left"),
                        Contents::blob([1, 2]).at("a://pair/right").mime_type("x/y"),
                    ])
                })
                .mime_type("text/plain"),
            )
            .resource_template(ResourceTemplate::new("a://{x}/t", "t", |vars| async move {
                Ok(Contents::text(format!("x={}", &vars["x"])))
            }))
            .resource_template(ResourceTemplate::new("a://{y}", "fails", |_| async {
                Err::<Contents, _>(ResourceError::failed("the disk is gone"))
            }))
            .prompt(
                Prompt::new("p", |args| async move {
                    Ok(vec![PromptMessage::assistant(format!(
                        "hi {}",
                        &args["who"]
                    ))])
                })
                .argument("who", "", true)
                .complete("who", |c| async move { vec![format!("{}!", c.value)] }),
            )
            .build()
            .unwrap()
    }

    #[test]
    fn reads_find_the_resource_then_the_first_matching_template() {
        let registry = registry();
        let resources = registry.resources();
        let one = block_on(resources.read("a://one")).unwrap();
        assert_eq!(one[0].mime_type.as_deref(), Some("text/plain"));
        let pair = block_on(resources.read("a://pair")).unwrap();
        assert_eq!(
            (pair[0].uri.as_str(), pair[1].uri.as_str()),
            ("a://pair", "a://pair/right")
        );
        assert_eq!(pair[1].mime_type.as_deref(), Some("x/y"));
        assert!(matches!(pair[1].body, ResourceBody::Blob { .. }));
        let templated = block_on(resources.read("a://7/t")).unwrap();
        assert_eq!(templated[0].body, ResourceBody::Text { text: "x=7".into() });
        assert!(matches!(
            block_on(resources.read("a://z")),
            Err(ResourceError::Failed { .. })
        ));
        assert!(matches!(
            block_on(resources.read("b://nothing")),
            Err(ResourceError::NotFound { uri }) if uri == "b://nothing"
        ));
    }

    #[test]
    fn prompts_check_their_required_arguments_first() {
        let registry = registry();
        let resources = registry.resources();
        let messages =
            block_on(resources.get_prompt("p", PromptArgs::new([("who", "Ada")]))).unwrap();
        assert_eq!(messages[0].content.to_model_text(), "hi Ada");
        assert!(matches!(
            block_on(resources.get_prompt("p", PromptArgs::default())),
            Err(ResourceError::MissingArgument { argument, .. }) if argument == "who"
        ));
        assert!(matches!(
            block_on(resources.get_prompt("q", PromptArgs::default())),
            Err(ResourceError::UnknownPrompt { .. })
        ));
        let complete = |target| block_on(resources.complete(target, Completion::new("who", "A")));
        assert_eq!(complete(CompletionTarget::Prompt("p")).unwrap(), ["A!"]);
        assert!(complete(CompletionTarget::Template("a://{x}/t"))
            .unwrap()
            .is_empty());
        assert!(complete(CompletionTarget::Template("a://{nope}")).is_err());
        assert!(resources.completes());
    }

    /// Item 10: the reader of `a://{x}/t` got `../../etc/passwd` from
    /// `a://..%2F..%2Fetc%2Fpasswd/t`. A refused value is passed over for the next template,
    /// and when none takes the URI the refusal says why; a URI over the limit is refused
    /// before anything is matched.
    #[test]
    fn a_refused_value_falls_to_the_next_template_then_says_why() {
        let registry = registry();
        let resources = registry.resources();
        let escaping = block_on(resources.read("a://..%2F..%2Fetc%2Fpasswd/t"));
        assert!(
            matches!(&escaping, Err(ResourceError::InvalidUri(MatchError::Refused { variable, .. })) if variable == "x"),
            "{escaping:?}"
        );
        // Only `a://{y}` has this shape, and it refuses a NUL.
        assert!(matches!(
            block_on(resources.read("a://%00")),
            Err(ResourceError::InvalidUri(MatchError::Refused { .. }))
        ));
        let long = format!("a://{}", "1".repeat(MAX_URI_BYTES));
        assert!(matches!(
            block_on(resources.read(&long)),
            Err(ResourceError::InvalidUri(MatchError::TooLong { .. }))
        ));
        assert!(resources.serves("a://one").is_ok());
        assert!(resources.serves("a://7/t").is_ok());
        assert!(matches!(
            resources.serves("b://x"),
            Err(ResourceError::NotFound { .. })
        ));
        assert!(resources.serves("a://..%2Fx/t").is_err());
    }

    #[test]
    fn subscribers_hear_of_updates() {
        let registry = registry();
        let mut updates = registry.resources().updates();
        registry.resources().updated("a://one");
        assert_eq!(updates.try_recv().unwrap(), "a://one");
    }

    #[test]
    fn the_build_refuses_bad_templates_and_duplicates() {
        let read = || async { Ok(Contents::text("")) };
        let error = Registry::builder()
            .without_inventory()
            .resource(Resource::new("a://1", "a", read))
            .resource(Resource::new("a://1", "b", read))
            .resource_template(ResourceTemplate::new("a://{x", "t", |_| async {
                Ok(Contents::text(""))
            }))
            .prompt(Prompt::new("p", |_| async { Ok(vec![]) }))
            .prompt(Prompt::new("p", |_| async { Ok(vec![]) }))
            .build()
            .unwrap_err()
            .to_string();
        assert!(error.contains("two resources are `a://1`"), "{error}");
        assert!(error.contains("two prompts are `p`"), "{error}");
        assert!(
            error.contains("the resource template `a://{x` can't be used"),
            "{error}"
        );
        let problems = Registry::builder()
            .without_inventory()
            .resource_template(ResourceTemplate::new("a://{+x}", "t", |_| async {
                Ok(Contents::text(""))
            }))
            .build()
            .unwrap_err();
        assert!(
            matches!(problems, BuildError::UriTemplate { .. }),
            "{problems:?}"
        );
    }
}
