//! The sign-ins without a user that rmcp's authorization flow doesn't run, each a token
//! request or two at the authorization server the resource's metadata names:
//!
//! - enterprise-managed authorization (SEP-990): the user's ID token exchanged at their
//!   identity provider for an identity assertion grant, and that at the MCP server's
//!   authorization server for the token, on rmcp's `enterprise` module;
//! - workload identity (SEP-1933): the JWT a platform issued the workload, given to the JWT
//!   bearer grant (RFC 7523) by hand: one form post, whose answer is a standard token
//!   response.
//!
//! The token is then held like one from the flow (`hold`): read from the manager by the
//! import's client, and when it expires, the same grant runs again (neither gives a
//! refresh token).

use super::bounds;
use super::{IdentityProvider, McpOAuth};
use crate::client::BoxError;
use oauth2::ClientSecret;
use rmcp::transport::auth::enterprise::{
    EmaAuthorizationServer, EmaClientAuthentication, EmaExchangeRequest,
};
use rmcp::transport::auth::{
    default_oauth_http_client, AuthorizationManager, AuthorizationMetadata, CredentialStore,
    InMemoryCredentialStore, StoredCredentials,
};
use serde_json::{json, Value};
use std::time::{SystemTime, UNIX_EPOCH};

/// The JWT bearer grant's `grant_type` (RFC 7523 §2.1).
const JWT_BEARER: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/// The most of a token response read: a token and its few fields are far smaller.
const MAX_RESPONSE: usize = 64 * 1024;

/// Exchanges the enterprise `id_token` from `idp` for a token to the server at `url`, whose
/// authorization server `metadata` describes.
pub(super) async fn enterprise(
    mut manager: AuthorizationManager,
    metadata: AuthorizationMetadata,
    url: &str,
    oauth: &McpOAuth,
    idp: &IdentityProvider,
    id_token: &str,
) -> Result<AuthorizationManager, BoxError> {
    let (client_id, secret) = oauth.client.clone().ok_or(
        "enterprise-managed authorization needs the client registered with the MCP server's \
         authorization server (`McpOAuth::client`)",
    )?;
    let issuer = metadata
        .issuer
        .clone()
        .ok_or("the authorization server's metadata names no issuer to address the grant to")?;
    let idp_server = EmaAuthorizationServer::new(&idp.issuer, &idp.token_endpoint, &idp.client_id)
        .with_client_authentication(match &idp.client_secret {
            Some(secret) => {
                EmaClientAuthentication::ClientSecretBasic(ClientSecret::new(secret.clone()))
            }
            None => EmaClientAuthentication::None,
        });
    let resource_server =
        EmaAuthorizationServer::new(&issuer, &metadata.token_endpoint, &client_id)
            .with_client_authentication(resource_authentication(&metadata, secret));
    let http = default_oauth_http_client()?;
    let token = EmaExchangeRequest::new_with_id_token(idp_server, resource_server, url, id_token)
        .with_scopes(oauth.scopes.iter().cloned())
        .exchange(&http, &http)
        .await?;
    let mut response = json!({
        "access_token": token.access_token.secret(),
        "token_type": "bearer",
    });
    if let Some(expires_in) = token.expires_in {
        response["expires_in"] = expires_in.as_secs().into();
    }
    if !token.scopes.is_empty() {
        let mut scopes: Vec<&str> = token.scopes.iter().map(String::as_str).collect();
        scopes.sort_unstable();
        response["scope"] = scopes.join(" ").into();
    }
    hold(&mut manager, metadata, url, oauth, &client_id, response).await?;
    Ok(manager)
}

/// How the client authenticates to the MCP server's authorization server: HTTP Basic unless
/// its metadata lists methods without it but with `client_secret_post`; a client without a
/// secret is a public one.
fn resource_authentication(
    metadata: &AuthorizationMetadata,
    secret: Option<String>,
) -> EmaClientAuthentication {
    let Some(secret) = secret else {
        return EmaClientAuthentication::None;
    };
    let methods = metadata
        .additional_fields
        .get("token_endpoint_auth_methods_supported")
        .and_then(Value::as_array);
    let offers = |method: &str| methods.is_some_and(|m| m.iter().any(|v| v == method));
    if methods.is_some() && !offers("client_secret_basic") && offers("client_secret_post") {
        EmaClientAuthentication::ClientSecretPost(ClientSecret::new(secret))
    } else {
        EmaClientAuthentication::ClientSecretBasic(ClientSecret::new(secret))
    }
}

/// Gives the workload's `jwt` to the JWT bearer grant, as the public client `client_id`,
/// for a token to the server at `url`. A refusal is the sign-in's error, as the server gave
/// it: a JWT the server refused once is refused again.
pub(super) async fn workload(
    mut manager: AuthorizationManager,
    metadata: AuthorizationMetadata,
    url: &str,
    oauth: &McpOAuth,
    client_id: &str,
    jwt: &str,
) -> Result<AuthorizationManager, BoxError> {
    let mut form = vec![
        ("grant_type", JWT_BEARER),
        ("assertion", jwt),
        ("client_id", client_id),
        ("resource", url),
    ];
    let scope = oauth.scopes.join(" ");
    if !scope.is_empty() {
        form.push(("scope", &scope));
    }
    let form = url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs(&form)
        .finish();
    crate::tls::ensure_provider();
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(bounds::TIMEOUT)
        .build()?;
    let sent = http
        .post(&metadata.token_endpoint)
        .header(reqwest::header::ACCEPT, "application/json")
        .header(
            reqwest::header::CONTENT_TYPE,
            "application/x-www-form-urlencoded",
        )
        .body(form)
        .send()
        .await
        .map_err(|e| {
            format!(
                "the token request to {} failed: {e}",
                metadata.token_endpoint
            )
        })?;
    let answer = bounds::read(sent, MAX_RESPONSE).await?;
    let (status, body) = (answer.status(), answer.body());
    let response: Value = serde_json::from_slice(body).map_err(|e| {
        format!("the token endpoint answered {status} with what isn't a token response: {e}")
    })?;
    if !status.is_success() || response.get("access_token").is_none() {
        return Err(refusal(status, &response).into());
    }
    hold(&mut manager, metadata, url, oauth, client_id, response).await?;
    Ok(manager)
}

/// What the authorization server said when it refused a grant (RFC 6749 §5.2).
fn refusal(status: oauth2::http::StatusCode, response: &Value) -> String {
    let text = |key: &str| response.get(key).and_then(Value::as_str);
    match (text("error"), text("error_description")) {
        (Some(error), Some(description)) => {
            format!("the authorization server refused the workload's JWT ({status}): {error}: {description}")
        }
        (Some(error), None) => {
            format!("the authorization server refused the workload's JWT ({status}): {error}")
        }
        _ => format!("the authorization server answered {status} without a token"),
    }
}

/// Puts the token `response` (a standard token response, RFC 6749 §5.1) in `manager`, kept
/// in the token folder when there is one, for the client `client_id` of the authorization
/// server `metadata` describes.
async fn hold(
    manager: &mut AuthorizationManager,
    metadata: AuthorizationMetadata,
    url: &str,
    oauth: &McpOAuth,
    client_id: &str,
    response: Value,
) -> Result<(), BoxError> {
    let scopes = response
        .get("scope")
        .and_then(Value::as_str)
        .map(|scope| scope.split_whitespace().map(str::to_owned).collect())
        .unwrap_or_default();
    let token = serde_json::from_value(response)
        .map_err(|e| format!("the token response can't be read: {e}"))?;
    let received = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_secs());
    let stored = StoredCredentials::new(client_id.to_owned(), Some(token), scopes, Some(received))
        .with_issuer(metadata.issuer.clone());
    manager.set_metadata(metadata);
    match &oauth.tokens {
        Some(folder) => {
            let store = super::store::FileStore::new(folder, url);
            store.save(stored).await?;
            manager.set_credential_store(store);
        }
        None => {
            let store = InMemoryCredentialStore::new();
            store.save(stored).await?;
            manager.set_credential_store(store);
        }
    }
    manager.configure_client_id(client_id)?;
    Ok(())
}
