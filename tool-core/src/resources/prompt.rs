//! [`Prompt`]: a message template the client's user picks, filled by a closure from its
//! arguments.

use super::builders::{completed, indexed_by_name, shown};
use super::completion::{self, Completers, Completion};
use super::ResourceError;
use crate::client::AskContext;
use crate::output::ContentBlock;
use futures_util::future::BoxFuture;
use std::collections::HashMap;
use std::future::Future;
use std::sync::Arc;

type Render = Arc<
    dyn Fn(PromptArgs, AskContext) -> BoxFuture<'static, Result<Vec<PromptMessage>, ResourceError>>
        + Send
        + Sync,
>;

/// One argument of a [`Prompt`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PromptArgument {
    /// Its name.
    pub name: String,
    /// What to give, for the client's user.
    pub description: Option<String>,
    /// Whether the prompt can't be got without it.
    pub required: bool,
}

/// Who says a [`PromptMessage`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Role {
    /// The user.
    User,
    /// The model.
    Assistant,
}

impl Role {
    /// The role as MCP writes it: `"user"` or `"assistant"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::User => "user",
            Role::Assistant => "assistant",
        }
    }
}

/// One message of a prompt: who says it, and a content block (text, an image, audio, an
/// embedded resource).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct PromptMessage {
    /// Who says it.
    pub role: Role,
    /// What is said.
    pub content: ContentBlock,
}

impl PromptMessage {
    /// A message from the user: `PromptMessage::user("text")` or any [`ContentBlock`].
    pub fn user(content: impl Into<ContentBlock>) -> PromptMessage {
        PromptMessage {
            role: Role::User,
            content: content.into(),
        }
    }

    /// A message from the model.
    pub fn assistant(content: impl Into<ContentBlock>) -> PromptMessage {
        PromptMessage {
            role: Role::Assistant,
            content: content.into(),
        }
    }
}

/// The arguments a prompt was asked for with. `args["name"]` is empty for one not given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PromptArgs(HashMap<String, String>);

impl PromptArgs {
    /// Arguments from name-value pairs.
    pub fn new<K: Into<String>, V: Into<String>>(pairs: impl IntoIterator<Item = (K, V)>) -> Self {
        PromptArgs(
            pairs
                .into_iter()
                .map(|(k, v)| (k.into(), v.into()))
                .collect(),
        )
    }

    /// An argument's value, when given.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str)
    }

    /// Every argument given, name and value, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }
}

indexed_by_name!(PromptArgs);

/// A prompt: a name, a description, its arguments, and the closure writing its messages.
///
/// ```
/// use tool_runtime::output::ContentBlock;
/// use tool_runtime::resources::{Prompt, PromptMessage};
///
/// let review = Prompt::new("code_review", |args| async move {
///     Ok(vec![
///         PromptMessage::user(format!("Review this {} code:", &args["language"])),
///         PromptMessage::user(ContentBlock::resource_text("file:///main.rs", "text/x-rust", "fn main() {}")),
///     ])
/// })
/// .description("Ask for a code review.")
/// .argument("language", "The code's language.", true)
/// .complete_from("language", ["rust", "python", "go"]);
/// assert_eq!(review.name(), "code_review");
/// ```
#[derive(Clone)]
pub struct Prompt {
    pub(crate) name: String,
    pub(crate) title: Option<String>,
    pub(crate) description: Option<String>,
    pub(crate) arguments: Vec<PromptArgument>,
    pub(crate) render: Render,
    pub(crate) completers: Completers,
}

impl Prompt {
    /// Its display title, for the MCP server's `prompts/list`.
    #[doc(hidden)]
    pub fn shown_title(&self) -> Option<&String> {
        self.title.as_ref()
    }

    /// Its description, for the MCP server's `prompts/list` and `prompts/get`.
    #[doc(hidden)]
    pub fn shown_description(&self) -> Option<&String> {
        self.description.as_ref()
    }

    /// A prompt named `name` whose messages `render` writes from the arguments given.
    pub fn new<F, Fut>(name: impl Into<String>, render: F) -> Prompt
    where
        F: Fn(PromptArgs) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Vec<PromptMessage>, ResourceError>> + Send + 'static,
    {
        Prompt::asking(name, move |args, _| render(args))
    }

    /// A prompt named `name` whose messages `render` writes from the arguments given and what
    /// it asks the client through its [`AskContext`]: the user's input, a message from the
    /// client's model, the client's roots. An [`AskError`](crate::client::AskError) ends it
    /// with `?`.
    ///
    /// Over MCP under protocol 2026-07-28 a question makes `prompts/get` answer with an
    /// input-required result, and `render` runs again from the start when the client brings
    /// the answers: do nothing before a question that must happen once.
    ///
    /// ```
    /// use tool_runtime::client::Elicitation;
    /// use tool_runtime::resources::{Prompt, PromptMessage};
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Style {
    ///     /// How the commit message should read: "terse", "detailed".
    ///     style: String,
    /// }
    ///
    /// let commit = Prompt::asking("commit_message", |args, cx| async move {
    ///     let style = match cx.ask("style").elicit::<Style>("How should it read?").await? {
    ///         Elicitation::Accept(answer) => answer.style,
    ///         Elicitation::Decline | Elicitation::Cancel => "plain".into(),
    ///     };
    ///     Ok(vec![PromptMessage::user(format!(
    ///         "Write a {style} commit message for this diff:\n{}",
    ///         &args["diff"]
    ///     ))])
    /// })
    /// .argument("diff", "The staged diff.", true);
    /// assert_eq!(commit.name(), "commit_message");
    /// ```
    pub fn asking<F, Fut>(name: impl Into<String>, render: F) -> Prompt
    where
        F: Fn(PromptArgs, AskContext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Vec<PromptMessage>, ResourceError>> + Send + 'static,
    {
        Prompt {
            name: name.into(),
            title: None,
            description: None,
            arguments: Vec::new(),
            render: Arc::new(move |args, cx| Box::pin(render(args, cx))),
            completers: Completers::default(),
        }
    }

    /// Its name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its arguments, in order.
    pub fn arguments(&self) -> &[PromptArgument] {
        &self.arguments
    }

    /// Adds an argument. A `required` one left out is refused before `render` runs.
    #[must_use]
    pub fn argument(
        mut self,
        name: impl Into<String>,
        description: impl Into<String>,
        required: bool,
    ) -> Prompt {
        let description = description.into();
        self.arguments.push(PromptArgument {
            name: name.into(),
            description: (!description.is_empty()).then_some(description),
            required,
        });
        self
    }

    /// The messages for `args`, after checking the required arguments are there.
    pub(crate) async fn render(
        &self,
        args: PromptArgs,
    ) -> Result<Vec<PromptMessage>, ResourceError> {
        if let Some(missing) = self
            .arguments
            .iter()
            .find(|a| a.required && args.get(&a.name).is_none())
        {
            return Err(ResourceError::MissingArgument {
                prompt: self.name.clone(),
                argument: missing.name.clone(),
            });
        }
        (self.render)(args, AskContext::current()).await
    }
}

shown!(Prompt);
completed!(Prompt);

impl std::fmt::Debug for Prompt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Prompt")
            .field("name", &self.name)
            .field("arguments", &self.arguments)
            .finish_non_exhaustive()
    }
}
