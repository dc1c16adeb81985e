//! [`Resource`] and [`ResourceTemplate`]: data the client reads by URI, each with the closure
//! that reads it.

use super::completion::{self, Completers, Completion};
use super::{Contents, ResourceError, TemplateError, UriTemplate};
use futures_util::future::BoxFuture;
use std::collections::HashMap;
use std::future::Future;
use std::sync::Arc;

/// What a reader closure is once stored.
pub(crate) type Reader =
    Arc<dyn Fn(Vars) -> BoxFuture<'static, Result<Vec<Contents>, ResourceError>> + Send + Sync>;

fn reader<F, Fut, C>(read: F) -> Reader
where
    F: Fn(Vars) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<C, ResourceError>> + Send + 'static,
    C: Into<Vec<Contents>>,
{
    Arc::new(move |vars| {
        let read = read(vars);
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
        Resource {
            uri: uri.into(),
            listing: Listing {
                name: name.into(),
                ..Listing::default()
            },
            read: reader(move |_| read()),
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

    /// Its name, title, description and MIME type.
    pub fn listing(&self) -> &Listing {
        &self.listing
    }

    /// A display name for UIs.
    #[must_use]
    pub fn title(mut self, title: impl Into<String>) -> Resource {
        self.listing.title = Some(title.into());
        self
    }

    /// What it holds (the client shows it to its model or user).
    #[must_use]
    pub fn description(mut self, description: impl Into<String>) -> Resource {
        self.listing.description = Some(description.into());
        self
    }

    /// Its contents' MIME type, listed and given to contents that don't set their own.
    #[must_use]
    pub fn mime_type(mut self, mime_type: impl Into<String>) -> Resource {
        self.listing.mime_type = Some(mime_type.into());
        self
    }

    /// Its size in bytes, when known ahead of reading.
    #[must_use]
    pub fn size(mut self, bytes: u64) -> Resource {
        self.listing.size = Some(bytes);
        self
    }
}

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

impl std::ops::Index<&str> for Vars {
    type Output = str;

    fn index(&self, name: &str) -> &str {
        self.get(name).unwrap_or_default()
    }
}

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

    /// Its name, title, description and MIME type.
    pub fn listing(&self) -> &Listing {
        &self.listing
    }

    /// A display name for UIs.
    #[must_use]
    pub fn title(mut self, title: impl Into<String>) -> ResourceTemplate {
        self.listing.title = Some(title.into());
        self
    }

    /// What its resources hold.
    #[must_use]
    pub fn description(mut self, description: impl Into<String>) -> ResourceTemplate {
        self.listing.description = Some(description.into());
        self
    }

    /// Its resources' MIME type, when they share one.
    #[must_use]
    pub fn mime_type(mut self, mime_type: impl Into<String>) -> ResourceTemplate {
        self.listing.mime_type = Some(mime_type.into());
        self
    }

    /// Completes the variable `name` with `completer` (`completion/complete` with a
    /// `ref/resource`). A client asks on every keystroke: answer from what is at hand.
    #[must_use]
    pub fn complete<F, Fut>(mut self, name: impl Into<String>, completer: F) -> ResourceTemplate
    where
        F: Fn(Completion) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Vec<String>> + Send + 'static,
    {
        self.completers
            .add(name.into(), completion::completer(completer));
        self
    }

    /// Completes the variable `name` with those of `options` that start with what is typed.
    #[must_use]
    pub fn complete_from<S: Into<String>>(
        mut self,
        name: impl Into<String>,
        options: impl IntoIterator<Item = S>,
    ) -> ResourceTemplate {
        self.completers
            .add(name.into(), completion::from_options(options));
        self
    }

    /// The variables of `uri` when it is one of this template's.
    pub(crate) fn vars(&self, uri: &str) -> Option<Vars> {
        let template = self.template.as_ref().ok()?;
        template.matches(uri).map(|values| Vars {
            uri: uri.to_owned(),
            values,
        })
    }
}

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
