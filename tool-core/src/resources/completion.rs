//! Argument completion (`completion/complete`): what a client offers while a user types a
//! prompt argument or a template variable.

use futures_util::future::BoxFuture;
use std::collections::HashMap;
use std::future::Future;
use std::sync::Arc;

/// One completion request: the argument being typed, what is typed so far, and the other
/// arguments already chosen.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Completion {
    /// The argument or template variable being completed.
    pub argument: String,
    /// What the user has typed of it so far.
    pub value: String,
    /// The values of the arguments filled in before this one.
    pub context: HashMap<String, String>,
}

impl Completion {
    /// A request to complete `argument`, typed so far as `value`.
    pub fn new(argument: impl Into<String>, value: impl Into<String>) -> Completion {
        Completion {
            argument: argument.into(),
            value: value.into(),
            context: HashMap::new(),
        }
    }

    /// The request with the other arguments' values.
    #[must_use]
    pub fn with_context(mut self, context: HashMap<String, String>) -> Completion {
        self.context = context;
        self
    }
}

/// A completer: the values to offer for a [`Completion`]. Async, so that an imported
/// server's completions can be asked for; a client asks on every keystroke, so answer fast.
pub(crate) type Completer =
    Arc<dyn Fn(Completion) -> BoxFuture<'static, Vec<String>> + Send + Sync>;

/// A closure as a [`Completer`].
pub(crate) fn completer<F, Fut>(complete: F) -> Completer
where
    F: Fn(Completion) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Vec<String>> + Send + 'static,
{
    Arc::new(move |request| Box::pin(complete(request)))
}

/// A completer offering those of `options` that start with what is typed (ignoring case).
pub(crate) fn from_options<S: Into<String>>(options: impl IntoIterator<Item = S>) -> Completer {
    let options: Arc<[String]> = options.into_iter().map(Into::into).collect();
    completer(move |request: Completion| {
        let typed = request.value.to_lowercase();
        let offered = options
            .iter()
            .filter(|option| option.to_lowercase().starts_with(&typed))
            .cloned()
            .collect();
        std::future::ready(offered)
    })
}

/// The completers of one prompt or template, by argument.
#[derive(Clone, Default)]
pub(crate) struct Completers(Vec<(String, Completer)>);

impl Completers {
    pub(crate) fn add(&mut self, argument: String, completer: Completer) {
        self.0.retain(|(name, _)| *name != argument);
        self.0.push((argument, completer));
    }

    /// The values for `request`; none when the argument has no completer.
    pub(crate) async fn complete(&self, request: Completion) -> Vec<String> {
        let found = self.0.iter().find(|(name, _)| *name == request.argument);
        match found {
            Some((_, completer)) => completer(request).await,
            None => Vec::new(),
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_offered_by_prefix_ignoring_case() {
        let mut completers = Completers::default();
        completers.add("lang".into(), from_options(["Rust", "Ruby", "Python"]));
        let complete = |argument, value| {
            futures_util::FutureExt::now_or_never(
                completers.complete(Completion::new(argument, value)),
            )
            .unwrap()
        };
        assert_eq!(complete("lang", "ru"), ["Rust", "Ruby"]);
        assert_eq!(complete("lang", "").len(), 3);
        assert!(complete("other", "r").is_empty());
    }
}
