//! Signing in to a remote MCP server (OAuth 2.1, feature `mcp-oauth`): [`McpOAuth`], given to
//! [`McpImport::oauth`](super::McpImport::oauth).
//!
//! On rmcp's `auth` (which builds on the `oauth2` crate): when the server answers the first
//! request `401` with a `WWW-Authenticate` challenge, the import discovers the authorization
//! server from the resource's metadata (RFC 9728, with the 2025-03-26 fallbacks), registers
//! itself (a pre-registered client, a client ID metadata document, or dynamic registration),
//! asks for the scopes the challenge or the metadata name, and runs the authorization-code
//! flow with PKCE and the `resource` parameter. The user's part, opening the authorization
//! URL and coming back to the redirect, is [`McpOAuth::authorize_with`]'s, or by default a
//! loopback listener on 127.0.0.1 (`loopback.rs`) with the URL printed on stderr. The token
//! then rides every request, refreshed before it expires.

mod addresses;
mod bounds;
mod client;
mod dpop;
mod dpop_http;
mod flow;
mod grants;
mod loopback;
mod store;

pub(crate) use client::SigningIn;

use crate::client::BoxError;
use futures_util::future::BoxFuture;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

/// What the user is asked to do: open `url`, sign in, and come back to `redirect_uri`.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct AuthorizationPrompt {
    /// The authorization server's URL, with the request's state and PKCE challenge.
    pub url: String,
    /// Where the authorization server sends the browser back: the callback URL to return.
    pub redirect_uri: String,
}

/// The user's part of the flow: given the prompt, the URL the browser was sent back to
/// (holding `code` and `state`).
type Authorize =
    Arc<dyn Fn(AuthorizationPrompt) -> BoxFuture<'static, Result<String, BoxError>> + Send + Sync>;

/// How an HTTP import signs in when its server asks (OAuth 2.1 authorization code with
/// PKCE). Without [`authorize_with`](Self::authorize_with), a loopback listener on a free
/// 127.0.0.1 port receives the redirect and the authorization URL is printed on stderr.
///
/// ```no_run
/// use tool_runtime::mcp::{McpImport, McpOAuth};
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let tools = McpImport::http("https://mcp.example.com/mcp")
///     .oauth(McpOAuth::new().client_name("my agent"))
///     .connect()
///     .await?;
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct McpOAuth {
    pub(crate) client_name: String,
    pub(crate) client_metadata_url: Option<String>,
    pub(crate) client: Option<(String, Option<String>)>,
    pub(crate) scopes: Vec<String>,
    pub(crate) authorize: Option<Authorize>,
    pub(crate) redirect_uri: Option<String>,
    pub(crate) wait: Duration,
    /// A machine's own credentials (the client credentials grant) instead of a user's.
    pub(crate) machine: Option<Machine>,
    /// Where tokens are kept between runs, if anywhere.
    pub(crate) tokens: Option<std::path::PathBuf>,
    /// Whether tokens are bound to a key when the authorization server can (DPoP).
    pub(crate) dpop: bool,
}

impl std::fmt::Debug for McpOAuth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // A client secret is never shown.
        f.debug_struct("McpOAuth")
            .field("client_name", &self.client_name)
            .field("client_metadata_url", &self.client_metadata_url)
            .field("client_id", &self.client.as_ref().map(|(id, _)| id))
            .field("scopes", &self.scopes)
            .field("authorize_with", &self.authorize.is_some())
            .field(
                "client_credentials",
                &self.machine.as_ref().map(Machine::client_id),
            )
            .finish_non_exhaustive()
    }
}

impl Default for McpOAuth {
    fn default() -> McpOAuth {
        McpOAuth::new()
    }
}

impl McpOAuth {
    /// The default of [`wait`](Self::wait): 5 minutes for the user to sign in.
    pub const DEFAULT_WAIT: Duration = Duration::from_secs(5 * 60);

    /// Signs in as a client named `tool-runtime`, registered dynamically (or by a client ID
    /// metadata document, when given and the server takes one), with the scopes the server
    /// names, through a loopback listener.
    pub fn new() -> McpOAuth {
        McpOAuth {
            client_name: "tool-runtime".to_owned(),
            client_metadata_url: None,
            client: None,
            scopes: Vec::new(),
            authorize: None,
            redirect_uri: None,
            wait: McpOAuth::DEFAULT_WAIT,
            machine: None,
            tokens: None,
            dpop: true,
        }
    }

    /// Signs in with `machine`'s credentials, all else the default.
    fn as_machine(machine: Machine) -> McpOAuth {
        McpOAuth {
            machine: Some(machine),
            ..McpOAuth::new()
        }
    }

    /// Signs in as a program, not a user (OAuth's client credentials grant): the client's
    /// own ID and secret, given to the token endpoint as the authorization server's metadata
    /// says (HTTP Basic, or in the body). No browser, no redirect.
    pub fn client_credentials(id: impl Into<String>, secret: impl Into<String>) -> McpOAuth {
        McpOAuth::as_machine(Machine::Secret {
            id: id.into(),
            secret: secret.into(),
        })
    }

    /// Signs in as a program with a signed assertion instead of a secret (the client
    /// credentials grant with `private_key_jwt`, RFC 7523; feature `mcp-oauth-jwt`): `pem` is
    /// the client's private key (PKCS#8), `algorithm` how it signs; the assertion's audience
    /// is the authorization server's issuer.
    #[cfg(feature = "mcp-oauth-jwt")]
    pub fn private_key_jwt(
        id: impl Into<String>,
        pem: impl Into<Vec<u8>>,
        algorithm: JwtAlgorithm,
    ) -> McpOAuth {
        McpOAuth::as_machine(Machine::Jwt {
            id: id.into(),
            pem: pem.into(),
            algorithm,
        })
    }

    /// Signs in as a user of an enterprise identity provider, without a browser
    /// (enterprise-managed authorization, SEP-990): the user's ID token from `idp` is
    /// exchanged there for an identity assertion grant (RFC 8693), which the MCP server's
    /// authorization server takes for a token (the JWT bearer grant, RFC 7523). The client
    /// registered with that authorization server is [`client`](Self::client)'s, which this
    /// needs; it authenticates as the server's metadata says (HTTP Basic, or in the body).
    /// When the token expires the same ID token is exchanged again: a program whose users
    /// sign in again at their provider builds a new import with the new ID token.
    pub fn enterprise_managed(idp: IdentityProvider, id_token: impl Into<String>) -> McpOAuth {
        McpOAuth::as_machine(Machine::Enterprise {
            idp,
            id_token: id_token.into(),
        })
    }

    /// Signs in as a workload with the JWT its platform issued it (workload identity
    /// federation, SEP-1933: the JWT bearer grant of RFC 7523, the JWT's audience being the
    /// MCP server's authorization server) as the public client `id`. A refusal (an expired
    /// JWT, a wrong audience, a scope not granted) ends the sign-in with the server's error:
    /// it is not retried, nor another grant tried.
    pub fn workload_identity(id: impl Into<String>, jwt: impl Into<String>) -> McpOAuth {
        McpOAuth::as_machine(Machine::Workload {
            id: id.into(),
            jwt: jwt.into(),
        })
    }

    /// The client's name in a dynamic registration (what the user sees on the consent page).
    #[must_use]
    pub fn client_name(mut self, name: impl Into<String>) -> McpOAuth {
        self.client_name = name.into();
        self
    }

    /// An HTTPS URL where this client's metadata document is published (a client ID
    /// metadata document): used as the client ID when the authorization server says it takes
    /// them, instead of registering.
    #[must_use]
    pub fn client_metadata_url(mut self, url: impl Into<String>) -> McpOAuth {
        self.client_metadata_url = Some(url.into());
        self
    }

    /// A client registered with the authorization server beforehand, and its secret for a
    /// confidential client: no registration is made. The token endpoint is authenticated as
    /// the server's metadata says (HTTP Basic, or in the body).
    #[must_use]
    pub fn client(mut self, id: impl Into<String>, secret: Option<String>) -> McpOAuth {
        self.client = Some((id.into(), secret));
        self
    }

    /// The scopes to ask for, instead of those the server's challenge or metadata names.
    #[must_use]
    pub fn scopes<I, S>(mut self, scopes: I) -> McpOAuth
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// The user's part, for a program with its own UI: `authorize` gets the
    /// [`AuthorizationPrompt`] and gives back the URL the browser was sent back to, with
    /// its `code` and `state` (and `iss`, when the server adds it). `redirect_uri` is the
    /// one registered for this client. No listener is started.
    #[must_use]
    pub fn authorize_with<F, Fut>(
        mut self,
        redirect_uri: impl Into<String>,
        authorize: F,
    ) -> McpOAuth
    where
        F: Fn(AuthorizationPrompt) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<String, BoxError>> + Send + 'static,
    {
        self.redirect_uri = Some(redirect_uri.into());
        self.authorize = Some(Arc::new(move |prompt| Box::pin(authorize(prompt))));
        self
    }

    /// Keeps the tokens in `folder` (one file per server, readable by its owner alone, the
    /// folder created 0700), so that the next run signs in without the user while a token
    /// or its refresh token is good. By default tokens live in memory and go with the
    /// import. (A dynamically registered client's secret is not kept: such a client signs in
    /// again once its refresh token needs it.)
    #[must_use]
    pub fn token_folder(mut self, folder: impl Into<std::path::PathBuf>) -> McpOAuth {
        self.tokens = Some(folder.into());
        self
    }

    /// Whether the user's token is bound to a key this import holds (DPoP, RFC 9449), when
    /// the authorization server's metadata says it binds ES256 keys (on by default). A bound
    /// token is useless to whoever copies it without the key; every request carries a fresh
    /// proof signed with it, and the nonce a server asks for. The key lives in memory only,
    /// so a bound token is not kept in the [`token_folder`](Self::token_folder).
    #[must_use]
    pub fn dpop(mut self, on: bool) -> McpOAuth {
        self.dpop = on;
        self
    }

    /// How long the user may take to sign in (default [`DEFAULT_WAIT`](Self::DEFAULT_WAIT)).
    #[must_use]
    pub fn wait(mut self, wait: Duration) -> McpOAuth {
        self.wait = wait;
        self
    }
}

/// An enterprise identity provider the user signed in to
/// ([`McpOAuth::enterprise_managed`]): its issuer, token endpoint and this program's client
/// there (a public client unless [`client_secret`](Self::client_secret) is given).
#[derive(Clone)]
pub struct IdentityProvider {
    pub(crate) issuer: String,
    pub(crate) token_endpoint: String,
    pub(crate) client_id: String,
    pub(crate) client_secret: Option<String>,
}

impl IdentityProvider {
    /// The provider whose issuer identifier is `issuer`, exchanging tokens at
    /// `token_endpoint`, where this program is the client `client_id`.
    pub fn new(
        issuer: impl Into<String>,
        token_endpoint: impl Into<String>,
        client_id: impl Into<String>,
    ) -> IdentityProvider {
        IdentityProvider {
            issuer: issuer.into(),
            token_endpoint: token_endpoint.into(),
            client_id: client_id.into(),
            client_secret: None,
        }
    }

    /// The client's secret at the provider (sent with HTTP Basic), for a confidential
    /// client.
    #[must_use]
    pub fn client_secret(mut self, secret: impl Into<String>) -> IdentityProvider {
        self.client_secret = Some(secret.into());
        self
    }
}

impl std::fmt::Debug for IdentityProvider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // A client secret is never shown.
        f.debug_struct("IdentityProvider")
            .field("issuer", &self.issuer)
            .field("token_endpoint", &self.token_endpoint)
            .field("client_id", &self.client_id)
            .finish_non_exhaustive()
    }
}

/// A program's own credentials, or a user's it was given.
#[derive(Clone)]
pub(crate) enum Machine {
    Secret {
        id: String,
        secret: String,
    },
    /// An enterprise ID token to exchange, and where.
    Enterprise {
        idp: IdentityProvider,
        id_token: String,
    },
    /// A workload's JWT.
    Workload {
        id: String,
        jwt: String,
    },
    #[cfg(feature = "mcp-oauth-jwt")]
    Jwt {
        id: String,
        pem: Vec<u8>,
        algorithm: JwtAlgorithm,
    },
}

impl Machine {
    fn client_id(&self) -> &str {
        match self {
            Machine::Secret { id, .. } | Machine::Workload { id, .. } => id,
            Machine::Enterprise { idp, .. } => &idp.client_id,
            #[cfg(feature = "mcp-oauth-jwt")]
            Machine::Jwt { id, .. } => id,
        }
    }
}

/// How a `private_key_jwt` assertion is signed ([`McpOAuth::private_key_jwt`]).
#[cfg(feature = "mcp-oauth-jwt")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum JwtAlgorithm {
    /// RSA PKCS#1 v1.5 with SHA-256.
    RS256,
    /// RSA PKCS#1 v1.5 with SHA-384.
    RS384,
    /// RSA PKCS#1 v1.5 with SHA-512.
    RS512,
    /// ECDSA on P-256 with SHA-256.
    ES256,
    /// ECDSA on P-384 with SHA-384.
    ES384,
}

#[cfg(feature = "mcp-oauth-jwt")]
impl std::str::FromStr for JwtAlgorithm {
    type Err = String;

    /// `RS256`, `ES256`, ... as JOSE names them.
    fn from_str(name: &str) -> Result<JwtAlgorithm, String> {
        Ok(match name {
            "RS256" => JwtAlgorithm::RS256,
            "RS384" => JwtAlgorithm::RS384,
            "RS512" => JwtAlgorithm::RS512,
            "ES256" => JwtAlgorithm::ES256,
            "ES384" => JwtAlgorithm::ES384,
            other => {
                return Err(format!(
                    "{other} is not a signing algorithm this client has"
                ))
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_never_shows_in_debug() {
        let pre = McpOAuth::new().client("app", Some("s3cret-one".to_owned()));
        let machine = McpOAuth::client_credentials("robot", "s3cret-two");
        let idp = IdentityProvider::new("https://idp", "https://idp/token", "app")
            .client_secret("s3cret-three");
        let enterprise = McpOAuth::enterprise_managed(idp.clone(), "s3cret-id-token");
        let workload = McpOAuth::workload_identity("robot", "s3cret-jwt");
        for shown in [
            format!("{pre:?}"),
            format!("{machine:?}"),
            format!("{idp:?}"),
            format!("{enterprise:?}"),
            format!("{workload:?}"),
        ] {
            assert!(!shown.contains("s3cret"), "{shown}");
        }
        assert!(format!("{machine:?}").contains("robot"));
    }
}
