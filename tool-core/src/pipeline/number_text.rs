//! Whether a number is an integer, decided by its JSON text, not by the float it rounds to.
//!
//! `2.9999999999999999` parses to the `f64` 3.0, which JSON Schema's `integer` (and the
//! whole-number repair) would take as the integer 3: a value the model never wrote. Such a
//! number is found here, by its place in the arguments and its literal, so that the repair
//! stage leaves it alone where an integer is wanted and validation refuses it.

use crate::pointer::{display_path, push_segment};
use crate::violation::Violation;
use serde_json::Value;

/// A number whose text is not an integer but whose `f64` is whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct InexactNumber {
    /// Where, as a JSON pointer into the arguments.
    pub pointer: String,
    /// The number as the model wrote it.
    pub literal: String,
    /// Set by the repair stage where only an integer is wanted there: validation refuses it.
    pub refused: bool,
}

impl InexactNumber {
    /// The violation of a refused one, worded as validation words a wrong type.
    pub(crate) fn violation(&self) -> Violation {
        let mut literal: String = self.literal.chars().take(60).collect();
        if literal.len() < self.literal.len() {
            literal.push('…');
        }
        Violation {
            pointer: self.pointer.clone(),
            keyword: "type".to_owned(),
            message: format!(
                "{}: expected integer, got {literal} (not a whole number as written)",
                display_path(&self.pointer)
            ),
            allowed: Vec::new(),
        }
    }
}

/// Whether the JSON number `literal` (`-12`, `3.0`, `30e-1`, `2.9999999999999999`) is an
/// integer: no non-zero digit is left after the decimal point once the exponent is applied.
pub(crate) fn is_integral_literal(literal: &str) -> bool {
    let unsigned = literal.strip_prefix(['-', '+']).unwrap_or(literal);
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(at) => (&unsigned[..at], &unsigned[at + 1..]),
        None => (unsigned, "0"),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    // A huge exponent only needs its sign and size relative to the digits: saturate.
    let exponent: i64 = exponent.parse().unwrap_or_else(|_| {
        if exponent.starts_with('-') {
            i64::MIN / 2
        } else {
            i64::MAX / 2
        }
    });
    let digits = whole.bytes().chain(fraction.bytes());
    let point = whole.len() as i64 + exponent;
    digits
        .enumerate()
        .all(|(i, d)| (i as i64) < point || d == b'0')
}

/// Every number in `value` (parsed from the JSON `text`) whose `f64` is whole but whose text
/// is not an integer, appended to `out` with `prefix` before its pointer. Free for the common
/// call: the text is only scanned when a whole-valued float is there at all.
pub(crate) fn find_inexact(text: &str, value: &Value, prefix: &str, out: &mut Vec<InexactNumber>) {
    if !has_whole_float(value, 0) {
        return;
    }
    let mut literals = literals(text);
    let mut pointer = prefix.to_owned();
    walk(value, &mut literals, &mut pointer, out, 0);
}

/// Deeper than this nothing is looked at: the limits stage caps arguments far earlier.
const MAX_DEPTH: usize = 512;

fn has_whole_float(value: &Value, depth: usize) -> bool {
    match value {
        Value::Number(n) => n.as_f64().is_some_and(|f| n.is_f64() && f.fract() == 0.0),
        Value::Array(items) if depth < MAX_DEPTH => {
            items.iter().any(|v| has_whole_float(v, depth + 1))
        }
        Value::Object(map) if depth < MAX_DEPTH => {
            map.values().any(|v| has_whole_float(v, depth + 1))
        }
        _ => false,
    }
}

/// Pairs each number of `value`, in document order (maps keep it: `preserve_order`, and a
/// key written twice is refused), with its literal.
fn walk<'t>(
    value: &Value,
    literals: &mut impl Iterator<Item = &'t str>,
    pointer: &mut String,
    out: &mut Vec<InexactNumber>,
    depth: usize,
) {
    if depth > MAX_DEPTH {
        return;
    }
    match value {
        Value::Number(n) => {
            let Some(literal) = literals.next() else {
                return;
            };
            if n.is_f64()
                && n.as_f64().is_some_and(|f| f.fract() == 0.0)
                && !is_integral_literal(literal)
            {
                out.push(InexactNumber {
                    pointer: pointer.clone(),
                    literal: literal.to_owned(),
                    refused: false,
                });
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let len = pointer.len();
                push_segment(pointer, &i.to_string());
                walk(item, literals, pointer, out, depth + 1);
                pointer.truncate(len);
            }
        }
        Value::Object(map) => {
            for (key, item) in map {
                let len = pointer.len();
                push_segment(pointer, key);
                walk(item, literals, pointer, out, depth + 1);
                pointer.truncate(len);
            }
        }
        _ => {}
    }
}

/// The number literals of valid JSON `text`, in order.
fn literals(text: &str) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || {
        while at < bytes.len() {
            match bytes[at] {
                b'"' => {
                    at += 1;
                    while at < bytes.len() {
                        match bytes[at] {
                            b'\\' => at += 2,
                            b'"' => {
                                at += 1;
                                break;
                            }
                            _ => at += 1,
                        }
                    }
                }
                b'-' | b'0'..=b'9' => {
                    let start = at;
                    while at < bytes.len()
                        && matches!(bytes[at], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                    {
                        at += 1;
                    }
                    return Some(&text[start..at]);
                }
                _ => at += 1,
            }
        }
        None
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn integers_are_told_by_their_text() {
        for integral in [
            "3", "-3", "3.0", "3.000", "30e-1", "2.5e1", "0.1e1", "1e2", "0", "-0.0",
        ] {
            assert!(is_integral_literal(integral), "{integral}");
        }
        for not in [
            "2.9999999999999999",
            "3.5",
            "1e-400",
            "0.1",
            "25e-1",
            "-1.0000000000000001",
            "1e-99999999999999999999",
        ] {
            assert!(!is_integral_literal(not), "{not}");
        }
        assert!(is_integral_literal("1e99999999999999999999"));
    }

    #[test]
    fn inexact_numbers_are_found_by_place() {
        let text = r#"{"s": "2.5 \" 7.5", "a": [1, 3.0, 2.9999999999999999], "b": {"c": 1e-400, "d": 0.5}}"#;
        let value: Value = serde_json::from_str(text).unwrap();
        let mut out = Vec::new();
        find_inexact(text, &value, "", &mut out);
        let found: Vec<(&str, &str)> = out
            .iter()
            .map(|n| (n.pointer.as_str(), n.literal.as_str()))
            .collect();
        assert_eq!(found, [("/a/2", "2.9999999999999999"), ("/b/c", "1e-400")]);
        let mut none = Vec::new();
        find_inexact("{\"a\": 3.5}", &json!({"a": 3.5}), "", &mut none);
        assert!(none.is_empty());
    }
}
