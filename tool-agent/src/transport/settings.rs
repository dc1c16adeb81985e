//! One transport's settings: where to send, as which model, with what key, headers, extra
//! body fields, timeout, retries and size limit.

use super::key::Key;
use serde_json::{Map, Value};
use std::sync::OnceLock;
use std::time::Duration;

/// A transport's settings and its HTTP client.
pub(crate) struct Http {
    pub(crate) base_url: String,
    pub(crate) model: String,
    pub(crate) key: Key,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) extra: Map<String, Value>,
    pub(crate) timeout: Duration,
    pub(crate) max_retries: u32,
    pub(crate) max_retry_wait: Duration,
    pub(crate) max_reply_bytes: usize,
    pub(crate) streaming: bool,
    /// Built at the first request: building one reads the system's root certificates.
    pub(crate) client: OnceLock<reqwest::Client>,
    /// The request URLs (whole, streamed), parsed at their first use: parsing one costs
    /// more than the rest of writing a request.
    pub(crate) urls: [OnceLock<reqwest::Url>; 2],
}

impl Http {
    /// Settings for `model` at `base_url`, reading the key from `key_var` when it is set.
    pub(crate) fn new(
        base_url: impl Into<String>,
        model: impl Into<String>,
        key_var: &str,
    ) -> Http {
        let base_url = base_url.into();
        Http {
            base_url: base_url.trim_end_matches('/').to_owned(),
            model: model.into(),
            key: Key::Env {
                var: key_var.to_owned(),
                required: false,
            },
            headers: Vec::new(),
            extra: Map::new(),
            timeout: Duration::from_secs(120),
            max_retries: 2,
            max_retry_wait: Duration::from_secs(60),
            max_reply_bytes: 32 << 20,
            streaming: true,
            client: OnceLock::new(),
            urls: [OnceLock::new(), OnceLock::new()],
        }
    }

    /// The URL for whole (`stream: false`) or streamed requests, `make` giving its text the
    /// first time.
    pub(crate) fn parsed_url(
        &self,
        stream: bool,
        make: impl FnOnce() -> String,
    ) -> Result<&reqwest::Url, crate::error::ModelError> {
        let cell = &self.urls[usize::from(stream)];
        if let Some(url) = cell.get() {
            return Ok(url);
        }
        let text = make();
        let url = reqwest::Url::parse(&text).map_err(|e| {
            crate::error::ModelError::Config(format!("the URL `{text}` is not a URL: {e}"))
        })?;
        Ok(cell.get_or_init(|| url))
    }

    /// `base_url` followed by `path`.
    pub(crate) fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base_url)
    }
}

impl std::fmt::Debug for Http {
    // The key is left out: settings get logged, keys must not be.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Http")
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .field("key", &self.key)
            .field(
                "headers",
                &self.headers.iter().map(|(n, _)| n).collect::<Vec<_>>(),
            )
            .field("extra", &self.extra)
            .field("timeout", &self.timeout)
            .field("max_retries", &self.max_retries)
            .finish_non_exhaustive()
    }
}
