//! What the parsers' unit tests share: a parse reduced to what they compare.

use super::{parse, TextFormat, ToolSchemas};
use serde_json::Value;

/// The calls of `text` (name and parsed arguments), its prose, and how many errors it has;
/// every error's `raw` is checked to be the text its span covers.
pub(super) fn found<S: ToolSchemas>(
    text: &str,
    format: TextFormat,
    tools: &S,
) -> (Vec<(String, Value)>, String, usize) {
    let parsed = parse(text, format, tools);
    for error in &parsed.errors {
        assert_eq!(&text[error.span.clone()], error.raw);
    }
    (
        parsed
            .calls
            .iter()
            .map(|c| (c.name.clone(), serde_json::from_str(&c.arguments).unwrap()))
            .collect(),
        parsed.text,
        parsed.errors.len(),
    )
}

/// The calls of `text`, which must have no error.
pub(super) fn found_ok<S: ToolSchemas>(
    text: &str,
    format: TextFormat,
    tools: &S,
) -> Vec<(String, Value)> {
    let (calls, _, errors) = found(text, format, tools);
    assert_eq!(errors, 0, "{:?}", parse(text, format, tools));
    calls
}

/// Expected calls, written as `(name, arguments)` pairs.
pub(super) fn pairs(expected: &[(&str, Value)]) -> Vec<(String, Value)> {
    expected
        .iter()
        .map(|(n, a)| ((*n).to_owned(), a.clone()))
        .collect()
}

/// The calls of `text` written `NAMEARGUMENTS` (arguments as the parser gave them), its prose,
/// and how many errors it has.
pub(super) fn names(text: &str, format: TextFormat) -> (Vec<String>, String, usize) {
    let parsed = parse(text, format, &());
    (
        parsed
            .calls
            .iter()
            .map(|c| format!("{}{}", c.name, c.arguments))
            .collect(),
        parsed.text,
        parsed.errors.len(),
    )
}
