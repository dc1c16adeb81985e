//! [`SigningIn`]: the import's HTTP client, signing in when the server asks. Every request
//! carries the token once there is one (refreshed by rmcp before it expires). A `401` with a
//! challenge refreshes the token (or signs in again when it can't) and sends the request
//! again; a `403` `insufficient_scope` asks the user for the scopes named and sends it again;
//! once each per request, so a server that keeps refusing ends the request instead of
//! sending the user round in circles.

use super::dpop::{DpopKey, NONCE_HEADER};
use super::flow::{self, Redirect, Signed};
use super::McpOAuth;
use futures_util::stream::BoxStream;
use hyper::header::{HeaderName, HeaderValue};
use rmcp::model::ClientJsonRpcMessage;
use rmcp::transport::auth::{AuthError, AuthorizationManager};
use rmcp::transport::streamable_http_client::{
    StreamableHttpClient, StreamableHttpError, StreamableHttpPostResponse,
    StreamableHttpResponseLimits,
};
use sse_stream::{Error as SseError, Sse};
use std::collections::HashMap;
use std::future::Future;
use std::sync::Arc;
use tokio::sync::Mutex;

/// `inner` with sign-in.
#[derive(Clone)]
pub(crate) struct SigningIn<C> {
    inner: C,
    shared: Arc<Shared>,
}

struct Shared {
    url: String,
    oauth: McpOAuth,
    /// Held for a whole sign-in: requests refused at once wait for the one sign-in.
    state: Mutex<State>,
}

struct State {
    manager: Option<AuthorizationManager>,
    /// The key the token is bound to, when the sign-in used DPoP.
    dpop: Option<Arc<DpopKey>>,
    redirect: Redirect,
    /// Counts the tokens obtained: a request refused under an older one just tries again.
    generation: u64,
    /// Whether the last token came from a refresh: refused too, the next `401` signs in
    /// again instead of refreshing once more (the authorization server may have moved).
    refreshed: bool,
}

impl<C> SigningIn<C> {
    pub(crate) fn new(inner: C, url: &str, oauth: McpOAuth) -> SigningIn<C> {
        SigningIn {
            inner,
            shared: Arc::new(Shared {
                url: url.to_owned(),
                oauth,
                state: Mutex::new(State {
                    manager: None,
                    dpop: None,
                    redirect: Redirect::new(),
                    generation: 0,
                    refreshed: false,
                }),
            }),
        }
    }

    /// The token to send (`None` before signing in), the key it is bound to, and its
    /// generation.
    async fn token(&self) -> (Option<Token>, u64) {
        let state = self.shared.state.lock().await;
        let Some(manager) = &state.manager else {
            return (None, state.generation);
        };
        let Ok(token) = manager.get_access_token().await else {
            return (None, state.generation);
        };
        // A server that took the proof but gave a bearer token anyway (§5: `token_type` says
        // which) gets the token as a bearer token.
        let dpop = match &state.dpop {
            Some(key) if bound(manager).await => Some(Arc::clone(key)),
            _ => None,
        };
        let token = Some(Token { token, dpop });
        (token, state.generation)
    }

    /// Signs in after a `401` (`challenge`), unless another request did since `seen`: with
    /// the refresh token first, when there is one (a token the server revoked or expired
    /// early), and by the whole flow when that fails.
    async fn sign_in(&self, challenge: &str, seen: u64) -> Result<(), AuthError> {
        let mut state = self.shared.state.lock().await;
        if state.generation != seen {
            return Ok(());
        }
        if let (Some(manager), false) = (&state.manager, state.refreshed) {
            if manager.refresh_token().await.is_ok() {
                state.generation += 1;
                state.refreshed = true;
                return Ok(());
            }
        }
        let shared = &self.shared;
        let Signed { manager, dpop } =
            flow::sign_in(&shared.url, challenge, &shared.oauth, &mut state.redirect)
                .await
                .map_err(|e| AuthError::AuthorizationFailed(e.to_string()))?;
        state.manager = Some(manager);
        state.dpop = dpop;
        state.generation += 1;
        state.refreshed = false;
        Ok(())
    }

    /// Asks for the scopes a `403` named, unless another request got a new token since
    /// `seen`; signs in from scratch when there is no token to step up from.
    async fn step_up(&self, challenge: &str, required: &str, seen: u64) -> Result<(), AuthError> {
        let mut state = self.shared.state.lock().await;
        if state.generation != seen {
            return Ok(());
        }
        let shared = &self.shared;
        let State {
            manager,
            redirect,
            dpop,
            ..
        } = &mut *state;
        match manager {
            Some(manager) => flow::step_up(manager, required, &shared.oauth, redirect).await,
            None => flow::sign_in(&shared.url, challenge, &shared.oauth, redirect)
                .await
                .map(|signed| {
                    *manager = Some(signed.manager);
                    *dpop = signed.dpop;
                }),
        }
        .map_err(|e| AuthError::AuthorizationFailed(e.to_string()))?;
        state.generation += 1;
        state.refreshed = false;
        Ok(())
    }
}

impl<C: StreamableHttpClient + Sync> SigningIn<C> {
    /// Runs `call` (a `method` request to `uri`) with the token (or `fallback`, a static
    /// bearer token, before there is one), and once more after signing in or stepping up
    /// when the server asks, or with the new nonce when it asks for one (DPoP, §9).
    async fn signed<T, F, Fut>(
        &self,
        (method, uri): (&str, &str),
        fallback: Option<String>,
        headers: &HashMap<HeaderName, HeaderValue>,
        call: F,
    ) -> Result<T, StreamableHttpError<C::Error>>
    where
        F: Fn(Option<String>, HashMap<HeaderName, HeaderValue>) -> Fut,
        Fut: Future<Output = Result<T, StreamableHttpError<C::Error>>>,
    {
        let attempt = |token: Option<Token>| {
            let mut headers = headers.clone();
            let bearer = match token {
                Some(Token {
                    token,
                    dpop: Some(key),
                }) => {
                    let nonce = key.resource_nonce.get();
                    // Without a proof the request goes without the token, and is refused.
                    headers.extend(dpop_headers(&key, method, uri, &token, nonce.as_deref()));
                    None
                }
                Some(Token { token, dpop: None }) => Some(token),
                None => fallback.clone(),
            };
            call(bearer, headers)
        };
        // Each at most once per request: a server that keeps refusing ends the request.
        let (mut signed_in, mut stepped_up, mut renewed) = (false, false, false);
        loop {
            let (token, seen) = self.token().await;
            let bound = token
                .as_ref()
                .and_then(|t| Some((t.dpop.clone()?, t.token.clone())));
            match attempt(token).await {
                // A nonce asked for is not a sign-in: learnt once, then the refusal stands.
                Err(StreamableHttpError::AuthRequired(refused))
                    if refused.www_authenticate_header.contains("use_dpop_nonce") =>
                {
                    let (Some((key, token)), false) = (bound, renewed) else {
                        return Err(StreamableHttpError::AuthRequired(refused));
                    };
                    self.learn_nonce(uri, &key, &token).await;
                    renewed = true;
                }
                Err(StreamableHttpError::AuthRequired(refused)) if !signed_in => {
                    self.sign_in(&refused.www_authenticate_header, seen).await?;
                    signed_in = true;
                }
                Err(StreamableHttpError::InsufficientScope(refused)) if !stepped_up => {
                    let required = refused.required_scope.clone().unwrap_or_default();
                    self.step_up(&refused.www_authenticate_header, &required, seen)
                        .await?;
                    stepped_up = true;
                }
                answered => return answered,
            }
        }
    }

    /// Reads the MCP server's new DPoP nonce: rmcp's client reports a `401`'s challenge but
    /// not its headers, so a `ping` with the same token and a proof without the nonce asks
    /// for it again, and its `DPoP-Nonce` header is kept (one more request, only when the
    /// server asks for a nonce).
    async fn learn_nonce(&self, uri: &str, key: &DpopKey, token: &str) {
        // Built here, on the rare path that needs it, not for every import.
        crate::tls::ensure_provider();
        let Ok(probe) = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(super::bounds::TIMEOUT)
            .build()
        else {
            return;
        };
        let asked = probe
            .post(uri)
            .headers(
                dpop_headers(key, "POST", uri, token, None)
                    .into_iter()
                    .collect(),
            )
            .header(hyper::header::CONTENT_TYPE, "application/json")
            .header(hyper::header::ACCEPT, "application/json, text/event-stream")
            .body(r#"{"jsonrpc":"2.0","id":"dpop-nonce","method":"ping"}"#)
            .send()
            .await;
        if let Ok(answer) = asked {
            key.resource_nonce.keep(answer.headers().get(NONCE_HEADER));
        }
    }
}

/// `Authorization: DPoP <token>` and a proof of `key` for a `method` request to `uri`
/// (none when the proof can't be made or the token isn't a header value).
fn dpop_headers(
    key: &DpopKey,
    method: &str,
    uri: &str,
    token: &str,
    nonce: Option<&str>,
) -> Vec<(HeaderName, HeaderValue)> {
    let proof = key
        .proof(method, uri, Some(token), nonce)
        .ok()
        .and_then(|proof| HeaderValue::from_str(&proof).ok());
    let authorization = HeaderValue::from_str(&format!("DPoP {token}")).ok();
    let (Some(proof), Some(mut authorization)) = (proof, authorization) else {
        return Vec::new();
    };
    // Never shown by a `Debug` of the request, as reqwest's bearer isn't.
    authorization.set_sensitive(true);
    vec![
        (hyper::header::AUTHORIZATION, authorization),
        (HeaderName::from_static("dpop"), proof),
    ]
}

/// A token, and the key it is bound to when it is a DPoP token.
struct Token {
    token: String,
    dpop: Option<Arc<DpopKey>>,
}

/// Whether the token `manager` holds is bound to a key (`token_type` `DPoP`, RFC 9449 §5).
async fn bound(manager: &AuthorizationManager) -> bool {
    manager
        .get_credentials()
        .await
        .ok()
        .and_then(|credentials| credentials.1)
        .is_some_and(|token| {
            use oauth2::TokenResponse;
            token.token_type().as_ref().eq_ignore_ascii_case("dpop")
        })
}

impl<C: StreamableHttpClient + Sync> StreamableHttpClient for SigningIn<C> {
    type Error = C::Error;

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
        custom_headers: HashMap<HeaderName, HeaderValue>,
        limits: StreamableHttpResponseLimits,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        self.signed(
            ("POST", &uri),
            auth_header,
            &custom_headers,
            |token, headers| {
                self.inner.post_message_with_response_limits(
                    uri.clone(),
                    message.clone(),
                    session_id.clone(),
                    token,
                    headers,
                    limits,
                )
            },
        )
        .await
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<(), StreamableHttpError<Self::Error>> {
        self.signed(
            ("DELETE", &uri),
            auth_header,
            &custom_headers,
            |token, headers| {
                self.inner
                    .delete_session(uri.clone(), session_id.clone(), token, headers)
            },
        )
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
        self.signed(
            ("GET", &uri),
            auth_header,
            &custom_headers,
            |token, headers| {
                self.inner.get_stream(
                    uri.clone(),
                    session_id.clone(),
                    last_event_id.clone(),
                    token,
                    headers,
                )
            },
        )
        .await
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
        self.signed(
            ("GET", &uri),
            auth_header,
            &custom_headers,
            |token, headers| {
                self.inner.get_stream_with_max_sse_event_size(
                    uri.clone(),
                    session_id.clone(),
                    last_event_id.clone(),
                    token,
                    headers,
                    max_sse_event_size,
                )
            },
        )
        .await
    }
}
