//! Doc comments: the tool's description and the rustdoc `# Arguments` list.

use std::collections::BTreeMap;
use syn::{Attribute, Expr, ExprLit, Lit, Meta};

/// The text of the `#[doc = "..."]` attributes (what `///` becomes), one entry per line,
/// with the common indentation removed. `None` for a doc that isn't a string literal
/// (`#[doc = include_str!(..)]`), which the macro can't read.
pub(crate) fn doc_lines(attrs: &[Attribute]) -> Vec<String> {
    let raw: Vec<String> = attrs
        .iter()
        .filter_map(|attr| match &attr.meta {
            Meta::NameValue(nv) if nv.path.is_ident("doc") => match &nv.value {
                Expr::Lit(ExprLit {
                    lit: Lit::Str(s), ..
                }) => Some(s.value()),
                _ => None,
            },
            _ => None,
        })
        .flat_map(|text| text.split('\n').map(str::to_owned).collect::<Vec<_>>())
        .collect();
    // Only ASCII blanks are indentation: a line may open with a non-breaking or ideographic
    // space that is part of the text (and is several bytes long).
    let indent = raw
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| indentation(l))
        .min()
        .unwrap_or(0);
    raw.into_iter()
        .map(|l| l[indentation(&l).min(indent)..].trim_end().to_owned())
        .collect()
}

/// The number of leading spaces and tabs, which is also their length in bytes.
fn indentation(line: &str) -> usize {
    line.bytes()
        .take_while(|b| matches!(b, b' ' | b'\t'))
        .count()
}

/// A fn's doc comment split into the tool description and the per-parameter texts of its
/// `# Arguments` section.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct FnDocs {
    pub description: String,
    pub arguments: BTreeMap<String, String>,
}

impl FnDocs {
    /// Splits doc lines: the `# Arguments` section (up to the next heading of the same or a
    /// higher level) feeds the parameters; everything else, Markdown kept, is the description.
    pub(crate) fn parse(lines: &[String]) -> FnDocs {
        let mut description = Vec::new();
        let mut arguments = BTreeMap::new();
        let mut section_level: Option<usize> = None;
        let mut current: Option<(String, String)> = None;
        // Deeper bullets are a list inside the current parameter's text, not parameters.
        let mut entry_indent: Option<usize> = None;
        let mut in_code_block = false;

        for line in lines {
            let trimmed = line.trim_start();
            if trimmed.starts_with("```") {
                in_code_block = !in_code_block;
            }
            let heading = if in_code_block {
                None
            } else {
                heading_level(trimmed)
            };
            if let Some(level) = section_level {
                if heading.is_some_and(|h| h <= level) {
                    section_level = None;
                    flush(&mut current, &mut arguments);
                } else {
                    let entry = bullet(trimmed).filter(|_| {
                        let indent = indentation(line);
                        indent <= *entry_indent.get_or_insert(indent)
                    });
                    if let Some((name, text)) = entry {
                        flush(&mut current, &mut arguments);
                        current = Some((name, text));
                    } else if let Some((_, text)) = &mut current {
                        if !trimmed.is_empty() {
                            text.push('\n');
                            text.push_str(trimmed);
                        }
                    }
                    continue;
                }
            }
            if let Some(level) = heading {
                let title = trimmed[level..].trim();
                if title.eq_ignore_ascii_case("arguments")
                    || title.eq_ignore_ascii_case("parameters")
                {
                    section_level = Some(level);
                    entry_indent = None;
                    continue;
                }
            }
            description.push(line.as_str());
        }
        flush(&mut current, &mut arguments);

        FnDocs {
            description: join_trimmed(&description),
            arguments,
        }
    }
}

/// Joins lines, dropping blank lines at both ends.
pub(crate) fn join_trimmed(lines: &[&str]) -> String {
    let start = lines
        .iter()
        .position(|l| !l.trim().is_empty())
        .unwrap_or(lines.len());
    let end = lines
        .iter()
        .rposition(|l| !l.trim().is_empty())
        .map_or(start, |i| i + 1);
    lines[start..end].join("\n")
}

fn flush(current: &mut Option<(String, String)>, arguments: &mut BTreeMap<String, String>) {
    if let Some((name, text)) = current.take() {
        arguments.insert(name, text.trim().to_owned());
    }
}

/// `## Title` → `Some(2)`.
fn heading_level(line: &str) -> Option<usize> {
    let level = line.bytes().take_while(|b| *b == b'#').count();
    let rest = &line[level..];
    (level > 0 && (rest.is_empty() || rest.starts_with(' '))).then_some(level)
}

/// One entry of an arguments list: `* `name` - text`, `- name: text`, `* name — text`.
fn bullet(line: &str) -> Option<(String, String)> {
    let rest = line
        .strip_prefix("* ")
        .or_else(|| line.strip_prefix("- "))?
        .trim_start();
    let (name, rest) = if let Some(quoted) = rest.strip_prefix('`') {
        let end = quoted.find('`')?;
        (&quoted[..end], &quoted[end + 1..])
    } else {
        // A raw identifier's `r#` isn't a word character; skip it before finding the end.
        let bare = rest.strip_prefix("r#").unwrap_or(rest);
        let end = bare
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(bare.len());
        (&bare[..end], &bare[end..])
    };
    let name = name.trim_start_matches("r#");
    if name.is_empty() {
        return None;
    }
    let rest = rest.trim_start();
    let text = ["-", ":", "—", "–"]
        .iter()
        .find_map(|sep| rest.strip_prefix(sep))
        .unwrap_or(rest);
    Some((name.to_owned(), text.trim().to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_owned).collect()
    }

    #[test]
    fn plain_doc_is_the_description() {
        let docs = FnDocs::parse(&lines("Search the catalogue.\n\nResults are **ranked**."));
        assert_eq!(
            docs.description,
            "Search the catalogue.\n\nResults are **ranked**."
        );
        assert!(docs.arguments.is_empty());
    }

    #[test]
    fn arguments_section_is_taken_out_and_parsed() {
        let docs = FnDocs::parse(&lines(
            "Read a file.\n\n# Arguments\n\n* `path` - Where the file is.\n* `limit` - How many lines,\n  at most.\n- offset: First line.\n\n# Errors\n\nFails when missing.",
        ));
        assert_eq!(
            docs.description,
            "Read a file.\n\n# Errors\n\nFails when missing."
        );
        assert_eq!(docs.arguments["path"], "Where the file is.");
        assert_eq!(docs.arguments["limit"], "How many lines,\nat most.");
        assert_eq!(docs.arguments["offset"], "First line.");
    }

    #[test]
    fn a_subheading_stays_inside_the_section() {
        let docs = FnDocs::parse(&lines(
            "Go.\n\n## Arguments\n* `a` - x\n### Note\n* `b` - y\n## Next\nz",
        ));
        assert_eq!(docs.arguments.len(), 2);
        assert_eq!(docs.description, "Go.\n\n## Next\nz");
    }

    #[test]
    fn headings_in_code_blocks_are_not_sections() {
        let docs = FnDocs::parse(&lines("Run.\n```sh\n# Arguments\n```"));
        assert_eq!(docs.description, "Run.\n```sh\n# Arguments\n```");
        assert!(docs.arguments.is_empty());
    }

    #[test]
    fn common_indentation_is_removed() {
        let attrs: Vec<Attribute> = vec![
            syn::parse_quote!(#[doc = " First."]),
            syn::parse_quote!(#[doc = "     indented code"]),
            syn::parse_quote!(#[doc = ""]),
        ];
        assert_eq!(doc_lines(&attrs), vec!["First.", "    indented code", ""]);
    }

    #[test]
    fn a_nested_list_belongs_to_its_parameter() {
        let docs = FnDocs::parse(&lines(
            "Pack.\n\n# Arguments\n\n  * `level` - One of:\n    - `fast` - quick\n    - `best` - small\n  * `path` - Where.",
        ));
        assert_eq!(
            docs.arguments["level"],
            "One of:\n- `fast` - quick\n- `best` - small"
        );
        assert_eq!(docs.arguments["path"], "Where.");
        assert_eq!(docs.arguments.len(), 2);
    }

    #[test]
    fn non_ascii_whitespace_is_text_not_indentation() {
        let attrs: Vec<Attribute> = vec![
            syn::parse_quote!(#[doc = " \u{3000}Wide."]),
            syn::parse_quote!(#[doc = "\u{a0}Narrow."]),
            syn::parse_quote!(#[doc = "  Plain."]),
            syn::parse_quote!(#[doc = "\u{3000}"]),
        ];
        assert_eq!(
            doc_lines(&attrs),
            vec![" \u{3000}Wide.", "\u{a0}Narrow.", "  Plain.", ""]
        );
        let attrs: Vec<Attribute> = vec![
            syn::parse_quote!(#[doc = " \u{3000}Wide."]),
            syn::parse_quote!(#[doc = "  \u{a0}"]),
            syn::parse_quote!(#[doc = "  Plain."]),
        ];
        assert_eq!(doc_lines(&attrs), vec!["\u{3000}Wide.", "", " Plain."]);
    }

    #[test]
    fn bullets_accept_several_separators() {
        assert_eq!(bullet("* `a` — text"), Some(("a".into(), "text".into())));
        assert_eq!(
            bullet("* r#type - kind"),
            Some(("type".into(), "kind".into()))
        );
        assert_eq!(bullet("not a bullet"), None);
    }
}
