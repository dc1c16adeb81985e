//! DPoP (RFC 9449; MCP's SEP-1932): tokens bound to a key the import holds, so that a token
//! copied from a log or a proxy is worthless without the key. Used when the authorization
//! server's metadata lists ES256 in `dpop_signing_alg_values_supported` (and
//! [`McpOAuth::dpop`](super::McpOAuth::dpop) is on, its default).
//!
//! One P-256 key per sign-in, made with `ring` (already in the tree through rustls), never
//! written anywhere. Every token request and every request to the MCP server carries a fresh
//! proof: a JWT signed with the key, naming the request's method and URL, a unique `jti`, the
//! time, the access token's hash once there is one (`ath`), and the nonce the server last
//! handed out, when it asks for one (`use_dpop_nonce`, §8 and §9).

use crate::client::BoxError;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use ring::digest::{digest, SHA256};
use ring::rand::{SecureRandom, SystemRandom};
use ring::signature::{EcdsaKeyPair, KeyPair, ECDSA_P256_SHA256_FIXED_SIGNING};
use serde_json::{json, Value};
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

/// The one algorithm proofs are signed with (the one every DPoP server must take).
pub(super) const ALGORITHM: &str = "ES256";

/// Whether the authorization server's metadata (its extra fields) says it binds tokens to
/// ES256 keys.
pub(super) fn offered(additional: &std::collections::HashMap<String, Value>) -> bool {
    additional
        .get("dpop_signing_alg_values_supported")
        .and_then(Value::as_array)
        .is_some_and(|algorithms| algorithms.iter().any(|a| a == ALGORITHM))
}

/// The key, and the nonces the two servers last gave.
pub(crate) struct DpopKey {
    pair: EcdsaKeyPair,
    random: SystemRandom,
    /// The proof header, the public key in it: the same for every proof.
    header: String,
    /// The authorization server's nonce (§8).
    pub(super) server_nonce: Nonce,
    /// The MCP server's nonce (§9).
    pub(super) resource_nonce: Nonce,
}

impl std::fmt::Debug for DpopKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DpopKey { .. }")
    }
}

impl DpopKey {
    /// A new P-256 key.
    pub(super) fn new() -> Result<DpopKey, BoxError> {
        let random = SystemRandom::new();
        let pkcs8 = EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &random)
            .map_err(|_| "no DPoP key could be made: the system's random source failed")?;
        let pair =
            EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, pkcs8.as_ref(), &random)
                .map_err(|e| format!("the DPoP key made can't be read back: {e}"))?;
        // An uncompressed point: 0x04, then x and y, 32 bytes each.
        let point = pair.public_key().as_ref();
        let (x, y) = point
            .get(1..33)
            .zip(point.get(33..65))
            .ok_or("the DPoP key's public point is not an uncompressed P-256 point")?;
        let header = json!({
            "typ": "dpop+jwt",
            "alg": ALGORITHM,
            "jwk": {"kty": "EC", "crv": "P-256", "x": URL_SAFE_NO_PAD.encode(x), "y": URL_SAFE_NO_PAD.encode(y)},
        });
        Ok(DpopKey {
            pair,
            random,
            header: URL_SAFE_NO_PAD.encode(header.to_string()),
            server_nonce: Nonce::default(),
            resource_nonce: Nonce::default(),
        })
    }

    /// A proof for a `method` request to `url` (its query and fragment left out, as §4.2
    /// says), bound to `token` when one is sent with it, with `nonce` when a server gave one.
    pub(super) fn proof(
        &self,
        method: &str,
        url: &str,
        token: Option<&str>,
        nonce: Option<&str>,
    ) -> Result<String, BoxError> {
        let mut id = [0u8; 16];
        self.random
            .fill(&mut id)
            .map_err(|_| "no DPoP proof id could be made: the system's random source failed")?;
        let target = url.split(['?', '#']).next().unwrap_or(url);
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |since| since.as_secs());
        let mut claims = json!({
            "jti": URL_SAFE_NO_PAD.encode(id),
            "htm": method,
            "htu": target,
            "iat": now,
        });
        if let Some(token) = token {
            claims["ath"] = URL_SAFE_NO_PAD
                .encode(digest(&SHA256, token.as_bytes()))
                .into();
        }
        if let Some(nonce) = nonce {
            claims["nonce"] = nonce.into();
        }
        let signed = format!(
            "{}.{}",
            self.header,
            URL_SAFE_NO_PAD.encode(claims.to_string())
        );
        let signature = self
            .pair
            .sign(&self.random, signed.as_bytes())
            .map_err(|_| "a DPoP proof could not be signed")?;
        Ok(format!(
            "{signed}.{}",
            URL_SAFE_NO_PAD.encode(signature.as_ref())
        ))
    }
}

/// The nonce one server last gave (`DPoP-Nonce`), sent back in every proof to it after.
#[derive(Default)]
pub(super) struct Nonce(Mutex<Option<String>>);

impl Nonce {
    /// The nonce to send, if any.
    pub(super) fn get(&self) -> Option<String> {
        self.0.lock().ok().and_then(|nonce| nonce.clone())
    }

    /// Keeps `header`'s nonce (a `DPoP-Nonce` value), when it is one; says whether it changed.
    pub(super) fn keep(&self, header: Option<&reqwest::header::HeaderValue>) -> bool {
        let Some(given) = header.and_then(|h| h.to_str().ok()).filter(|n| is_nonce(n)) else {
            return false;
        };
        let Ok(mut nonce) = self.0.lock() else {
            return false;
        };
        let changed = nonce.as_deref() != Some(given);
        *nonce = Some(given.to_owned());
        changed
    }
}

/// Whether `value` is a nonce as §8.1 defines it: one or more of `%x21 / %x23-5B / %x5D-7E`,
/// and not so long that it costs more than a header.
fn is_nonce(value: &str) -> bool {
    !value.is_empty()
        && value.len() <= 1024
        && value
            .bytes()
            .all(|b| b == 0x21 || (0x23..=0x5b).contains(&b) || (0x5d..=0x7e).contains(&b))
}

/// The `DPoP-Nonce` header.
pub(super) const NONCE_HEADER: &str = "dpop-nonce";

#[cfg(test)]
mod tests {
    use super::*;

    fn part(jwt: &str, index: usize) -> Value {
        let bytes = URL_SAFE_NO_PAD
            .decode(jwt.split('.').nth(index).unwrap())
            .unwrap();
        serde_json::from_slice(&bytes).unwrap()
    }

    #[test]
    fn a_proof_names_the_request_and_verifies_with_the_key_it_carries() {
        let key = DpopKey::new().unwrap();
        let proof = key
            .proof(
                "POST",
                "https://mcp.example/mcp?x=1#f",
                Some("tok"),
                Some("n1"),
            )
            .unwrap();
        let (header, claims) = (part(&proof, 0), part(&proof, 1));
        assert_eq!(header["typ"], "dpop+jwt");
        assert_eq!(header["alg"], "ES256");
        assert!(
            header["jwk"].get("d").is_none(),
            "no private key in the proof"
        );
        assert_eq!(claims["htm"], "POST");
        assert_eq!(claims["htu"], "https://mcp.example/mcp");
        assert_eq!(claims["nonce"], "n1");
        assert_eq!(
            claims["ath"],
            URL_SAFE_NO_PAD.encode(digest(&SHA256, b"tok"))
        );
        // The signature verifies with the public key in the header.
        let jwk = &header["jwk"];
        let mut point = vec![4u8];
        for c in ["x", "y"] {
            point.extend(URL_SAFE_NO_PAD.decode(jwk[c].as_str().unwrap()).unwrap());
        }
        let (signed, signature) = proof.rsplit_once('.').unwrap();
        let signature = URL_SAFE_NO_PAD.decode(signature).unwrap();
        ring::signature::UnparsedPublicKey::new(&ring::signature::ECDSA_P256_SHA256_FIXED, point)
            .verify(signed.as_bytes(), &signature)
            .unwrap();
        // Each proof is new.
        let again = key
            .proof("POST", "https://mcp.example/mcp", None, None)
            .unwrap();
        assert_ne!(part(&again, 1)["jti"], claims["jti"]);
        assert!(part(&again, 1).get("ath").is_none());
    }

    #[test]
    fn only_a_well_formed_nonce_is_kept() {
        let nonce = Nonce::default();
        assert!(!nonce.keep(Some(&reqwest::header::HeaderValue::from_static(
            "has space"
        ))));
        assert!(!nonce.keep(None));
        assert_eq!(nonce.get(), None);
        assert!(nonce.keep(Some(&reqwest::header::HeaderValue::from_static("abc"))));
        assert!(!nonce.keep(Some(&reqwest::header::HeaderValue::from_static("abc"))));
        assert_eq!(nonce.get().as_deref(), Some("abc"));
    }
}
