//! A served call refused until the user has been to URLs of the tool's
//! ([`UrlRequired`](crate::client::UrlRequired)), as each protocol says it:
//!
//! - 2025-11-25 (the handshake protocols): the JSON-RPC error `-32042`
//!   (`URLElicitationRequiredError`) whose `data.elicitations` lists the URL-mode
//!   elicitations (`mode`, `elicitationId`, `url`, `message`); the client shows them and
//!   retries after `notifications/elicitation/complete`.
//! - 2026-07-28 retired `-32042` (its schema has no such error, and the code is reserved,
//!   never reused) with server-to-client requests: there the interactions are URL-mode
//!   `elicitation/create` input requests of an input-required round (`input_required.rs`),
//!   whose retry runs the tool again.
//!
//! A client that did not declare `elicitation.url` gets neither, as the spec forbids sending
//! it a URL-mode elicitation: it gets the error's text, which names every URL.

use crate::client::UrlElicitationRequest;
use crate::error::{ErrorCode, ToolError};
use rmcp::model::ErrorData;
use std::sync::Mutex;

/// `URLElicitationRequiredError`'s code (2025-11-25).
pub(crate) const URL_ELICITATION_REQUIRED: i32 = -32042;

/// The URL interactions a call's tool ended needing, kept by the call's client for its
/// answer.
#[derive(Debug, Default)]
pub(crate) struct RequiredUrls(Mutex<Vec<UrlElicitationRequest>>);

impl RequiredUrls {
    /// Keeps `elicitations`, in place of any kept before (the error the tool ended with is
    /// the one made last).
    pub(crate) fn keep(&self, elicitations: &[UrlElicitationRequest]) {
        *self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = elicitations.to_vec();
    }

    /// The `-32042` error of a call that ended with `error`, when it is a
    /// [`UrlRequired`](crate::client::UrlRequired) the client was told of.
    pub(crate) fn error_for(&self, error: &ToolError) -> Option<ErrorData> {
        if error.code != ErrorCode::UrlRequired {
            return None;
        }
        let kept = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        (!kept.is_empty()).then(|| url_elicitation_required(&error.message, &kept))
    }
}

/// `-32042` with `data.elicitations`, each in the request's URL-mode shape.
pub(crate) fn url_elicitation_required(
    message: &str,
    elicitations: &[UrlElicitationRequest],
) -> ErrorData {
    let data = serde_json::json!({ "elicitations": elicitations });
    ErrorData::new(
        rmcp::model::ErrorCode(URL_ELICITATION_REQUIRED),
        message.to_owned(),
        Some(data),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn one() -> UrlElicitationRequest {
        UrlElicitationRequest::new("https://example.com/pay", "Pay, please.")
    }

    #[test]
    fn the_error_lists_the_elicitations_in_url_mode() {
        let request = one();
        let error = url_elicitation_required("Pay first", std::slice::from_ref(&request));
        let wire = serde_json::to_value(&error).unwrap();
        assert_eq!(
            wire,
            json!({"code": -32042, "message": "Pay first", "data": {"elicitations": [
                {"mode": "url", "url": "https://example.com/pay", "message": "Pay, please.",
                 "elicitationId": request.elicitation_id.as_str()}]}})
        );
    }

    #[test]
    fn only_a_url_required_error_with_kept_elicitations_becomes_one() {
        let urls = RequiredUrls::default();
        let required = ToolError::with_code(ErrorCode::UrlRequired, "open it");
        assert!(urls.error_for(&required).is_none(), "nothing kept");
        urls.keep(&[one()]);
        assert!(urls.error_for(&ToolError::new("other")).is_none());
        let error = urls.error_for(&required).unwrap();
        assert_eq!(error.code.0, -32042);
        assert_eq!(error.message, "open it");
    }
}

#[cfg(test)]
#[path = "url_required_tests.rs"]
mod http_tests;
