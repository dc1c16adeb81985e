//! The sign-in itself: rmcp's discovery, registration and authorization-code exchange
//! around the user's part, and the step-up to more scopes.

use super::dpop::{self, DpopKey};
use super::dpop_http::DpopHttp;
use super::grants;
use super::loopback::Listener;
use super::{AuthorizationPrompt, Machine, McpOAuth};
use crate::client::BoxError;
use rmcp::transport::auth::{
    AuthorizationCallback, AuthorizationManager, AuthorizationMetadata, AuthorizationRequest,
    ClientCredentialsConfig, OAuthState,
};
use std::sync::Arc;

/// Where the browser comes back to: the program's own redirect (`authorize_with`), or the
/// loopback listener's, on one port for the import's life (a step-up must come back to the
/// redirect URI the client was registered with).
pub(super) struct Redirect {
    port: Option<u16>,
}

impl Redirect {
    pub(super) fn new() -> Redirect {
        Redirect { port: None }
    }

    /// The redirect URI, and who does the user's part.
    async fn user(&mut self, oauth: &McpOAuth) -> Result<(String, User), BoxError> {
        if let (Some(authorize), Some(redirect_uri)) = (&oauth.authorize, &oauth.redirect_uri) {
            return Ok((redirect_uri.clone(), User::Callback(authorize.clone())));
        }
        let listener = Listener::bind(self.port.unwrap_or(0)).await?;
        self.port = Some(listener.port());
        Ok((listener.redirect_uri(), User::Loopback(listener)))
    }
}

/// Who does the user's part.
enum User {
    Callback(super::Authorize),
    Loopback(Listener),
}

impl User {
    /// Shows `prompt` and waits (at most `oauth.wait`) for the callback URL.
    async fn ask(self, prompt: AuthorizationPrompt, oauth: &McpOAuth) -> Result<String, BoxError> {
        let answered = match self {
            User::Callback(authorize) => tokio::time::timeout(oauth.wait, authorize(prompt)).await,
            User::Loopback(listener) => {
                tokio::time::timeout(oauth.wait, listener.prompt(prompt, true)).await
            }
        };
        answered.map_err(|_| format!("nobody signed in within {:?}", oauth.wait))?
    }
}

/// A sign-in's outcome: the token's manager, and the key the token is bound to (DPoP).
pub(super) struct Signed {
    pub(super) manager: AuthorizationManager,
    pub(super) dpop: Option<Arc<DpopKey>>,
}

/// Signs in to the server at `url`, which answered `challenge` (its `WWW-Authenticate`):
/// discovery from the resource's metadata, a client (pre-registered, a metadata document,
/// or registered now), the user's authorization, and the token.
pub(super) async fn sign_in(
    url: &str,
    challenge: &str,
    oauth: &McpOAuth,
    redirect: &mut Redirect,
) -> Result<Signed, BoxError> {
    let manager = AuthorizationManager::new(url).await?;
    let mut found = Found(None);
    let (manager, dpop) = with_dpop(manager, &mut found, url, challenge, oauth).await?;
    let bound = dpop.is_some();
    Ok(Signed {
        manager: authorize(manager, found, url, challenge, oauth, redirect, bound).await?,
        dpop,
    })
}

/// The authorization server's metadata, found once in a sign-in and used by each step that
/// needs it (the choice of DPoP, a kept token, the machine grants).
struct Found(Option<AuthorizationMetadata>);

impl Found {
    /// The metadata, found now from the resource's (the challenge's `resource_metadata`, or
    /// the well-known URLs) unless it was already.
    async fn get(
        &mut self,
        manager: &AuthorizationManager,
        challenge: &str,
    ) -> Result<AuthorizationMetadata, BoxError> {
        if let Some(metadata) = &self.0 {
            return Ok(metadata.clone());
        }
        let metadata = manager
            .resolve_metadata_from_challenge(Some(challenge))
            .await?
            .metadata;
        self.0 = Some(metadata.clone());
        Ok(metadata)
    }
}

/// A manager whose token requests carry DPoP proofs, and its key, when `oauth` allows it
/// and the authorization server binds ES256 keys; else `manager` back, without a key.
async fn with_dpop(
    manager: AuthorizationManager,
    found: &mut Found,
    url: &str,
    challenge: &str,
    oauth: &McpOAuth,
) -> Result<(AuthorizationManager, Option<Arc<DpopKey>>), BoxError> {
    // The machine grants bind nothing: theirs are the servers' own tokens.
    if !oauth.dpop || oauth.machine.is_some() {
        return Ok((manager, None));
    }
    // Found by rmcp's own client, which confines addresses as ours does.
    let offered = found
        .get(&manager, challenge)
        .await
        .is_ok_and(|metadata| dpop::offered(&metadata.additional_fields));
    if !offered {
        return Ok((manager, None));
    }
    let key = Arc::new(DpopKey::new()?);
    let http = Arc::new(DpopHttp::new(Arc::clone(&key), url)?);
    let bound = AuthorizationManager::new_with_oauth_http_client(url, http).await?;
    Ok((bound, Some(key)))
}

/// The sign-in itself, on `manager`: a kept token, a machine's grant, or the user's
/// authorization; `bound` when its tokens are bound to a key, which no token folder keeps.
async fn authorize(
    mut manager: AuthorizationManager,
    mut found: Found,
    url: &str,
    challenge: &str,
    oauth: &McpOAuth,
    redirect: &mut Redirect,
    bound: bool,
) -> Result<AuthorizationManager, BoxError> {
    let folder = oauth.tokens.as_ref().filter(|_| !bound);
    if let Some(folder) = folder {
        manager.set_credential_store(super::store::FileStore::new(folder, url));
        // A token kept from an earlier run, for this server's authorization server: used
        // (refreshed if it must be) without asking anyone.
        if let Ok(metadata) = found.get(&manager, challenge).await {
            manager.set_metadata(metadata);
            if manager.initialize_from_store().await.unwrap_or(false)
                && manager.get_access_token().await.is_ok()
            {
                return Ok(manager);
            }
        }
    }
    if let Some(machine) = &oauth.machine {
        let (scopes, resource) = (oauth.scopes.clone(), Some(url.to_owned()));
        let config = match machine {
            Machine::Secret { id, secret } => ClientCredentialsConfig::ClientSecret {
                client_id: id.clone(),
                client_secret: secret.clone(),
                scopes,
                resource,
            },
            #[cfg(feature = "mcp-oauth-jwt")]
            Machine::Jwt { id, pem, algorithm } => ClientCredentialsConfig::PrivateKeyJwt {
                client_id: id.clone(),
                signing_key: pem.clone(),
                signing_algorithm: jwt_algorithm(*algorithm),
                token_endpoint_audience: None,
                scopes,
                resource,
            },
            Machine::Enterprise { idp, id_token } => {
                let metadata = found.get(&manager, challenge).await?;
                return grants::enterprise(manager, metadata, url, oauth, idp, id_token).await;
            }
            Machine::Workload { id, jwt } => {
                let metadata = found.get(&manager, challenge).await?;
                return grants::workload(manager, metadata, url, oauth, id, jwt).await;
            }
        };
        let mut state = OAuthState::Unauthorized(manager);
        // rmcp's signed-assertion exchange holds a key parser that isn't `Sync` across an
        // await, so its future isn't `Send`: it runs on a blocking thread of its own, driven
        // by the runtime's handle.
        let runtime = tokio::runtime::Handle::current();
        let exchanged = tokio::task::spawn_blocking(move || {
            runtime.block_on(async move {
                state.authenticate_client_credentials(config).await?;
                Ok::<_, BoxError>(state)
            })
        })
        .await??;
        return Ok(exchanged
            .into_authorization_manager()
            .ok_or("the client credentials gave no token")?);
    }
    let (redirect_uri, user) = redirect.user(oauth).await?;
    let mut request = AuthorizationRequest::new(redirect_uri.clone())
        .with_client_name(oauth.client_name.clone())
        .with_challenge(challenge);
    if let Some(metadata_url) = &oauth.client_metadata_url {
        request = request.with_client_metadata_url(metadata_url.clone());
    }
    if let Some((id, secret)) = &oauth.client {
        request = request.with_preregistered_client(id.clone());
        if let Some(secret) = secret {
            request = request.with_client_secret(secret.clone());
        }
    }
    if !oauth.scopes.is_empty() {
        request = request.with_scopes(oauth.scopes.clone());
    }
    let mut state = OAuthState::Unauthorized(manager);
    state.start_authorization(request).await?;
    let prompt = AuthorizationPrompt {
        url: state.get_authorization_url().await?,
        redirect_uri,
    };
    let callback = user.ask(prompt, oauth).await?;
    state.handle_callback_url(&callback).await?;
    Ok(state
        .into_authorization_manager()
        .ok_or("the authorization finished without a token")?)
}

/// Asks the user again, for the scopes held and `required` (a `403` `insufficient_scope`),
/// with the same client.
pub(super) async fn step_up(
    manager: &mut AuthorizationManager,
    required: &str,
    oauth: &McpOAuth,
    redirect: &mut Redirect,
) -> Result<(), BoxError> {
    let (redirect_uri, user) = redirect.user(oauth).await?;
    let prompt = AuthorizationPrompt {
        url: manager.request_scope_upgrade(required).await?,
        redirect_uri,
    };
    let callback = AuthorizationCallback::from_redirect_url(&user.ask(prompt, oauth).await?)?;
    manager
        .exchange_code_for_token_with_issuer(
            &callback.code,
            &callback.csrf_token,
            callback.issuer.as_deref(),
        )
        .await?;
    Ok(())
}

/// Ours as rmcp's.
#[cfg(feature = "mcp-oauth-jwt")]
fn jwt_algorithm(algorithm: super::JwtAlgorithm) -> rmcp::transport::auth::JwtSigningAlgorithm {
    use super::JwtAlgorithm::{ES256, ES384, RS256, RS384, RS512};
    use rmcp::transport::auth::JwtSigningAlgorithm as Rmcp;
    match algorithm {
        RS256 => Rmcp::RS256,
        RS384 => Rmcp::RS384,
        RS512 => Rmcp::RS512,
        ES256 => Rmcp::ES256,
        ES384 => Rmcp::ES384,
    }
}
