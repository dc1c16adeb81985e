//! Sending one request: the client, the key, the headers, and bounded retries that honour
//! `Retry-After`.
//!
//! Every transport's client comes from [`Http::client`], so its redirect policy is the one
//! place that decides where a request (its key, its body) may go: only to the origin the
//! transport was configured with.

use super::settings::Http;
use crate::error::ModelError;
use std::time::Duration;

/// How a provider wants its key: `Authorization: Bearer`, or a header of its own.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Auth {
    Bearer,
    Header(&'static str),
}

/// The longest error body kept.
const MAX_ERROR_BODY: usize = 64 << 10;

/// The most redirects followed within the configured origin (reqwest's own default limit).
const MAX_REDIRECTS: usize = 10;

/// The shortest key redacted from error bodies: a shorter one (a test's `"k"`) would mangle
/// every body it happens to occur in, and no provider issues keys that short.
const MIN_REDACTED_KEY: usize = 8;

/// A redirect to another origin (scheme, host or port) than the configured one, refused.
/// reqwest drops `Authorization` on such a redirect but not a provider's own key header
/// (`x-api-key`, `x-goog-api-key`), and it sends the body on a 307/308 in any case: following
/// would hand the key and the conversation to whoever the server names.
#[derive(Debug, thiserror::Error)]
#[error("a redirect from {from} to {to}, another origin")]
struct CrossOrigin {
    from: String,
    to: String,
}

/// Follows a redirect only within the origin of the first request (the configured one), at
/// most [`MAX_REDIRECTS`] times; refuses the rest with [`CrossOrigin`].
fn same_origin_only(attempt: reqwest::redirect::Attempt<'_>) -> reqwest::redirect::Action {
    let Some(first) = attempt.previous().first() else {
        return attempt.stop();
    };
    if attempt.url().origin() != first.origin() {
        let error = CrossOrigin {
            from: first.origin().ascii_serialization(),
            to: attempt.url().to_string(),
        };
        return attempt.error(error);
    }
    if attempt.previous().len() > MAX_REDIRECTS {
        return attempt.error(format!("more than {MAX_REDIRECTS} redirects"));
    }
    attempt.follow()
}

impl Http {
    fn client(&self) -> Result<&reqwest::Client, ModelError> {
        if let Some(client) = self.client.get() {
            return Ok(client);
        }
        crate::tls::ensure_provider();
        let client = reqwest::Client::builder()
            .timeout(self.timeout)
            .redirect(reqwest::redirect::Policy::custom(same_origin_only))
            .build()
            .map_err(|e| ModelError::Config(format!("the HTTP client could not be built: {e}")))?;
        Ok(self.client.get_or_init(|| client))
    }

    /// POSTs `body` (JSON) to `url` and returns the response once its status is a success,
    /// retrying what [`ModelError::is_retryable`] allows, at most `max_retries` times.
    pub(crate) async fn post(
        &self,
        url: &reqwest::Url,
        auth: Auth,
        fixed_headers: &[(&str, &str)],
        body: Vec<u8>,
    ) -> Result<reqwest::Response, ModelError> {
        let client = self.client()?;
        let key = self.key.get()?;
        let body = bytes::Bytes::from(body);
        let mut attempt = 0;
        loop {
            let mut request = client
                .post(url.clone())
                .header("content-type", "application/json")
                .body(body.clone());
            if let Some(key) = &key {
                request = match auth {
                    Auth::Bearer => request.bearer_auth(key),
                    Auth::Header(name) => request.header(name, key),
                };
            }
            for (name, value) in fixed_headers {
                request = request.header(*name, *value);
            }
            for (name, value) in &self.headers {
                request = request.header(name, value);
            }
            let error = match request.send().await {
                Ok(response) if response.status().is_success() => return Ok(response),
                Ok(response) => http_error(response, key.as_deref()).await,
                Err(error) => self.transport_error(url.as_str(), error),
            };
            let wait = match &error {
                ModelError::Http {
                    retry_after: Some(wait),
                    ..
                } => *wait,
                _ => backoff(attempt),
            };
            if attempt >= self.max_retries || !error.is_retryable() || wait > self.max_retry_wait {
                return Err(error);
            }
            tracing::debug!(url = url.as_str(), attempt, ?wait, error = %error, "retrying the model request");
            tokio::time::sleep(wait).await;
            attempt += 1;
        }
    }

    /// A reqwest error as a [`ModelError`]: a timeout, a refused redirect, a bad setting, or
    /// the transport's.
    pub(crate) fn transport_error(&self, url: &str, error: reqwest::Error) -> ModelError {
        let refused = std::error::Error::source(&error)
            .and_then(|source| source.downcast_ref::<CrossOrigin>());
        if let Some(CrossOrigin { from, to }) = refused {
            ModelError::CrossOriginRedirect {
                origin: from.clone(),
                location: to.clone(),
            }
        } else if error.is_timeout() {
            ModelError::Timeout(self.timeout)
        } else if error.is_builder() {
            ModelError::Config(error.to_string())
        } else {
            ModelError::Transport {
                url: url.to_owned(),
                source: Box::new(error),
            }
        }
    }
}

/// 0.5 s, 1 s, 2 s, ... up to 8 s.
fn backoff(attempt: u32) -> Duration {
    Duration::from_millis(500 << attempt.min(4))
}

/// An error status with its body (cut at 64 KiB, the key replaced by `***` wherever the
/// server echoed it) and the wait the server asked for.
async fn http_error(mut response: reqwest::Response, key: Option<&str>) -> ModelError {
    let status = response.status().as_u16();
    let retry_after = retry_after(response.headers());
    let mut body = Vec::new();
    while let Ok(Some(chunk)) = response.chunk().await {
        let room = MAX_ERROR_BODY - body.len();
        body.extend_from_slice(&chunk[..chunk.len().min(room)]);
        if body.len() == MAX_ERROR_BODY {
            break;
        }
    }
    let mut body = String::from_utf8_lossy(&body).into_owned();
    if let Some(key) = key.filter(|key| key.len() >= MIN_REDACTED_KEY) {
        if body.contains(key) {
            body = body.replace(key, "***");
        }
    }
    ModelError::Http {
        status,
        body,
        retry_after,
    }
}

/// `retry-after-ms` (OpenAI's), or `Retry-After` in seconds. An HTTP date is not read: the
/// backoff applies instead.
fn retry_after(headers: &reqwest::header::HeaderMap) -> Option<Duration> {
    let number = |name: &str| {
        headers
            .get(name)?
            .to_str()
            .ok()?
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|n| n.is_finite() && *n >= 0.0)
    };
    if let Some(ms) = number("retry-after-ms") {
        return Some(Duration::from_secs_f64((ms / 1000.0).min(86_400.0)));
    }
    number("retry-after").map(|s| Duration::from_secs_f64(s.min(86_400.0)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::{HeaderMap, HeaderValue};

    #[test]
    fn retry_after_reads_milliseconds_first_then_seconds() {
        let mut headers = HeaderMap::new();
        headers.insert("retry-after", HeaderValue::from_static("2"));
        assert_eq!(retry_after(&headers), Some(Duration::from_secs(2)));
        headers.insert("retry-after-ms", HeaderValue::from_static("150"));
        assert_eq!(retry_after(&headers), Some(Duration::from_millis(150)));
    }

    #[test]
    fn a_date_or_garbage_in_retry_after_falls_back_to_backoff() {
        let mut headers = HeaderMap::new();
        headers.insert(
            "retry-after",
            HeaderValue::from_static("Wed, 21 Oct 2015 07:28:00 GMT"),
        );
        assert_eq!(retry_after(&headers), None);
        headers.insert("retry-after", HeaderValue::from_static("-3"));
        assert_eq!(retry_after(&headers), None);
        assert_eq!(backoff(0), Duration::from_millis(500));
        assert_eq!(backoff(30), Duration::from_secs(8));
    }
}
