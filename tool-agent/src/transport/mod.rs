//! The built-in HTTP transports: each writes its provider's request body, sends it with
//! retries, and reads the reply (whole, or as server-sent events) into a
//! [`ModelReply`](super::ModelReply).
//!
//! What they share lives here: the settings ([`Http`]), the request body writer
//! ([`body`]), sending with bounded retries ([`send`]) and reading a bounded reply or event
//! stream ([`read`]).

pub(crate) mod body;
pub(crate) mod key;
pub(crate) mod read;
pub(crate) mod send;
mod settings;

pub(crate) use settings::Http;

use super::error::ModelError;
use super::model::{replay, ModelReply, ModelRequest, OnDelta, Usage};
use crate::router::routed::Routed;
use crate::Provider;
use send::Auth;
use serde_json::Value;

/// The builder methods every HTTP transport has, its [`Model`](super::Model) impl over
/// [`Wire`] and its [`HasHttp`], written once.
macro_rules! http_transport {
    ($transport:ident) => {
        impl $crate::transport::HasHttp for $transport {
            fn http(&self) -> &$crate::transport::Http {
                &self.http
            }
        }

        impl $crate::model::Model for $transport {
            fn provider(&self) -> $crate::Provider {
                <$transport as $crate::transport::Wire>::PROVIDER
            }

            fn model_name(&self) -> &str {
                &self.http.model
            }

            fn send<'a>(
                &'a self,
                request: &'a $crate::model::ModelRequest<'a>,
            ) -> futures_util::future::BoxFuture<
                'a,
                Result<$crate::model::ModelReply, $crate::error::ModelError>,
            > {
                Box::pin($crate::transport::send(self, request))
            }

            fn send_streaming<'a>(
                &'a self,
                request: &'a $crate::model::ModelRequest<'a>,
                on_delta: &'a mut $crate::model::OnDelta<'_>,
            ) -> futures_util::future::BoxFuture<
                'a,
                Result<$crate::model::ModelReply, $crate::error::ModelError>,
            > {
                Box::pin($crate::transport::send_streaming(self, request, on_delta))
            }
        }

        impl $transport {
            /// Reads the API key from the environment variable `var` at each request (an
            /// error if it is not set). Without this, the provider's usual variable is read
            /// when it is set, and no key is sent when it is not (local servers need none).
            /// The key is never logged or shown by `Debug`.
            #[must_use]
            pub fn api_key_env(mut self, var: impl Into<String>) -> Self {
                self.http.key = $crate::transport::key::Key::Env {
                    var: var.into(),
                    required: true,
                };
                self
            }

            /// Uses this API key. It is never logged or shown by `Debug`.
            #[must_use]
            pub fn api_key(mut self, key: impl Into<String>) -> Self {
                self.http.key = $crate::transport::key::Key::Value(key.into());
                self
            }

            /// Sends this header with every request (an `OpenAI-Organization`, a gateway's
            /// routing header).
            #[must_use]
            pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
                self.http.headers.push((name.into(), value.into()));
                self
            }

            /// How long one request may take, first byte to last (default 120 s).
            #[must_use]
            pub fn timeout(mut self, timeout: std::time::Duration) -> Self {
                self.http.timeout = timeout;
                self
            }

            /// Adds a field to every request body: `temperature`, `tool_choice`,
            /// `parallel_tool_calls`, `reasoning`, `max_tokens`, `generationConfig`... A field
            /// the transport writes itself (the model, the messages, the tools, `stream`) is
            /// not overridden.
            #[must_use]
            pub fn body_field(mut self, key: impl Into<String>, value: serde_json::Value) -> Self {
                self.http.extra.insert(key.into(), value);
                self
            }

            /// Adds every field of `fields` to every request body, as
            /// [`body_field`](Self::body_field) does.
            #[must_use]
            pub fn body_fields(
                mut self,
                fields: serde_json::Map<String, serde_json::Value>,
            ) -> Self {
                self.http.extra.extend(fields);
                self
            }

            /// How many times a request that failed with 408, 409, 429, 5xx, a timeout or a
            /// connection error is tried again (default 2). Waits honour `Retry-After`
            /// (and `retry-after-ms`), up to [`max_retry_wait`](Self::max_retry_wait).
            #[must_use]
            pub fn max_retries(mut self, retries: u32) -> Self {
                self.http.max_retries = retries;
                self
            }

            /// The longest wait before a retry (default 60 s): a server asking for more is
            /// not retried, its error is returned.
            #[must_use]
            pub fn max_retry_wait(mut self, wait: std::time::Duration) -> Self {
                self.http.max_retry_wait = wait;
                self
            }

            /// The largest reply read, in bytes (default 32 MiB): a larger one is
            /// [`ModelError::TooLarge`](crate::ModelError::TooLarge), never held whole.
            #[must_use]
            pub fn max_reply_bytes(mut self, limit: usize) -> Self {
                self.http.max_reply_bytes = limit;
                self
            }

            /// Whether [`send_streaming`](crate::Model::send_streaming) asks for
            /// server-sent events (default true). Turn it off for a server that can't stream:
            /// the reply then comes whole and is replayed as deltas.
            #[must_use]
            pub fn streaming(mut self, on: bool) -> Self {
                self.http.streaming = on;
                self
            }

            /// The base URL requests go to.
            pub fn base_url(&self) -> &str {
                &self.http.base_url
            }
        }
    };
}
pub(crate) use http_transport;

/// The settings a transport holds (in its `http` field): [`http_transport!`] writes this.
pub(crate) trait HasHttp {
    fn http(&self) -> &Http;
}

/// What one provider's transport adds to the shared sending and reading.
pub(crate) trait Wire: HasHttp + Sync {
    const PROVIDER: Provider;
    /// How the key is sent.
    const AUTH: Auth;
    /// Headers every request carries (an API version).
    const HEADERS: &'static [(&'static str, &'static str)] = &[];
    /// The path after the base URL that [`url`](Self::url) adds, when it is not overridden.
    const PATH: &'static str = "";
    /// The field every whole reply body has (it must be the provider's full response
    /// object), and what it holds, for the error when it is missing.
    const REPLY: (&'static str, &'static str);
    /// The content type of a streamed reply: server-sent events, unless the provider streams
    /// another way (Ollama's newline-delimited JSON). A reply of another type is read whole.
    const STREAM_TYPE: &'static str = "text/event-stream";

    fn url(&self, _stream: bool) -> String {
        self.http().url(Self::PATH)
    }
    /// The request body.
    fn body(&self, request: &ModelRequest<'_>, stream: bool) -> Vec<u8>;
    /// The model's turn, to send back in the next request, from a whole reply body and what
    /// the router read in it.
    fn turn(value: &Value, routed: &Routed) -> Vec<Value>;
    /// The token usage a whole reply body reports.
    fn usage(value: &Value) -> Usage;
    /// Sees a whole reply body before it is read: for a transport that keeps something of
    /// each reply (TensorZero's episode id).
    fn seen_whole(&self, _value: &Value) {}
    /// An event stream as a reply, passing deltas on as they come.
    async fn events(
        &self,
        url: &str,
        response: reqwest::Response,
        on_delta: &mut OnDelta<'_>,
    ) -> Result<ModelReply, ModelError>;
}

/// One request, read whole.
pub(crate) async fn send<W: Wire>(
    wire: &W,
    request: &ModelRequest<'_>,
) -> Result<ModelReply, ModelError> {
    let url = wire.http().parsed_url(false, || wire.url(false))?;
    let body = wire.body(request, false);
    let response = wire.http().post(url, W::AUTH, W::HEADERS, body).await?;
    whole(wire, url.as_str(), response).await
}

/// One request, streamed when the transport and the server allow it.
pub(crate) async fn send_streaming<W: Wire>(
    wire: &W,
    request: &ModelRequest<'_>,
    on_delta: &mut OnDelta<'_>,
) -> Result<ModelReply, ModelError> {
    if !wire.http().streaming {
        let reply = send(wire, request).await?;
        replay(&reply, on_delta);
        return Ok(reply);
    }
    let url = wire.http().parsed_url(true, || wire.url(true))?;
    let body = wire.body(request, true);
    let response = wire.http().post(url, W::AUTH, W::HEADERS, body).await?;
    if !is_stream(&response, W::STREAM_TYPE) {
        // A server that ignores `stream` answers whole: read it as such.
        let reply = whole(wire, url.as_str(), response).await?;
        replay(&reply, on_delta);
        return Ok(reply);
    }
    wire.events(url.as_str(), response, on_delta).await
}

/// A reply read whole, routed, as a reply.
async fn whole<W: Wire>(
    wire: &W,
    url: &str,
    response: reqwest::Response,
) -> Result<ModelReply, ModelError> {
    let value = wire.http().read_json(url, response).await?;
    wire.seen_whole(&value);
    let (key, expected) = W::REPLY;
    let routed = route_body(W::PROVIDER, &value, key, expected)?;
    Ok(ModelReply {
        turn: W::turn(&value, &routed),
        usage: W::usage(&value),
        routed,
    })
}

/// Routes a whole reply body, which must be the provider's full response object (the
/// router also takes bare messages; a server must send the whole thing): `key` is the field
/// every such response has.
fn route_body(
    provider: Provider,
    body: &Value,
    key: &'static str,
    expected: &'static str,
) -> Result<Routed, ModelError> {
    // The provider's own error object is reported as such, whatever it lacks.
    let routed = crate::router::route(provider, body)?;
    if body.get(key).is_none() {
        let pointer = format!("/{key}");
        return Err(
            crate::router::error::RouteError::shape(provider, &pointer, expected, None).into(),
        );
    }
    Ok(routed)
}

/// Whether a response is a stream of `content_type` (by its `Content-Type`).
pub(crate) fn is_stream(response: &reqwest::Response, content_type: &str) -> bool {
    response
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim_start().starts_with(content_type))
}
