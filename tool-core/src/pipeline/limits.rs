//! Stage 1: size and depth limits, checked on the raw text before anything parses it.

use std::fmt;

/// Caps on the argument text a model may send, set on the registry builder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The longest argument text accepted, in bytes (default 1 MiB).
    pub max_bytes: usize,
    /// The deepest nesting of objects and arrays accepted (default 64).
    pub max_depth: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_bytes: 1 << 20,
            max_depth: 64,
        }
    }
}

/// Which limit a call's arguments broke.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LimitExceeded {
    /// The text is longer than [`Limits::max_bytes`].
    TooLarge {
        /// The text's length.
        bytes: usize,
        /// The cap.
        max: usize,
    },
    /// Objects and arrays nest deeper than [`Limits::max_depth`].
    TooDeep {
        /// The cap.
        max: usize,
    },
}

impl fmt::Display for LimitExceeded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LimitExceeded::TooLarge { bytes, max } => {
                write!(
                    f,
                    "the arguments are {bytes} bytes long, over the limit of {max} bytes"
                )
            }
            LimitExceeded::TooDeep { max } => write!(
                f,
                "the arguments nest objects and arrays deeper than {max} levels"
            ),
        }
    }
}

impl Limits {
    /// Checks the raw argument text. The depth scan skips string contents with `memchr`, so
    /// it costs little even on large string arguments.
    #[inline]
    pub(crate) fn check(&self, text: &str) -> Result<(), LimitExceeded> {
        if text.len() > self.max_bytes {
            return Err(LimitExceeded::TooLarge {
                bytes: text.len(),
                max: self.max_bytes,
            });
        }
        if could_nest_deeper_than(text.as_bytes(), self.max_depth)
            && max_depth_exceeds(text.as_bytes(), self.max_depth)
        {
            return Err(LimitExceeded::TooDeep {
                max: self.max_depth,
            });
        }
        Ok(())
    }
}

impl Limits {
    /// The depth limit on a value built from text [`check`](Self::check) never saw whole:
    /// arguments sent double-encoded, a string holding JSON, text parsed leniently.
    pub(crate) fn check_value(&self, value: &serde_json::Value) -> Result<(), LimitExceeded> {
        if value_deeper_than(value, self.max_depth) {
            return Err(LimitExceeded::TooDeep {
                max: self.max_depth,
            });
        }
        Ok(())
    }
}

/// Whether `value` nests deeper than `max`, counted as [`max_depth_exceeds`] counts text
/// (each object or array a level). Without recursion: the value may come from hostile text.
fn value_deeper_than(value: &serde_json::Value, max: usize) -> bool {
    use serde_json::Value;
    let mut stack = vec![(value, 0usize)];
    while let Some((value, depth)) = stack.pop() {
        let level = depth + 1;
        match value {
            Value::Object(_) | Value::Array(_) if level > max => return true,
            Value::Object(map) => stack.extend(map.values().map(|child| (child, level))),
            Value::Array(items) => stack.extend(items.iter().map(|child| (child, level))),
            _ => {}
        }
    }
    false
}

/// An upper bound on the `{`/`[` nesting of text in any quoting style (single quotes,
/// comments), which the lenient parser must not be given past the limit: it recurses once
/// per level, and a stack overflow aborts the process. Every opening bracket counts, inside
/// quotes too; a closing one only outside them, so the bound never falls short.
pub(crate) fn brackets_exceed(text: &str, max: usize) -> bool {
    let (mut depth, mut quote, mut escaped) = (0usize, None, false);
    for byte in text.bytes() {
        match (byte, quote) {
            (b'{' | b'[', _) => {
                depth += 1;
                if depth > max {
                    return true;
                }
            }
            (b'}' | b']', None) => depth = depth.saturating_sub(1),
            (b'"' | b'\'', None) => quote = Some(byte),
            (b'\\', Some(_)) => {
                escaped = !escaped;
                continue;
            }
            (q, Some(open)) if q == open && !escaped => quote = None,
            _ => {}
        }
        escaped = false;
    }
    false
}

/// Nesting deeper than `max` takes more than `max` opening brackets. This count is one
/// vectorized pass, far cheaper than the scan below, which only runs when it can matter.
/// Inlined, so that text too short to hold that many brackets (most calls) costs one
/// comparison and no call.
#[inline]
fn could_nest_deeper_than(bytes: &[u8], max: usize) -> bool {
    bytes.len() > max && more_brackets_than(bytes, max)
}

/// More than `max` `{`/`[` in `bytes`: the count itself, kept out of line.
#[inline(never)]
fn more_brackets_than(bytes: &[u8], max: usize) -> bool {
    memchr::memchr2_iter(b'{', b'[', bytes).nth(max).is_some()
}

/// Whether `{`/`[` nesting outside strings goes deeper than `max`. Malformed text is not this
/// stage's business: the parser reports it.
fn max_depth_exceeds(bytes: &[u8], max: usize) -> bool {
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'{' | b'[' => {
                depth += 1;
                if depth > max {
                    return true;
                }
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            b'"' => {
                // Jump to the closing quote, stepping over escapes.
                i += 1;
                loop {
                    match memchr::memchr2(b'"', b'\\', &bytes[i.min(bytes.len())..]) {
                        Some(offset) if bytes[i + offset] == b'\\' => i += offset + 2,
                        Some(offset) => {
                            i += offset;
                            break;
                        }
                        None => return false,
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_and_depth() {
        let limits = Limits {
            max_bytes: 100,
            max_depth: 3,
        };
        assert!(limits.check(r#"{"a": [[1]]}"#).is_ok());
        assert_eq!(
            limits.check(r#"{"a": [[[1]]]}"#),
            Err(LimitExceeded::TooDeep { max: 3 })
        );
        assert_eq!(
            limits.check(&"x".repeat(101)),
            Err(LimitExceeded::TooLarge {
                bytes: 101,
                max: 100
            })
        );
    }

    #[test]
    fn brackets_in_strings_do_not_count() {
        let limits = Limits {
            max_bytes: 1000,
            max_depth: 2,
        };
        assert!(limits.check(r#"{"a": "[[[[{{{{\"[[["}"#).is_ok());
        assert!(limits.check(r#"{"a": "\\", "b": [1]}"#).is_ok());
        assert!(limits.check(r#"{"a": "unterminated [[[["#).is_ok());
        assert!(limits.check("\"\\").is_ok());
    }

    #[test]
    fn many_brackets_side_by_side_are_not_deep() {
        let wide = format!("[{}]", vec!["[1]"; 100].join(","));
        assert!(could_nest_deeper_than(wide.as_bytes(), 64));
        assert!(Limits::default().check(&wide).is_ok());
    }

    #[test]
    fn very_deep_input_is_caught_without_recursion() {
        let deep = "[".repeat(100_000);
        assert!(Limits::default().check(&deep).is_err());
    }
}
