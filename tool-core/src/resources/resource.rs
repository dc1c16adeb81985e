//! [`Resource`] and [`ResourceTemplate`]: data the client reads by URI, each with the closure
//! that reads it.

use super::builders::{completed, indexed_by_name, listed};
use super::completion::{self, Completers, Completion};
use super::{Contents, MatchError, ResourceError, TemplateError, UriTemplate, VariableValues};
use crate::client::AskContext;
use futures_util::future::BoxFuture;
use std::collections::HashMap;
use std::future::Future;
use std::sync::Arc;

/// What a reader closure is once stored.
pub(crate) type Reader = Arc<
    dyn Fn(Vars, AskContext) -> BoxFuture<'static, Result<Vec<Contents>, ResourceError>>
        + Send
        + Sync,
>;

fn reader<F, Fut, C>(read: F) -> Reader
where
    F: Fn(Vars, AskContext) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<C, ResourceError>> + Send + 'static,
    C: Into<Vec<Contents>>,
{
    Arc::new(move |vars, cx| {
        let read = read(vars, cx);
        Box::pin(async move { read.await.map(Into::into) })
    })
}

/// How the client sees a resource or template: its name, title, description, MIME type.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct Listing {
    /// The programmatic name.
    pub name: String,
    /// A display name for UIs.
    pub title: Option<String>,
    /// What it holds, for the client's model or user.
    pub description: Option<String>,
    /// The MIME type of its contents, when known.
    pub mime_type: Option<String>,
    /// Its size in bytes, when known (resources only).
    pub size: Option<u64>,
}

/// A resource at a fixed URI, read by a closure each time a client asks.
///
/// ```
/// use tool_runtime::resources::{Contents, Resource};
///
/// let readme = Resource::new("file:///README.md", "readme", || async {
///     Ok(Contents::text("# Hello"))
/// })
/// .description("The project's README.")
/// .mime_type("text/markdown");
/// assert_eq!(readme.uri(), "file:///README.md");
/// ```
#[derive(Clone)]
pub struct Resource {
    pub(crate) uri: String,
    pub(crate) listing: Listing,
    pub(crate) read: Reader,
}

impl Resource {
    /// A resource at `uri` named `name`, whose contents `read` gives: one [`Contents`] or a
    /// `Vec` of them.
    pub fn new<F, Fut, C>(uri: impl Into<String>, name: impl Into<String>, read: F) -> Resource
    where
        F: Fn() -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<C, ResourceError>> + Send + 'static,
        C: Into<Vec<Contents>>,
    {
        Resource::asking(uri, name, move |_| read())
    }

    /// A resource at `uri` named `name`, whose contents `read` gives after asking the client
    /// what it needs through its [`AskContext`], as [`Prompt::asking`](super::Prompt::asking)
    /// does: under protocol 2026-07-28 a question makes `resources/read` answer with an
    /// input-required result, and `read` runs again when the client brings the answers.
    ///
    /// ```
    /// use tool_runtime::resources::{Contents, Resource};
    ///
    /// let workspace = Resource::asking("file:///workspace", "workspace", |cx| async move {
    ///     let roots = cx.roots().await?;
    ///     let listed: Vec<_> = roots.iter().map(|root| root.uri.as_str()).collect();
    ///     Ok(Contents::text(listed.join("\n")))
    /// });
    /// assert_eq!(workspace.uri(), "file:///workspace");
    /// ```
    pub fn asking<F, Fut, C>(uri: impl Into<String>, name: impl Into<String>, read: F) -> Resource
    where
        F: Fn(AskContext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<C, ResourceError>> + Send + 'static,
        C: Into<Vec<Contents>>,
    {
        Resource {
            uri: uri.into(),
            listing: Listing {
                name: name.into(),
                ..Listing::default()
            },
            read: reader(move |_, cx| read(cx)),
        }
    }

    /// A resource whose contents never change: `text` each time.
    pub fn static_text(
        uri: impl Into<String>,
        name: impl Into<String>,
        text: impl Into<String>,
    ) -> Resource {
        let text: Arc<str> = text.into().into();
        Resource::new(uri, name, move || {
            let text = text.clone();
            async move { Ok(Contents::text(&*text)) }
        })
        .mime_type("text/plain")
    }

    /// Its URI.
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// Its size in bytes, when known ahead of reading.
    #[must_use]
    pub fn size(mut self, bytes: u64) -> Resource {
        self.listing.size = Some(bytes);
        self
    }
}

listed!(Resource);

impl std::fmt::Debug for Resource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Resource")
            .field("uri", &self.uri)
            .field("listing", &self.listing)
            .finish_non_exhaustive()
    }
}

/// The variables a URI matched a template with, and the URI itself.
///
/// `vars["id"]` is the value of `{id}` (empty for a name the template doesn't have).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Vars {
    uri: String,
    values: HashMap<String, String>,
}

impl Vars {
    /// The URI read.
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// A variable's value, percent-decoded.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }
}

indexed_by_name!(Vars);

/// Resources whose URIs follow a level-1 [`UriTemplate`] (`users://{id}/profile`), read by
/// a closure given the URI's variables.
///
/// ```
/// use tool_runtime::resources::{Contents, ResourceTemplate};
///
/// let profiles = ResourceTemplate::new("users://{id}/profile", "profile", |vars| async move {
///     Ok(Contents::text(format!("The profile of user {}", &vars["id"])))
/// })
/// .description("A user's profile.")
/// .complete_from("id", ["1", "2", "42"]);
/// assert_eq!(profiles.uri_template(), "users://{id}/profile");
/// ```
#[derive(Clone)]
pub struct ResourceTemplate {
    pub(crate) text: String,
    /// Checked by the registry's build, which refuses a template that isn't level 1.
    pub(crate) template: Result<UriTemplate, TemplateError>,
    pub(crate) listing: Listing,
    pub(crate) read: Reader,
    pub(crate) completers: Completers,
}

impl ResourceTemplate {
    /// Resources at the URIs `template` describes, named `name`, read by `read`. A
    /// `template` that is not a level-1 URI template is a build error of the registry
    /// ([`BuildError::UriTemplate`](crate::BuildError::UriTemplate)).
    pub fn new<F, Fut, C>(template: &str, name: impl Into<String>, read: F) -> ResourceTemplate
    where
        F: Fn(Vars) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<C, ResourceError>> + Send + 'static,
        C: Into<Vec<Contents>>,
    {
        ResourceTemplate::asking(template, name, move |vars, _| read(vars))
    }

    /// Resources at the URIs `template` describes, read by `read` from the URI's variables and
    /// what it asks the client through its [`AskContext`], as
    /// [`Prompt::asking`](super::Prompt::asking) does.
    ///
    /// ```
    /// use tool_runtime::client::SamplingRequest;
    /// use tool_runtime::resources::{Contents, ResourceTemplate};
    ///
    /// let summaries = ResourceTemplate::asking("summary://{topic}", "summary", |vars, cx| async move {
    ///     let request = SamplingRequest::user(format!("Summarize {} in a line.", &vars["topic"]));
    ///     Ok(Contents::text(cx.sample(request.max_tokens(60)).await?.text()))
    /// });
    /// assert_eq!(summaries.uri_template(), "summary://{topic}");
    /// ```
    pub fn asking<F, Fut, C>(template: &str, name: impl Into<String>, read: F) -> ResourceTemplate
    where
        F: Fn(Vars, AskContext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<C, ResourceError>> + Send + 'static,
        C: Into<Vec<Contents>>,
    {
        ResourceTemplate {
            text: template.to_owned(),
            template: UriTemplate::parse(template),
            listing: Listing {
                name: name.into(),
                ..Listing::default()
            },
            read: reader(read),
            completers: Completers::default(),
        }
    }

    /// The URI template, as written.
    pub fn uri_template(&self) -> &str {
        &self.text
    }

    /// Lets the variable `name` take more than one path segment once decoded (`/`), or
    /// anything at all, NUL included: the opt-in of a reader that builds a path from it, or
    /// forwards the URI whole. Without it a value holding a decoded `/` or `\`, a `.` or
    /// `..` segment or a NUL is refused (`-32602` over MCP) before the reader runs, so that
    /// `file:///{name}` read at `file:///..%2F..%2Fetc%2Fpasswd` never reaches it.
    ///
    /// ```
    /// use tool_runtime::resources::{Contents, ResourceTemplate, VariableValues};
    ///
    /// // `file:///{path}` serves `docs/guide.md` (sent as `docs%2Fguide.md`), never `../x`.
    /// let files = ResourceTemplate::new("file:///{path}", "file", |vars| async move {
    ///     Ok(Contents::text(format!("the file {}", &vars["path"])))
    /// })
    /// .variable_values("path", VariableValues::Path);
    /// ```
    ///
    /// A name the template has no variable of is a build error of the registry
    /// ([`BuildError::UriTemplate`](crate::BuildError::UriTemplate)).
    #[must_use]
    pub fn variable_values(mut self, name: &str, values: VariableValues) -> ResourceTemplate {
        self.template = self.template.and_then(|t| t.with_values(name, values));
        self
    }

    /// The variables of `uri` when it is one of this template's (`None`: another shape).
    pub(crate) fn vars(&self, uri: &str) -> Result<Option<Vars>, MatchError> {
        let Ok(template) = self.template.as_ref() else {
            return Ok(None);
        };
        Ok(template.try_match(uri)?.map(|values| Vars {
            uri: uri.to_owned(),
            values,
        }))
    }
}

listed!(ResourceTemplate);
completed!(ResourceTemplate);

impl std::fmt::Debug for ResourceTemplate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResourceTemplate")
            .field("template", &self.text)
            .field("listing", &self.listing)
            .finish_non_exhaustive()
    }
}

/// The variables of a fixed resource: only its URI.
pub(crate) fn fixed(uri: &str) -> Vars {
    Vars {
        uri: uri.to_owned(),
        values: HashMap::new(),
    }
}
