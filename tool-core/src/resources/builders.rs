//! The builder methods prompts, resources and templates share, written once: how a client
//! shows them, and how it completes their arguments.

/// `title` and `description` on `$item`, kept in `self.$path` (its `Listing`, or the prompt
/// itself).
macro_rules! shown {
    ($item:ident $(. $path:ident)*) => {
        impl $item {
            /// A display name for UIs.
            #[must_use]
            pub fn title(mut self, title: impl Into<String>) -> $item {
                self$(.$path)*.title = Some(title.into());
                self
            }

            /// What it is for or holds, shown to the client's model or user.
            #[must_use]
            pub fn description(mut self, description: impl Into<String>) -> $item {
                self$(.$path)*.description = Some(description.into());
                self
            }
        }
    };
}

/// What resources and templates add to [`shown!`]: their [`Listing`](super::Listing) and
/// MIME type.
macro_rules! listed {
    ($item:ident) => {
        $crate::resources::builders::shown!($item.listing);

        impl $item {
            /// Its name, title, description and MIME type.
            pub fn listing(&self) -> &Listing {
                &self.listing
            }

            /// The MIME type of its contents: listed, and given to contents that don't set
            /// their own.
            #[must_use]
            pub fn mime_type(mut self, mime_type: impl Into<String>) -> $item {
                self.listing.mime_type = Some(mime_type.into());
                self
            }
        }
    };
}

/// `complete` and `complete_from` on `$item`, whose `completers` hold them: a prompt's
/// arguments, a template's variables.
macro_rules! completed {
    ($item:ident) => {
        impl $item {
            /// Completes the argument (of a prompt) or variable (of a template) `name` with
            /// `completer` (`completion/complete`). A client asks on every keystroke: answer
            /// from what is at hand.
            #[must_use]
            pub fn complete<F, Fut>(mut self, name: impl Into<String>, completer: F) -> $item
            where
                F: Fn(Completion) -> Fut + Send + Sync + 'static,
                Fut: Future<Output = Vec<String>> + Send + 'static,
            {
                self.completers
                    .add(name.into(), completion::completer(completer));
                self
            }

            /// Completes the argument or variable `name` with those of `options` that start
            /// with what is typed.
            #[must_use]
            pub fn complete_from<S: Into<String>>(
                mut self,
                name: impl Into<String>,
                options: impl IntoIterator<Item = S>,
            ) -> $item {
                self.completers
                    .add(name.into(), completion::from_options(options));
                self
            }
        }
    };
}

/// `values["name"]` on `$item`: the value its `get` gives, empty for a name it doesn't have.
macro_rules! indexed_by_name {
    ($item:ident) => {
        impl std::ops::Index<&str> for $item {
            type Output = str;

            fn index(&self, name: &str) -> &str {
                self.get(name).unwrap_or_default()
            }
        }
    };
}

pub(super) use {completed, indexed_by_name, listed, shown};
