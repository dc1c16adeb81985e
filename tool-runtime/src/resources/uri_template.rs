//! RFC 6570 level-1 URI templates (`file:///{path}`, `users://{id}/profile`): matching a
//! URI against one, and reading its variables back out.

use std::collections::HashMap;

/// A URI template of literal text and `{name}` variables (RFC 6570 level 1).
///
/// A variable matches one or more characters up to the next `/`, `?` or `#` (a level-1
/// expansion percent-encodes those), and its value is percent-decoded.
///
/// ```
/// use tool_runtime::resources::UriTemplate;
///
/// let template = UriTemplate::parse("users://{id}/posts/{post}").unwrap();
/// let vars = template.matches("users://42/posts/hello%20world").unwrap();
/// assert_eq!(vars["id"], "42");
/// assert_eq!(vars["post"], "hello world");
/// assert!(template.matches("users://42/comments/1").is_none());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UriTemplate {
    text: String,
    parts: Vec<Part>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Part {
    Literal(String),
    Variable(String),
}

/// Why a text is not a level-1 URI template.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TemplateError {
    /// A `{` without its `}`, or a `}` without its `{`.
    #[error("unbalanced braces at byte {at}")]
    Unbalanced {
        /// Where, in bytes from the start.
        at: usize,
    },
    /// A variable name that is empty, uses an operator (`{+x}`, `{?x}`: levels 2 to 4) or a
    /// character RFC 6570 doesn't allow in names.
    #[error(
        "`{{{name}}}` is not a level-1 variable: write `{{name}}` with letters, digits and `_`"
    )]
    BadVariable {
        /// What was between the braces.
        name: String,
    },
    /// Two variables side by side (`{a}{b}`): no URI says where one ends.
    #[error("`{{{first}}}` and `{{{second}}}` touch: put literal text between them")]
    Adjacent {
        /// The first variable.
        first: String,
        /// The one right after it.
        second: String,
    },
}

impl UriTemplate {
    /// Reads a template.
    ///
    /// # Errors
    ///
    /// A [`TemplateError`] for unbalanced braces, a variable that isn't level 1, or two
    /// variables with nothing between them.
    pub fn parse(text: &str) -> Result<UriTemplate, TemplateError> {
        let mut parts = Vec::new();
        let mut rest = text;
        let mut offset = 0;
        loop {
            let (open, close) = (rest.find('{'), rest.find('}'));
            let (open, close) = match (open, close) {
                (None, None) => {
                    if !rest.is_empty() {
                        parts.push(Part::Literal(rest.to_owned()));
                    }
                    break;
                }
                (Some(open), Some(close)) if open < close => (open, close),
                (_, Some(close)) => return Err(TemplateError::Unbalanced { at: offset + close }),
                (Some(open), None) => return Err(TemplateError::Unbalanced { at: offset + open }),
            };
            if open > 0 {
                parts.push(Part::Literal(rest[..open].to_owned()));
            }
            let name = &rest[open + 1..close];
            let valid = !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
            if !valid {
                return Err(TemplateError::BadVariable {
                    name: name.to_owned(),
                });
            }
            if let Some(Part::Variable(first)) = parts.last() {
                return Err(TemplateError::Adjacent {
                    first: first.clone(),
                    second: name.to_owned(),
                });
            }
            parts.push(Part::Variable(name.to_owned()));
            offset += close + 1;
            rest = &rest[close + 1..];
        }
        Ok(UriTemplate {
            text: text.to_owned(),
            parts,
        })
    }

    /// The template as written.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The variables' names, in order.
    pub fn variables(&self) -> impl Iterator<Item = &str> {
        self.parts.iter().filter_map(|part| match part {
            Part::Variable(name) => Some(name.as_str()),
            Part::Literal(_) => None,
        })
    }

    /// The variables' values when `uri` is one of the template's URIs, percent-decoded.
    pub fn matches(&self, uri: &str) -> Option<HashMap<String, String>> {
        let mut vars = HashMap::new();
        match_parts(&self.parts, uri, &mut vars).then_some(vars)
    }
}

/// Whether `uri` matches `parts`, filling `vars` on the way. A variable followed by literal
/// text tries each place that text occurs, so `{a}.{b}` reads `x.y.z` as `x` and `y.z`.
fn match_parts(parts: &[Part], uri: &str, vars: &mut HashMap<String, String>) -> bool {
    match parts {
        [] => uri.is_empty(),
        [Part::Literal(text), rest @ ..] => uri
            .strip_prefix(text.as_str())
            .is_some_and(|tail| match_parts(rest, tail, vars)),
        [Part::Variable(name), rest @ ..] => {
            // A level-1 value never holds these unencoded.
            let end = uri.find(['/', '?', '#']).unwrap_or(uri.len());
            let candidates: Vec<usize> = match rest.first() {
                None => vec![end],
                Some(Part::Literal(next)) => uri
                    .match_indices(next.as_str())
                    .map(|(at, _)| at)
                    .take_while(|&at| at <= end)
                    .collect(),
                // `parse` refuses adjacent variables.
                Some(Part::Variable(_)) => Vec::new(),
            };
            for at in candidates.into_iter().filter(|&at| at > 0) {
                if match_parts(rest, &uri[at..], vars) {
                    vars.insert(name.clone(), percent_decode(&uri[..at]));
                    return true;
                }
            }
            false
        }
    }
}

/// `%XX` sequences as bytes, read as UTF-8; the text as it is when that fails.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (
            bytes[i],
            bytes.get(i + 1).copied().and_then(hex),
            bytes.get(i + 2).copied().and_then(hex),
        ) {
            (b'%', Some(high), Some(low)) => {
                out.push((high * 16 + low) as u8);
                i += 3;
            }
            (byte, _, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(template: &str, uri: &str) -> Option<Vec<(String, String)>> {
        let mut found: Vec<_> = UriTemplate::parse(template)
            .unwrap()
            .matches(uri)?
            .into_iter()
            .collect();
        found.sort();
        Some(found)
    }

    fn pair(a: &str, b: &str) -> (String, String) {
        (a.to_owned(), b.to_owned())
    }

    #[test]
    fn variables_match_up_to_the_next_literal_or_slash() {
        assert_eq!(
            vars("test://template/{id}/data", "test://template/123/data"),
            Some(vec![pair("id", "123")])
        );
        assert_eq!(
            vars("file:///{path}", "file:///a%2Fb.txt"),
            Some(vec![pair("path", "a/b.txt")])
        );
        assert_eq!(
            vars("x://{a}.{b}", "x://one.two.three"),
            Some(vec![pair("a", "one"), pair("b", "two.three")])
        );
        assert_eq!(vars("x://{a}", "x://one/two"), None);
        assert_eq!(
            vars("x://{a}/data", "x:///data"),
            None,
            "a value is never empty"
        );
        assert_eq!(vars("x://fixed", "x://fixed"), Some(vec![]));
        assert_eq!(vars("x://fixed", "x://fixedx"), None);
        assert_eq!(vars("x://{a}", "y://b"), None);
    }

    #[test]
    fn what_is_not_level_one_is_refused() {
        assert_eq!(
            UriTemplate::parse("x://{a"),
            Err(TemplateError::Unbalanced { at: 4 })
        );
        assert_eq!(
            UriTemplate::parse("x://a}"),
            Err(TemplateError::Unbalanced { at: 5 })
        );
        assert!(matches!(
            UriTemplate::parse("x://{+a}"),
            Err(TemplateError::BadVariable { .. })
        ));
        assert!(matches!(
            UriTemplate::parse("x://{}"),
            Err(TemplateError::BadVariable { .. })
        ));
        assert!(matches!(
            UriTemplate::parse("x://{a}{b}"),
            Err(TemplateError::Adjacent { .. })
        ));
        let template = UriTemplate::parse("u://{id}/p/{post}").unwrap();
        assert_eq!(template.variables().collect::<Vec<_>>(), ["id", "post"]);
        assert_eq!(template.as_str(), "u://{id}/p/{post}");
    }
}
