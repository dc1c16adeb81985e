//! RFC 6570 level-1 URI templates (`file:///{path}`, `users://{id}/profile`): matching a
//! URI against one, and reading its variables back out.

use regex::Regex;
use std::collections::HashMap;

/// The longest URI, in bytes, that a template matches, a resource is read at or a session
/// subscribes to: a URI is a name, not a payload, and anything longer is refused before any
/// matching (8 KiB, the request-line limit of most HTTP servers).
pub const MAX_URI_BYTES: usize = 8 * 1024;

/// A URI template of literal text and `{name}` variables (RFC 6570 level 1).
///
/// A variable matches one or more characters up to the next `/`, `?` or `#` (a level-1
/// expansion percent-encodes those), and its value is percent-decoded. Matching is one pass
/// over the URI, however many variables the template has (the template is compiled once, by
/// [`parse`](Self::parse), to a `regex` that runs in linear time); a URI over
/// [`MAX_URI_BYTES`] is refused.
///
/// A decoded value is one path segment unless the template says otherwise
/// ([`with_values`](Self::with_values)): `%2F`, `%5C`, a value `.` or `..`, and `%00` are
/// refused, so that a reader joining a value to a directory stays in it.
///
/// ```
/// use tool_runtime::resources::UriTemplate;
///
/// let template = UriTemplate::parse("users://{id}/posts/{post}").unwrap();
/// let vars = template.matches("users://42/posts/hello%20world").unwrap();
/// assert_eq!(vars["id"], "42");
/// assert_eq!(vars["post"], "hello world");
/// assert!(template.matches("users://42/comments/1").is_none());
/// // `..%2F..%2Fetc%2Fpasswd` would reach a reader as `../../etc/passwd`: refused.
/// assert!(template.matches("users://..%2F..%2Fetc%2Fpasswd/posts/1").is_none());
/// ```
#[derive(Clone, Debug)]
pub struct UriTemplate {
    text: String,
    parts: Vec<Part>,
    /// The whole template as one anchored pattern, a lazy group per variable.
    pattern: Regex,
    /// What each variable's decoded value may hold, in the variables' order.
    values: Vec<VariableValues>,
}

impl PartialEq for UriTemplate {
    fn eq(&self, other: &Self) -> bool {
        // The pattern is made from the parts: equal parts, equal patterns.
        self.parts == other.parts && self.values == other.values
    }
}

impl Eq for UriTemplate {}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Part {
    Literal(String),
    Variable(String),
}

/// What a variable's percent-decoded value may hold: the opt-in of a template whose reader
/// takes more than one path segment ([`UriTemplate::with_values`],
/// [`ResourceTemplate::variable_values`](super::ResourceTemplate::variable_values)).
///
/// A level-1 variable never matches a raw `/`, but `%2F` decodes to one: without a check,
/// `file:///{name}` read at `file:///..%2F..%2Fetc%2Fpasswd` gives the reader
/// `../../etc/passwd`, and `%00` a NUL that C APIs end a path at.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum VariableValues {
    /// One path segment (the default): no `/`, no `\`, no NUL, and not `.` or `..`.
    #[default]
    Segment,
    /// A relative path: `/` allowed between segments, but no `..` segment, no NUL, and no
    /// leading `/` or `\` (joined to a directory, an absolute path replaces it). `\` counts
    /// as a separator too, as Windows reads it.
    Path,
    /// Whatever the URI decodes to, NUL included: the reader checks it (a value forwarded
    /// whole, a key looked up in a map).
    Raw,
}

impl VariableValues {
    /// Why `value` is not one of these values.
    fn refuse(self, value: &str) -> Option<&'static str> {
        let dots = |segment: &str| matches!(segment, "." | "..");
        match self {
            VariableValues::Raw => None,
            _ if value.contains('\0') => Some("a NUL (`%00`)"),
            VariableValues::Segment if value.contains(['/', '\\']) => {
                Some("a path separator (`%2F` or `%5C`)")
            }
            VariableValues::Segment if dots(value) => Some("a `.` or `..` path segment"),
            VariableValues::Segment => None,
            VariableValues::Path if value.starts_with(['/', '\\']) => {
                Some("an absolute path (a leading `/` or `\\`)")
            }
            VariableValues::Path if value.split(['/', '\\']).any(|s| s == "..") => {
                Some("a `..` path segment")
            }
            VariableValues::Path => None,
        }
    }
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
    /// A template longer than any URI it could match ([`MAX_URI_BYTES`]): an imported
    /// server's listing is not trusted to be small.
    #[error("the template is {length} bytes, over the {max} a URI may have")]
    TooLong {
        /// Its length in bytes.
        length: usize,
        /// [`MAX_URI_BYTES`].
        max: usize,
    },
    /// [`VariableValues`] given for a name the template has no variable of: a typo that
    /// would leave the variable at its default.
    #[error("the template has no variable `{{{name}}}`")]
    UnknownVariable {
        /// The name given.
        name: String,
    },
}

/// Why a URI that has a template's shape is still not one of its URIs.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MatchError {
    /// The URI is longer than [`MAX_URI_BYTES`]; nothing was matched.
    #[error("the URI is {length} bytes, over the {max} a resource URI may have")]
    TooLong {
        /// Its length in bytes.
        length: usize,
        /// [`MAX_URI_BYTES`].
        max: usize,
    },
    /// A variable decodes to a value its [`VariableValues`] refuse.
    #[error(
        "`{{{variable}}}` decodes to a value holding {reason}, which this template does not take"
    )]
    Refused {
        /// The variable.
        variable: String,
        /// What its value holds.
        reason: &'static str,
    },
}

impl UriTemplate {
    /// Reads a template.
    ///
    /// # Errors
    ///
    /// A [`TemplateError`] for unbalanced braces, a variable that isn't level 1, two
    /// variables with nothing between them, or a template over [`MAX_URI_BYTES`].
    pub fn parse(text: &str) -> Result<UriTemplate, TemplateError> {
        if text.len() > MAX_URI_BYTES {
            return Err(TemplateError::TooLong {
                length: text.len(),
                max: MAX_URI_BYTES,
            });
        }
        let parts = parts(text)?;
        let mut pattern = String::from(r"\A");
        for part in &parts {
            match part {
                Part::Literal(text) => pattern.push_str(&regex::escape(text)),
                // Lazy: the first place the next literal fits ends the value, as RFC 6570's
                // matchers and this crate always read `{a}.{b}` (`x.y.z`: `x`, `y.z`).
                Part::Variable(_) => pattern.push_str("([^/?#]+?)"),
            }
        }
        pattern.push_str(r"\z");
        // Escaped literals and one class per variable, at most 8 KiB of them: well inside
        // the regex crate's size limit, so this never fails.
        let pattern = Regex::new(&pattern).map_err(|_| TemplateError::TooLong {
            length: text.len(),
            max: MAX_URI_BYTES,
        })?;
        let count = parts
            .iter()
            .filter(|p| matches!(p, Part::Variable(_)))
            .count();
        Ok(UriTemplate {
            text: text.to_owned(),
            parts,
            pattern,
            values: vec![VariableValues::default(); count],
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

    /// The same template, whose variable `name` takes `values` once decoded (the opt-in of
    /// a reader that takes a relative path, say, in `file:///{path}`).
    ///
    /// ```
    /// use tool_runtime::resources::{UriTemplate, VariableValues};
    ///
    /// let files = UriTemplate::parse("file:///{path}").unwrap();
    /// assert!(files.matches("file:///docs%2Fa.md").is_none(), "one segment by default");
    /// let files = files.with_values("path", VariableValues::Path).unwrap();
    /// assert_eq!(files.matches("file:///docs%2Fa.md").unwrap()["path"], "docs/a.md");
    /// assert!(files.matches("file:///docs%2F..%2F..%2Fsecret").is_none());
    /// ```
    ///
    /// # Errors
    ///
    /// [`TemplateError::UnknownVariable`] when the template has no variable `name`.
    pub fn with_values(
        mut self,
        name: &str,
        values: VariableValues,
    ) -> Result<UriTemplate, TemplateError> {
        let at: Vec<usize> = self
            .variables()
            .enumerate()
            .filter_map(|(at, variable)| (variable == name).then_some(at))
            .collect();
        if at.is_empty() {
            return Err(TemplateError::UnknownVariable {
                name: name.to_owned(),
            });
        }
        for at in at {
            self.values[at] = values;
        }
        Ok(self)
    }

    /// The variables' values when `uri` is one of the template's URIs, percent-decoded;
    /// `None` too when [`try_match`](Self::try_match) refuses it.
    pub fn matches(&self, uri: &str) -> Option<HashMap<String, String>> {
        self.try_match(uri).ok().flatten()
    }

    /// The variables' values when `uri` is one of the template's URIs (`None` when it has
    /// another shape), percent-decoded.
    ///
    /// # Errors
    ///
    /// [`MatchError::TooLong`] for a URI over [`MAX_URI_BYTES`], [`MatchError::Refused`]
    /// for a value its [`VariableValues`] refuse.
    pub fn try_match(&self, uri: &str) -> Result<Option<HashMap<String, String>>, MatchError> {
        if uri.len() > MAX_URI_BYTES {
            return Err(MatchError::TooLong {
                length: uri.len(),
                max: MAX_URI_BYTES,
            });
        }
        let Some(captures) = self.pattern.captures(uri) else {
            return Ok(None);
        };
        let mut vars = HashMap::new();
        // Group 0 is the whole URI; group n the n-th variable.
        for ((name, values), group) in self.variables().zip(&self.values).zip(1..) {
            let raw = captures.get(group).map_or("", |m| m.as_str());
            let value = percent_decode(raw);
            if let Some(reason) = values.refuse(&value) {
                return Err(MatchError::Refused {
                    variable: name.to_owned(),
                    reason,
                });
            }
            vars.insert(name.to_owned(), value);
        }
        Ok(Some(vars))
    }
}

/// The template's literal text and variables, checked to be level 1.
fn parts(text: &str) -> Result<Vec<Part>, TemplateError> {
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
    Ok(parts)
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
            vars("file:///{name}", "file:///a%20b.txt"),
            Some(vec![pair("name", "a b.txt")])
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

    /// The shape `docs/mcp.md` shows, three variables between literals, on URIs the old
    /// matcher tried every split of (each `-` for `{org}`, then each for `{team}`, ...):
    /// the first place each literal fits wins, and a URI that never ends as the template
    /// does is no match, whatever its length.
    #[test]
    fn variables_between_literals_read_as_before() {
        let team = "team://{org}-{team}-{user}/profile";
        assert_eq!(
            vars(team, "team://acme-eng-ada-lovelace/profile"),
            Some(vec![
                pair("org", "acme"),
                pair("team", "eng"),
                pair("user", "ada-lovelace")
            ])
        );
        let dashes = format!("team://{}/profil", "a-".repeat(3000));
        assert_eq!(vars(team, &dashes), None);
        let long = format!("team://{}x/profile", "a-".repeat(2000));
        let found = vars(team, &long).unwrap();
        assert_eq!(found[2].1.len(), "a-".repeat(1998).len() + 1);
        // A literal that the value may also hold: the value is as short as it can be.
        assert_eq!(
            vars("x://{a}ab{b}/c", "x://1ab2ab3/c"),
            Some(vec![pair("a", "1"), pair("b", "2ab3")])
        );
        // A value never crosses `/`, `?` or `#`, even where that is the only way to match.
        assert_eq!(vars("x://{a}.z", "x://b/c.z"), None);
        assert_eq!(vars("x://{a}", "x://b?c"), None);
        assert_eq!(
            vars("x://{a}/{b}", "x://é/ü"),
            Some(vec![pair("a", "é"), pair("b", "ü")])
        );
    }

    #[test]
    fn a_uri_over_the_limit_is_refused_before_matching() {
        let template = UriTemplate::parse("x://{a}").unwrap();
        let at_limit = format!("x://{}", "a".repeat(MAX_URI_BYTES - 4));
        assert!(template.try_match(&at_limit).unwrap().is_some());
        let over = format!("{at_limit}a");
        assert_eq!(
            template.try_match(&over),
            Err(MatchError::TooLong {
                length: MAX_URI_BYTES + 1,
                max: MAX_URI_BYTES
            })
        );
        assert!(matches!(
            UriTemplate::parse(&format!("x://{}", "{a}-".repeat(MAX_URI_BYTES / 4))),
            Err(TemplateError::TooLong { .. })
        ));
    }

    /// What a reader joining a value to its directory must never get, unless it said so.
    #[test]
    fn decoded_paths_and_nul_are_refused_unless_the_template_takes_them() {
        let refused = |template: &UriTemplate, uri: &str| match template.try_match(uri) {
            Err(MatchError::Refused { variable, reason }) => Some((variable, reason)),
            other => {
                assert!(
                    other.as_ref().is_ok_and(Option::is_some),
                    "{uri}: {other:?}"
                );
                None
            }
        };
        let segment = UriTemplate::parse("file:///docs/{name}").unwrap();
        for uri in [
            "file:///docs/..%2F..%2Fetc%2Fpasswd",
            "file:///docs/a%2Fb",
            "file:///docs/a%5Cb",
            "file:///docs/..",
            "file:///docs/%2E%2E",
            "file:///docs/.",
            "file:///docs/a%00b",
        ] {
            let (variable, _) = refused(&segment, uri).unwrap_or_else(|| panic!("{uri}"));
            assert_eq!(variable, "name");
        }
        assert_eq!(refused(&segment, "file:///docs/a..b.txt"), None);
        assert_eq!(segment.matches("file:///docs/a%00b"), None);

        let path = segment
            .clone()
            .with_values("name", VariableValues::Path)
            .unwrap();
        assert_eq!(path.matches("file:///docs/a%2Fb").unwrap()["name"], "a/b");
        assert_eq!(refused(&path, "file:///docs/a%2F.%2Fb"), None);
        for uri in [
            "file:///docs/..%2F..%2Fetc%2Fpasswd",
            "file:///docs/a%2F..%2F..%2Fb",
            "file:///docs/a%5C..%5Cb",
            "file:///docs/%2Fetc%2Fpasswd",
            "file:///docs/%5Cwindows",
            "file:///docs/a%00b",
        ] {
            assert!(refused(&path, uri).is_some(), "{uri}");
        }

        let raw = segment.with_values("name", VariableValues::Raw).unwrap();
        assert_eq!(raw.matches("file:///docs/a%00b").unwrap()["name"], "a\0b");
        assert_eq!(
            raw.matches("file:///docs/..%2F..%2Fetc%2Fpasswd").unwrap()["name"],
            "../../etc/passwd"
        );
        assert_eq!(
            UriTemplate::parse("x://{a}")
                .unwrap()
                .with_values("b", VariableValues::Raw),
            Err(TemplateError::UnknownVariable { name: "b".into() })
        );
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
