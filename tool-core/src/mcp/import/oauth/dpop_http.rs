//! The HTTP client rmcp's authorization runs on once a sign-in uses DPoP: rmcp's own client
//! can't add a header to a request, nor send one again, so this one does its work (the
//! redirect policy asked for, a time limit, a bounded answer, addresses confined as rmcp
//! confines them: `addresses.rs`) and adds a proof to every token request, sending it once
//! more with the nonce the authorization server asks for (RFC 9449 §8).

use super::addresses::Confined;
use super::bounds;
use super::dpop::{DpopKey, NONCE_HEADER};
use oauth2::http::Method;
use oauth2::HttpResponse;
use rmcp::transport::auth::{
    OAuthHttpClient, OAuthHttpClientError, OAuthHttpClientFuture, OAuthHttpRedirectPolicy,
    OAuthHttpRequest,
};
use std::sync::Arc;

/// The most of an answer read: metadata, a registration and a token are far smaller.
const MAX_ANSWER: usize = 1024 * 1024;

/// The most redirects followed, each within the first request's origin.
const MAX_REDIRECTS: usize = 10;

/// rmcp's OAuth requests, with DPoP proofs on the token requests.
pub(super) struct DpopHttp {
    key: Arc<DpopKey>,
    follow: reqwest::Client,
    stop: reqwest::Client,
    confined: Confined,
}

impl DpopHttp {
    /// A client for the sign-in to the MCP server at `url`, proving possession of `key`.
    pub(super) fn new(key: Arc<DpopKey>, url: &str) -> Result<DpopHttp, OAuthHttpClientError> {
        crate::tls::ensure_provider();
        let confined = Confined::for_server(url);
        let same_origin = reqwest::redirect::Policy::custom(|attempt| {
            let same = attempt
                .previous()
                .first()
                .is_some_and(|first| first.origin() == attempt.url().origin());
            if same && attempt.previous().len() <= MAX_REDIRECTS {
                attempt.follow()
            } else {
                attempt.stop()
            }
        });
        let build = |policy| {
            reqwest::Client::builder()
                .redirect(policy)
                .dns_resolver(Arc::new(confined))
                .build()
        };
        Ok(DpopHttp {
            key,
            follow: build(same_origin)?,
            stop: build(reqwest::redirect::Policy::none())?,
            confined,
        })
    }

    async fn send(&self, request: OAuthHttpRequest) -> Result<HttpResponse, OAuthHttpClientError> {
        let client = match request.redirect_policy {
            OAuthHttpRedirectPolicy::Stop => &self.stop,
            _ => &self.follow,
        };
        let timeout = request.timeout.unwrap_or(bounds::TIMEOUT);
        let (parts, body) = request.request.into_parts();
        let url = parts.uri.to_string();
        self.confined.check_literal(&url)?;
        // A token request is a form post with a grant: the one kind of request DPoP binds.
        let token_request = parts.method == Method::POST
            && url::form_urlencoded::parse(&body).any(|(key, _)| key == "grant_type");
        let mut nonce = self.key.server_nonce.get();
        let mut asked_again = false;
        loop {
            let mut builder = client
                .request(parts.method.clone(), &url)
                .headers(parts.headers.clone())
                .timeout(timeout)
                .body(body.clone());
            if token_request {
                let proof = self.key.proof("POST", &url, None, nonce.as_deref())?;
                builder = builder.header("DPoP", proof);
            }
            let answer = bounds::read(builder.send().await?, MAX_ANSWER).await?;
            let renewed = self
                .key
                .server_nonce
                .keep(answer.headers().get(NONCE_HEADER));
            if token_request && renewed && !asked_again && asks_for_nonce(&answer) {
                nonce = self.key.server_nonce.get();
                asked_again = true;
                continue;
            }
            return Ok(answer);
        }
    }
}

impl OAuthHttpClient for DpopHttp {
    fn execute(&self, request: OAuthHttpRequest) -> OAuthHttpClientFuture<'_> {
        Box::pin(self.send(request))
    }
}

/// Whether a token endpoint's answer is §8's challenge: `400` with `use_dpop_nonce`.
fn asks_for_nonce(answer: &HttpResponse) -> bool {
    answer.status() == 400
        && serde_json::from_slice::<serde_json::Value>(answer.body())
            .is_ok_and(|body| body["error"] == "use_dpop_nonce")
}
