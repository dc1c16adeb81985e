//! [`Key`]: where a transport's API key comes from, kept out of `Debug` output.

use crate::error::ModelError;

/// Where the API key comes from.
#[derive(Clone)]
pub(crate) enum Key {
    /// An environment variable, read at each request; `required` makes a missing one an error.
    Env { var: String, required: bool },
    /// The key itself.
    Value(String),
}

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Key::Env { var, .. } => write!(f, "Env({var})"),
            Key::Value(_) => f.write_str("Value(***)"),
        }
    }
}

impl Key {
    /// The key to send, if any.
    pub(super) fn get(&self) -> Result<Option<String>, ModelError> {
        match self {
            Key::Value(key) => Ok(Some(key.clone())),
            Key::Env { var, required } => match std::env::var(var) {
                Ok(key) if !key.is_empty() => Ok(Some(key)),
                _ if *required => Err(ModelError::MissingApiKey(var.clone())),
                _ => Ok(None),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_never_shows_in_debug() {
        let key = Key::Value("sk-secret".into());
        assert_eq!(format!("{key:?}"), "Value(***)");
    }
}
