//! URL-mode elicitation (MCP 2025-11-25): the client sends its user to a page of the
//! server's (a sign-in, a payment, a key to paste) instead of showing a form, so that what
//! the user types there never passes through the client or its model.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// What a tool asks the user in URL mode: to open `url`, for the reason in `message`. It
/// serializes to the request's `params` (`mode: "url"`).
///
/// ```
/// use tool_runtime::client::UrlElicitationRequest;
///
/// let request = UrlElicitationRequest::new("https://example.com/connect", "Connect your account.");
/// let wire = serde_json::to_value(&request).unwrap();
/// assert_eq!(wire["mode"], "url");
/// assert_eq!(wire["url"], "https://example.com/connect");
/// assert_eq!(wire["elicitationId"], request.elicitation_id.as_str());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "mode", rename = "url", rename_all = "camelCase")]
pub struct UrlElicitationRequest {
    /// Why the user should open the URL, for the user.
    pub message: String,
    /// The page to open.
    pub url: String,
    /// The request's id, unique in this process: what
    /// [`complete_elicitation`](crate::ToolContext::complete_elicitation) names.
    pub elicitation_id: ElicitationId,
}

impl UrlElicitationRequest {
    /// A request for the user to open `url`, under a new id.
    pub fn new(url: impl Into<String>, message: impl Into<String>) -> UrlElicitationRequest {
        UrlElicitationRequest {
            message: message.into(),
            url: url.into(),
            elicitation_id: ElicitationId::new(),
        }
    }
}

/// The id of a URL-mode elicitation: given to the tool when the user accepts
/// ([`Elicitation::Accept`](super::Elicitation::Accept)), and named again when the tool tells
/// the client the interaction is done
/// ([`complete_elicitation`](crate::ToolContext::complete_elicitation)). The client treats it
/// as opaque; it is unique in this process (and, with a per-process random prefix, across
/// processes) but not secret: the page the URL opens must check who its user is by its own
/// means.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ElicitationId(String);

impl ElicitationId {
    /// A new id: this process's prefix and a counter.
    fn new() -> ElicitationId {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        ElicitationId(format!("elicitation-{:016x}-{n}", process_prefix()))
    }

    /// The id as the client sees it.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ElicitationId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A number drawn once per process: std's hasher keys come from the OS's randomness, so two
/// processes behind one client don't hand out the same ids.
fn process_prefix() -> u64 {
    static PREFIX: OnceLock<u64> = OnceLock::new();
    *PREFIX.get_or_init(|| {
        use std::hash::{BuildHasher, Hasher};
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u32(std::process::id());
        hasher.finish()
    })
}

/// Why `url` can't be sent: it must be an absolute URL (`scheme:rest`, RFC 3986), without
/// spaces, control characters or direction marks, which a client could show one way and
/// open another.
pub(super) fn check_url(url: &str) -> Result<(), &'static str> {
    let Some((scheme, rest)) = url.split_once(':') else {
        return Err("it has no scheme (`https://...`)");
    };
    let mut letters = scheme.chars();
    let scheme_ok = letters.next().is_some_and(|c| c.is_ascii_alphabetic())
        && letters.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    if !scheme_ok {
        return Err("its scheme is not one (letters, digits, `+`, `-`, `.`, a letter first)");
    }
    if rest.is_empty() {
        return Err("nothing follows its scheme");
    }
    if url
        .chars()
        .any(|c| c.is_whitespace() || c.is_control() || is_bidi_control(c))
    {
        return Err("it holds spaces, control characters or text-direction marks");
    }
    Ok(())
}

/// The marks that change the direction text is shown in (Unicode's bidi controls): a URL
/// holding one can read as another site's.
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_request_writes_and_reads_as_the_spec_says() {
        let request = UrlElicitationRequest::new("https://example.com/pay", "Pay, please.");
        let wire = serde_json::to_value(&request).unwrap();
        assert_eq!(
            wire,
            json!({"mode": "url", "message": "Pay, please.", "url": "https://example.com/pay",
                   "elicitationId": request.elicitation_id.as_str()})
        );
        let read: UrlElicitationRequest = serde_json::from_value(wire).unwrap();
        assert_eq!(read, request);
    }

    #[test]
    fn ids_are_unique_and_share_the_process_prefix() {
        let a = ElicitationId::new();
        let b = ElicitationId::new();
        assert_ne!(a, b);
        let prefix = |id: &ElicitationId| id.as_str().rsplit_once('-').map(|(p, _)| p.to_owned());
        assert_eq!(prefix(&a), prefix(&b));
        assert!(a.as_str().starts_with("elicitation-"));
        assert_eq!(a.to_string(), a.as_str());
    }

    #[test]
    fn only_absolute_urls_pass() {
        assert!(check_url("https://example.com/connect?state=abc").is_ok());
        assert!(check_url("urn:example:thing").is_ok());
        assert!(check_url("example.com/connect").is_err());
        assert!(check_url("/relative").is_err());
        assert!(check_url("1http://x").is_err());
        assert!(check_url("https:").is_err());
        assert!(check_url("https://exa mple.com").is_err());
        assert!(check_url("https://example.com/\u{202e}moc.live").is_err());
        assert!(check_url("https://example.com/\n").is_err());
        assert!(check_url("").is_err());
    }
}
