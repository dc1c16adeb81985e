//! What each model API is called and how a name reads back: through the table of
//! `providers::api`, one row per provider folder. The enum itself is on the floor
//! (`base/provider.rs`), where every layer may name it.

use super::api;
pub use crate::base::provider::Provider;
use std::fmt;
use std::str::FromStr;

impl Provider {
    /// The provider's name as the CLI and serde spell it (`openai-chat`, ...).
    pub fn as_str(self) -> &'static str {
        api(self).name
    }

    /// The API's name, as error messages give it.
    pub(crate) fn title(self) -> &'static str {
        api(self).title
    }

    /// Whether the provider has a strict mode for tool schemas (OpenAI structured outputs,
    /// Anthropic strict tool use, TensorZero's `strict`, which it passes on to OpenAI).
    pub fn has_strict_mode(self) -> bool {
        api(self).strict.is_some()
    }
}

impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is no [`Provider`]'s.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown provider `{name}`; expected one of: {}", every_name())]
pub struct UnknownProvider {
    /// The name given.
    pub name: String,
}

/// Every provider's name, for the error.
fn every_name() -> String {
    let names: Vec<&str> = Provider::ALL.into_iter().map(Provider::as_str).collect();
    names.join(", ")
}

impl FromStr for Provider {
    type Err = UnknownProvider;

    fn from_str(text: &str) -> Result<Provider, UnknownProvider> {
        Provider::ALL
            .into_iter()
            .find(|p| p.as_str() == text)
            .ok_or_else(|| UnknownProvider {
                name: text.to_owned(),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_reads_back_and_the_error_lists_them_all() {
        for provider in Provider::ALL {
            assert_eq!(provider.as_str().parse::<Provider>(), Ok(provider));
            let json = serde_json::to_string(&provider).unwrap();
            assert_eq!(json, format!("\"{}\"", provider.as_str()));
        }
        for (i, provider) in Provider::ALL.into_iter().enumerate() {
            assert_eq!(provider as usize, i, "ALL is in declaration order");
        }
        let error = "openai".parse::<Provider>().unwrap_err().to_string();
        for provider in Provider::ALL {
            assert!(error.contains(provider.as_str()), "{error}");
        }
    }
}
