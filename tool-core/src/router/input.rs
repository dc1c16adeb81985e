//! [`RouteInput`]: what the router reads, a reply already parsed or the text it came as.

use super::error::RouteError;
use super::reply_json::parse_reply;
use serde_json::Value;
use std::borrow::Cow;

/// A reply the router can read: a parsed `&Value`, or its JSON text (`&str`, `&String`),
/// read the way a reply can really arrive: after a UTF-8 byte order mark, with a number no
/// `f64` holds kept as the string of its digits (where it sits in a call's input, validation
/// then says what is wrong with it), and nested at most
/// [`MAX_REPLY_DEPTH`](super::MAX_REPLY_DEPTH) deep.
pub trait RouteInput<'a> {
    /// The reply as a value: borrowed when it already is one.
    ///
    /// # Errors
    ///
    /// [`RouteError::NotJson`] for text that isn't JSON, [`RouteError::TooDeep`] for JSON
    /// nested deeper than [`MAX_REPLY_DEPTH`](super::MAX_REPLY_DEPTH).
    fn reply(self) -> Result<Cow<'a, Value>, RouteError>;
}

impl<'a> RouteInput<'a> for &'a Value {
    fn reply(self) -> Result<Cow<'a, Value>, RouteError> {
        Ok(Cow::Borrowed(self))
    }
}

impl<'a> RouteInput<'a> for &'a str {
    fn reply(self) -> Result<Cow<'a, Value>, RouteError> {
        parse_reply(self).map(Cow::Owned)
    }
}

impl<'a> RouteInput<'a> for &'a String {
    fn reply(self) -> Result<Cow<'a, Value>, RouteError> {
        self.as_str().reply()
    }
}
