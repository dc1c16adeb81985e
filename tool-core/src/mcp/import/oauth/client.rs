//! [`SigningIn`]: the import's HTTP client, signing in when the server asks. Every request
//! carries the token once there is one (refreshed by rmcp before it expires). A `401` with a
//! challenge refreshes the token (or signs in again when it can't) and sends the request
//! again; a `403` `insufficient_scope` asks the user for the scopes named and sends it again;
//! once each per request, so a server that keeps refusing ends the request instead of
//! sending the user round in circles.

use super::flow::{self, Redirect};
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
                    redirect: Redirect::new(),
                    generation: 0,
                    refreshed: false,
                }),
            }),
        }
    }

    /// The token to send (`None` before signing in) and its generation.
    async fn token(&self) -> (Option<String>, u64) {
        let state = self.shared.state.lock().await;
        let token = match &state.manager {
            Some(manager) => manager.get_access_token().await.ok(),
            None => None,
        };
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
        let manager = flow::sign_in(&shared.url, challenge, &shared.oauth, &mut state.redirect)
            .await
            .map_err(|e| AuthError::AuthorizationFailed(e.to_string()))?;
        state.manager = Some(manager);
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
            manager, redirect, ..
        } = &mut *state;
        match manager {
            Some(manager) => flow::step_up(manager, required, &shared.oauth, redirect).await,
            None => flow::sign_in(&shared.url, challenge, &shared.oauth, redirect)
                .await
                .map(|signed_in| *manager = Some(signed_in)),
        }
        .map_err(|e| AuthError::AuthorizationFailed(e.to_string()))?;
        state.generation += 1;
        state.refreshed = false;
        Ok(())
    }
}

impl<C: StreamableHttpClient + Sync> SigningIn<C> {
    /// Runs `call` with the token (or `fallback`, a static bearer token, before there is
    /// one), and once more after signing in or stepping up when the server asks.
    async fn signed<T, F, Fut>(
        &self,
        fallback: Option<String>,
        call: F,
    ) -> Result<T, StreamableHttpError<C::Error>>
    where
        F: Fn(Option<String>) -> Fut,
        Fut: Future<Output = Result<T, StreamableHttpError<C::Error>>>,
    {
        let (token, seen) = self.token().await;
        match call(token.or_else(|| fallback.clone())).await {
            Err(StreamableHttpError::AuthRequired(refused)) => {
                self.sign_in(&refused.www_authenticate_header, seen).await?;
            }
            Err(StreamableHttpError::InsufficientScope(refused)) => {
                let required = refused.required_scope.clone().unwrap_or_default();
                self.step_up(&refused.www_authenticate_header, &required, seen)
                    .await?;
            }
            answered => return answered,
        }
        let (token, _) = self.token().await;
        call(token.or(fallback)).await
    }
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
        self.signed(auth_header, |token| {
            self.inner.post_message_with_response_limits(
                uri.clone(),
                message.clone(),
                session_id.clone(),
                token,
                custom_headers.clone(),
                limits,
            )
        })
        .await
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<(), StreamableHttpError<Self::Error>> {
        self.signed(auth_header, |token| {
            self.inner.delete_session(
                uri.clone(),
                session_id.clone(),
                token,
                custom_headers.clone(),
            )
        })
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
        self.signed(auth_header, |token| {
            self.inner.get_stream(
                uri.clone(),
                session_id.clone(),
                last_event_id.clone(),
                token,
                custom_headers.clone(),
            )
        })
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
        self.signed(auth_header, |token| {
            self.inner.get_stream_with_max_sse_event_size(
                uri.clone(),
                session_id.clone(),
                last_event_id.clone(),
                token,
                custom_headers.clone(),
                max_sse_event_size,
            )
        })
        .await
    }
}
