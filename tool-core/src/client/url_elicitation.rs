//! URL-mode elicitation (MCP 2025-11-25): the client sends its user to a page of the
//! server's (a sign-in, a payment, a key to paste) instead of showing a form, so that what
//! the user types there never passes through the client or its model.

use super::question::Question;
use super::{ClientCapabilities, Elicitation};
use serde::{Deserialize, Serialize};
use serde_json::Value;
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

impl Question for UrlElicitationRequest {
    const METHOD: &'static str = "elicitation/create";
    const CAPABILITY: &'static str = "elicitation.url";
    type Answer = Elicitation<ElicitationId>;

    fn missing(&self, declared: ClientCapabilities) -> Option<&'static str> {
        (!declared.elicitation_url).then_some("elicitation.url")
    }

    fn params(&self) -> Result<Value, serde_json::Error> {
        serde_json::to_value(self)
    }

    fn answer(self, result: Value) -> Result<Elicitation<ElicitationId>, serde_json::Error> {
        // URL mode has no content: an accept is the user's consent to open the page.
        Ok(
            match serde_json::from_value::<Elicitation<Value>>(result)? {
                Elicitation::Accept(_) => Elicitation::Accept(self.elicitation_id),
                Elicitation::Decline => Elicitation::Decline,
                Elicitation::Cancel => Elicitation::Cancel,
            },
        )
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

/// The URL to send the user to, as the WHATWG parser (the `url` crate, which browsers'
/// parsing it follows) writes `url` back, or why it can't be sent. A link a client shows
/// must open the page it reads as, so only these pass:
///
/// - `https`, or `http` to a loopback host (`localhost`, `127.0.0.0/8`, `[::1]`: a local
///   sign-in callback); never `javascript:`, `data:`, `file:` or any other scheme, which run
///   or read something instead of opening a page;
/// - no user-info part: `https://accounts.example@evil.example/` opens `evil.example`;
/// - no space, control character or invisible format character (every Unicode `Cf`:
///   text-direction marks, U+200B zero-width space, U+2060 word joiner, U+00AD soft
///   hyphen...), anywhere in the text: each can make a URL read as another site's, and the
///   parser would drop or encode some of them silently.
///
/// What is sent is the parsed URL written back (host lower-cased, an international one in
/// punycode), so the client shows what was checked.
pub(crate) fn check_url(url: &str) -> Result<String, &'static str> {
    if url.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err("it holds spaces or control characters");
    }
    if url.chars().any(is_format) {
        return Err(
            "it holds an invisible format character (Unicode `Cf`: a text-direction \
                    mark, a zero-width space, a soft hyphen...)",
        );
    }
    let parsed = url::Url::parse(url).map_err(|_| "it is not an absolute URL (`https://...`)")?;
    match parsed.scheme() {
        "https" => {}
        "http" if is_loopback(&parsed) => {}
        "http" => return Err("`http` is for a loopback host only: use `https`"),
        _ => return Err("its scheme is not `https` (nor `http` to a loopback host)"),
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(
            "it has a user-info part (`name@` before the host), which reads as one \
                    site and opens another",
        );
    }
    Ok(parsed.into())
}

/// Whether `c` is an invisible format character (Unicode general category `Cf`).
fn is_format(c: char) -> bool {
    use unicode_general_category::{get_general_category, GeneralCategory};
    get_general_category(c) == GeneralCategory::Format
}

/// Whether the URL's host is this machine: `localhost` or a loopback address.
fn is_loopback(url: &url::Url) -> bool {
    match url.host() {
        Some(url::Host::Domain(name)) => name == "localhost",
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
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
    fn only_https_urls_and_loopback_http_pass() {
        let sent = |url: &str| check_url(url).unwrap();
        assert_eq!(
            sent("https://example.com/connect?state=abc"),
            "https://example.com/connect?state=abc"
        );
        assert_eq!(sent("https://Example.COM"), "https://example.com/");
        assert_eq!(
            sent("https://example.com/@user"),
            "https://example.com/@user"
        );
        assert_eq!(sent("http://localhost:8080/cb"), "http://localhost:8080/cb");
        assert_eq!(sent("http://127.0.0.1/cb"), "http://127.0.0.1/cb");
        assert_eq!(sent("http://[::1]:3000/"), "http://[::1]:3000/");
        assert_eq!(
            sent("https://bücher.example/"),
            "https://xn--bcher-kva.example/"
        );
        for refused in [
            "",
            "example.com/connect",
            "/relative",
            "1http://x",
            "https:",
            "https://",
            "urn:example:thing",
            "http://example.com/",
            "http://localhost.evil.example/",
            "javascript:alert(document.cookie)",
            "JavaScript:alert(1)",
            "data:text/html,<script>alert(1)</script>",
            "file:///etc/passwd",
            "ftp://example.com/",
            "https://accounts.example@evil.example/",
            "https://user:pass@example.com/",
            "https://:pass@example.com/",
            "https://exa mple.com",
            "https://example.com/\n",
            " https://example.com/",
            "https://example.com/\u{202e}moc.live",
            "https://example.com\u{200b}.evil.example/",
            "https://exa\u{2060}mple.com/",
            "https://pay\u{ad}pal.com/",
            "https://example.com/\u{feff}",
            "https://example.com/\u{e0001}",
        ] {
            assert!(check_url(refused).is_err(), "{refused:?} passed");
        }
    }
}
