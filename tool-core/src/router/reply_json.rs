//! A provider's reply as JSON text, read the way a reply can really arrive: after a UTF-8 byte
//! order mark, with a number no `f64` holds in a field nobody reads (`"total_tokens": 1e999`),
//! nested deeper than a parser should follow.

use super::error::RouteError;
use serde_json::Value;

/// How deep a reply may nest: serde_json's own limit. A tool input sits three or four levels
/// down in every provider's reply, so inputs nested up to about 124 levels route, well past
/// what any real tool takes (the pipeline's own default is 64).
pub const MAX_REPLY_DEPTH: usize = 128;

/// The reply in `text` as a value: a leading byte order mark skipped, and a number too large
/// for an `f64` read as the string of its digits rather than losing the whole reply (where it
/// sits in a call's input, validation then says what is wrong with it).
///
/// # Errors
///
/// [`RouteError::NotJson`] for text that isn't JSON, [`RouteError::TooDeep`] for JSON nested
/// deeper than [`MAX_REPLY_DEPTH`].
pub(crate) fn parse_reply(text: &str) -> Result<Value, RouteError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    match serde_json::from_str(text) {
        Ok(value) => Ok(value),
        Err(error) if error.to_string().starts_with("number out of range") => {
            let quoted = quote_huge_numbers(text);
            serde_json::from_str(&quoted).map_err(not_json)
        }
        Err(error) => Err(not_json(error)),
    }
}

fn not_json(error: serde_json::Error) -> RouteError {
    if error.to_string().starts_with("recursion limit exceeded") {
        RouteError::TooDeep {
            max: MAX_REPLY_DEPTH,
        }
    } else {
        RouteError::NotJson(error.into())
    }
}

/// `text` with every number token outside strings that no `f64` holds written as a string of
/// its own text. One pass.
fn quote_huge_numbers(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len() + 16);
    let mut copied = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                // Skip the string, escapes included.
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                while i < bytes.len()
                    && matches!(bytes[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                {
                    i += 1;
                }
                let token = &text[start..i.min(text.len())];
                if token.parse::<f64>().is_ok_and(f64::is_infinite) {
                    out.push_str(&text[copied..start]);
                    out.push('"');
                    out.push_str(token);
                    out.push('"');
                    copied = i;
                }
            }
            _ => i += 1,
        }
    }
    out.push_str(&text[copied.min(text.len())..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_read_as_they_arrive() {
        assert_eq!(parse_reply("\u{feff}{\"a\": 1}").unwrap()["a"], 1);
        let value = parse_reply(r#"{"usage": {"total_tokens": 1e999}, "s": "1e999", "n": -2e400}"#)
            .unwrap();
        assert_eq!(value["usage"]["total_tokens"], "1e999");
        assert_eq!(value["s"], "1e999");
        assert_eq!(value["n"], "-2e400");
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert_eq!(
            parse_reply(&deep),
            Err(RouteError::TooDeep {
                max: MAX_REPLY_DEPTH
            })
        );
        assert!(matches!(parse_reply("hello"), Err(RouteError::NotJson(_))));
    }
}
