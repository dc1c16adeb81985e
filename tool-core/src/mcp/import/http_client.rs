//! The HTTP client of an import over streamable HTTP: rmcp's reqwest client, set up as rmcp's
//! default one (which can't be reached from outside rmcp), with two changes.
//!
//! - A redirect is followed only within the origin of the URL (scheme, host and port), and
//!   only a 307 or 308, which keep the method and the body; any other is an error that says
//!   why. reqwest alone drops `Authorization` on a cross-origin redirect but keeps every other
//!   header and, for a 307 or 308, the body: the call's arguments would reach a host nobody
//!   configured. (rmcp's default refuses too, but reports only "unexpected server response:
//!   HTTP 307".)
//! - An answer larger than rmcp's size limits (16 MiB per SSE event or JSON body) answers its
//!   request at once with an error that says it was too large and what the limit is. rmcp
//!   ends the request with "Transport closed", which reads as a server that went away.

use super::param_headers::ParamHeaders;
use futures_util::stream::{BoxStream, StreamExt};
use hyper::header::{HeaderName, HeaderValue};
use rmcp::model::{
    ClientJsonRpcMessage, ErrorData, JsonRpcMessage, RequestId, ServerJsonRpcMessage,
};
use rmcp::transport::streamable_http_client::{
    SseError, StreamableHttpClient, StreamableHttpError, StreamableHttpPostResponse,
    StreamableHttpResponseLimits,
};
use sse_stream::Sse;
use std::collections::HashMap;
use std::sync::Arc;

/// How many redirects within one origin are followed (reqwest's own default).
const MAX_REDIRECTS: usize = 10;

/// rmcp's reqwest client, refusing cross-origin redirects, naming oversized answers, and
/// adding the `Mcp-Param-*` headers rmcp may leave out (`param_headers.rs`).
#[derive(Clone, Debug)]
pub(crate) struct ImportClient {
    http: reqwest::Client,
    params: ParamHeaders,
}

impl ImportClient {
    /// A client that follows redirects within the origin of the request only, as rmcp's
    /// default client does (307 and 308, which keep the method and body, at most 10 hops, no
    /// idle connections kept: see the module's comment on pooling), and says why it stops.
    pub(crate) fn new(params: ParamHeaders) -> Result<ImportClient, reqwest::Error> {
        let policy = reqwest::redirect::Policy::custom(|attempt| {
            let keeps_body = matches!(
                attempt.status(),
                reqwest::StatusCode::TEMPORARY_REDIRECT | reqwest::StatusCode::PERMANENT_REDIRECT
            );
            let same_origin = attempt
                .previous()
                .first()
                .is_some_and(|first| first.origin() == attempt.url().origin());
            if !same_origin {
                let to = attempt.url().origin().ascii_serialization();
                attempt.error(RefusedRedirect::OtherOrigin { to })
            } else if !keeps_body {
                let status = attempt.status().as_u16();
                attempt.error(RefusedRedirect::DropsBody { status })
            } else if attempt.previous().len() > MAX_REDIRECTS {
                attempt.error(RefusedRedirect::TooMany)
            } else {
                attempt.follow()
            }
        });
        // rmcp's default keeps no idle connection: a server that answers in several writes
        // without TCP_NODELAY stalls a reused connection by the client's delayed ACK (40 ms
        // on Linux). Kept, since the import talks to servers that are not ours.
        let http = reqwest::Client::builder()
            .pool_max_idle_per_host(0)
            .redirect(policy)
            .build()?;
        Ok(ImportClient { http, params })
    }
}

/// A redirect the import does not follow.
#[derive(Debug, thiserror::Error)]
pub(crate) enum RefusedRedirect {
    /// To another origin: the request's headers and body would go there.
    #[error("the server redirected the request to another origin ({to}); an MCP import follows redirects within the URL's own scheme, host and port only, so that its token and the call's arguments never reach a host nobody configured")]
    OtherOrigin {
        /// The origin redirected to.
        to: String,
    },
    /// A 301, 302 or 303, which would turn the POST into a GET without the message.
    #[error("the server answered {status}, a redirect that turns the POST into a GET and loses the message; give the import the URL it redirects to")]
    DropsBody {
        /// The status.
        status: u16,
    },
    /// More than [`MAX_REDIRECTS`].
    #[error("the server redirected the request more than {MAX_REDIRECTS} times")]
    TooMany,
}

/// The words of rmcp's SSE size error ("SSE event exceeded the maximum size of N bytes"):
/// the error itself is private to rmcp, so its text is all that tells it from a broken
/// connection. `an_answer_over_the_size_limit_is_an_error_at_once` fails if rmcp rewords it.
const RMCP_TOO_LARGE: &str = "exceeded the maximum size of";

/// The JSON-RPC error answering request `id` whose answer was over `limit` bytes.
fn too_large(id: RequestId, limit: usize) -> ServerJsonRpcMessage {
    let message = format!(
        "the server's answer was too large: it is over this MCP client's limit of {} per message, so it was not read",
        size(limit)
    );
    ServerJsonRpcMessage::error(
        ErrorData::internal_error(message, Some(serde_json::json!({"limitBytes": limit}))),
        Some(id),
    )
}

/// `limit` as people read it: `16 MiB (16777216 bytes)`.
fn size(limit: usize) -> String {
    if limit >= 1 << 20 && limit.is_multiple_of(1 << 20) {
        format!("{} MiB ({limit} bytes)", limit >> 20)
    } else if limit >= 1 << 10 && limit.is_multiple_of(1 << 10) {
        format!("{} KiB ({limit} bytes)", limit >> 10)
    } else {
        format!("{limit} bytes")
    }
}

/// Whether `error` (or one of its sources) is rmcp's SSE event size limit.
fn is_too_large(error: &SseError) -> bool {
    let mut next: Option<&(dyn std::error::Error + 'static)> = match error {
        SseError::Body(inner) => Some(inner.as_ref()),
        _ => None,
    };
    while let Some(error) = next {
        if error.to_string().contains(RMCP_TOO_LARGE) {
            return true;
        }
        next = error.source();
    }
    false
}

/// `events`, with rmcp's size error replaced by an error answer to request `id`: the request
/// ends at once, saying why.
fn answer_too_large(
    events: BoxStream<'static, Result<Sse, SseError>>,
    id: RequestId,
    limit: usize,
) -> BoxStream<'static, Result<Sse, SseError>> {
    let mut id = Some(id);
    events
        .map(move |event| match event {
            Err(error) if is_too_large(&error) => match id.take() {
                Some(id) => match serde_json::to_string(&too_large(id, limit)) {
                    Ok(data) => Ok(Sse {
                        data: Some(data),
                        ..Sse::default()
                    }),
                    Err(_) => Err(error),
                },
                None => Err(error),
            },
            other => other,
        })
        .boxed()
}

/// The id of a request (`None` for a notification or a response, which get no answer).
fn request_id(message: &ClientJsonRpcMessage) -> Option<RequestId> {
    match message {
        JsonRpcMessage::Request(request) => Some(request.id.clone()),
        _ => None,
    }
}

impl StreamableHttpClient for ImportClient {
    type Error = reqwest::Error;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        self.post_message_with_response_limits(
            uri,
            message,
            session_id,
            auth_header,
            custom_headers,
            StreamableHttpResponseLimits::default(),
        )
        .await
    }

    async fn post_message_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        let mut limits = StreamableHttpResponseLimits::default();
        limits.max_sse_event_size = max_sse_event_size;
        self.post_message_with_response_limits(
            uri,
            message,
            session_id,
            auth_header,
            custom_headers,
            limits,
        )
        .await
    }

    async fn post_message_with_response_limits(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        mut custom_headers: HashMap<HeaderName, HeaderValue>,
        limits: StreamableHttpResponseLimits,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        let id = request_id(&message);
        self.params.complete(&message, &mut custom_headers);
        let posted = self
            .http
            .post_message_with_response_limits(
                uri,
                message,
                session_id.clone(),
                auth_header,
                custom_headers,
                limits,
            )
            .await;
        match (posted, id) {
            (Ok(StreamableHttpPostResponse::Sse(events, session)), Some(id)) => {
                Ok(StreamableHttpPostResponse::Sse(
                    answer_too_large(events, id, limits.max_sse_event_size),
                    session,
                ))
            }
            // A JSON answer over the limit: answered here, as the server would have.
            (Err(StreamableHttpError::ResponseBodyTooLarge { max_size }), Some(id)) => {
                Ok(StreamableHttpPostResponse::Json(
                    too_large(id, max_size),
                    session_id.map(|id| id.to_string()),
                ))
            }
            (posted, _) => posted.map_err(redirect_said),
        }
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<(), StreamableHttpError<Self::Error>> {
        self.http
            .delete_session(uri, session_id, auth_header, custom_headers)
            .await
    }

    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<BoxStream<'static, Result<Sse, SseError>>, StreamableHttpError<Self::Error>> {
        self.http
            .get_stream(uri, session_id, last_event_id, auth_header, custom_headers)
            .await
            .map_err(redirect_said)
    }

    async fn get_stream_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<BoxStream<'static, Result<Sse, SseError>>, StreamableHttpError<Self::Error>> {
        self.http
            .get_stream_with_max_sse_event_size(
                uri,
                session_id,
                last_event_id,
                auth_header,
                custom_headers,
                max_sse_event_size,
            )
            .await
            .map_err(redirect_said)
    }
}

/// A refused redirect as an error whose text says why: rmcp keeps only the text of a
/// transport's error, and reqwest's own says "error following redirect" and no more.
fn redirect_said(
    error: StreamableHttpError<reqwest::Error>,
) -> StreamableHttpError<reqwest::Error> {
    let refused = match &error {
        StreamableHttpError::Client(client) if client.is_redirect() => {
            let mut next = std::error::Error::source(client);
            let mut refused = None;
            while let Some(cause) = next {
                if let Some(cause) = cause.downcast_ref::<RefusedRedirect>() {
                    refused = Some(cause.to_string());
                }
                next = cause.source();
            }
            refused
        }
        _ => None,
    };
    match refused {
        Some(reason) => StreamableHttpError::UnexpectedServerResponse(reason.into()),
        None => error,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(size(16 << 20), "16 MiB (16777216 bytes)");
        assert_eq!(size(64 << 10), "64 KiB (65536 bytes)");
        assert_eq!(size(1000), "1000 bytes");
    }
}
