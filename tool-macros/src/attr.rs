//! Parsing of `#[tool(...)]`, on the fn and on its parameters.

use proc_macro2::{Span, TokenStream};
use syn::meta::ParseNestedMeta;
use syn::{Expr, LitBool, LitStr};

/// The keys `#[tool(...)]` accepts on a fn, for the error that lists them.
const FN_KEYS: &str = "`name`, `title`, `description`, `read_only`, `destructive`, `idempotent`, `open_world`, `strict = false`, `parallel`, `timeout = \"30s\"`, `max_output = BYTES`, `resolver`, `inline`, `error_format = \"json\"`, `output_schema`, `task`, `task = \"required\"`, `defer_task`";
/// The keys `#[tool(...)]` accepts on a parameter.
const PARAM_KEYS: &str = "`default = EXPR`, `inject`, `mcp_header = \"Name\"`";

/// What `#[tool(...)]` on the fn says.
#[derive(Default)]
pub(crate) struct FnAttrs {
    pub name: Option<LitStr>,
    /// `title = "..."`: a display name for UIs (MCP's `title`).
    pub title: Option<LitStr>,
    pub description: Option<LitStr>,
    pub read_only: bool,
    pub destructive: bool,
    pub idempotent: bool,
    pub open_world: bool,
    /// `strict = false`: never export this tool in a provider's strict mode.
    pub strict: Option<LitBool>,
    /// `parallel` or `parallel = false`: whether calls may run beside others.
    pub parallel: Option<LitBool>,
    /// `timeout = "30s"`, read at compile time into milliseconds.
    pub timeout: Option<(LitStr, u64)>,
    /// `max_output = 16384`: this tool's output cap, in bytes.
    pub max_output: Option<syn::LitInt>,
    /// `resolver = path::to_fn`: fills the arguments the model left out.
    pub resolver: Option<syn::Path>,
    /// `inline`: a sync fn that runs on the caller's task instead of the blocking pool; the
    /// key's span, for the errors that refuse it.
    pub inline: Option<Span>,
    /// `error_format = "json"`: how the tool's errors read to the model, as the name of the
    /// runtime's `ErrorFormat` variant.
    pub error_format: Option<&'static str>,
    /// `output_schema`: the return value's schema is declared, and outputs are checked
    /// against it; the key's span, for the errors that refuse it.
    pub output_schema: Option<Span>,
    /// `task` or `task = "optional" | "required" | "forbidden"`: whether an MCP client may
    /// run the tool as a task, as the name of the runtime's `TaskSupport` variant.
    pub task: Option<&'static str>,
    /// `defer_task`: the call becomes a task only when the tool says so
    /// (`cx.continue_as_task()`); the key's span, for the error that refuses it without `task`.
    pub defer_task: Option<Span>,
}

/// What `#[tool(...)]` on one parameter says.
#[derive(Default)]
pub(crate) struct ParamAttrs {
    pub default: Option<Expr>,
    pub inject: Option<Span>,
    /// `mcp_header = "Region"`: the argument also travels as the HTTP header
    /// `Mcp-Param-Region` (MCP's `x-mcp-header`); the name is checked in `checks`.
    pub mcp_header: Option<LitStr>,
}

/// Collects errors as parsing goes, so every mistake is reported at once.
#[derive(Default)]
pub(crate) struct Errors(Option<syn::Error>);

impl Errors {
    pub(crate) fn push(&mut self, error: syn::Error) {
        match &mut self.0 {
            Some(all) => all.combine(error),
            None => self.0 = Some(error),
        }
    }

    pub(crate) fn finish(self) -> syn::Result<()> {
        self.0.map_or(Ok(()), Err)
    }
}

impl FnAttrs {
    /// Parses the attribute's own arguments: `#[tool(name = "x", read_only)]`.
    pub(crate) fn parse(tokens: TokenStream, errors: &mut Errors) -> FnAttrs {
        let mut attrs = FnAttrs::default();
        let parser = syn::meta::parser(|meta| {
            if let Err(e) = attrs.parse_one(&meta) {
                errors.push(e);
            }
            Ok(())
        });
        if let Err(e) = syn::parse::Parser::parse2(parser, tokens) {
            errors.push(e);
        }
        attrs
    }

    fn parse_one(&mut self, meta: &ParseNestedMeta) -> syn::Result<()> {
        let key = meta
            .path
            .get_ident()
            .map(|i| i.to_string())
            .unwrap_or_default();
        match key.as_str() {
            "name" => set_once(&mut self.name, meta, || meta.value()?.parse()),
            "title" => set_once(&mut self.title, meta, || meta.value()?.parse()),
            "description" => set_once(&mut self.description, meta, || meta.value()?.parse()),
            "read_only" => set_flag(&mut self.read_only, meta),
            "destructive" => set_flag(&mut self.destructive, meta),
            "idempotent" => set_flag(&mut self.idempotent, meta),
            "open_world" => set_flag(&mut self.open_world, meta),
            "inline" => {
                let mut inline = self.inline.is_some();
                set_flag(&mut inline, meta)?;
                self.inline = Some(syn::spanned::Spanned::span(&meta.path));
                Ok(())
            }
            "output_schema" => {
                let mut declared = self.output_schema.is_some();
                set_flag(&mut declared, meta)?;
                self.output_schema = Some(syn::spanned::Spanned::span(&meta.path));
                Ok(())
            }
            "defer_task" => {
                let mut deferred = self.defer_task.is_some();
                set_flag(&mut deferred, meta)?;
                self.defer_task = Some(syn::spanned::Spanned::span(&meta.path));
                Ok(())
            }
            "strict" => {
                if !meta.input.peek(syn::Token![=]) {
                    return Err(meta.error(
                        "`strict` takes a value: write `strict = false` to export this tool without strict mode (it is strict-capable by default)",
                    ));
                }
                set_once(&mut self.strict, meta, || meta.value()?.parse())
            }
            "parallel" => set_once(&mut self.parallel, meta, || {
                if meta.input.peek(syn::Token![=]) {
                    meta.value()?.parse()
                } else {
                    Ok(LitBool::new(
                        true,
                        meta.path
                            .get_ident()
                            .map_or_else(Span::call_site, |i| i.span()),
                    ))
                }
            }),
            "timeout" => set_once(&mut self.timeout, meta, || {
                let text: LitStr = meta.value()?.parse()?;
                let ms = parse_duration(&text.value()).ok_or_else(|| {
                    syn::Error::new(
                        text.span(),
                        "a timeout is a number with a unit: \"500ms\", \"30s\", \"5m\" or \"1h\"",
                    )
                })?;
                Ok((text, ms))
            }),
            "max_output" => set_once(&mut self.max_output, meta, || {
                let bytes: syn::LitInt = meta.value()?.parse()?;
                match bytes.base10_parse::<usize>() {
                    Ok(n) if n > 0 => Ok(bytes),
                    _ => Err(syn::Error::new(bytes.span(), "max_output is a number of bytes greater than 0, for example `max_output = 16384`")),
                }
            }),
            "resolver" => set_once(&mut self.resolver, meta, || meta.value()?.parse()),
            "error_format" => set_once(&mut self.error_format, meta, || {
                ERROR_FORMAT.parse(&meta.value()?.parse()?)
            }),
            "task" => set_once(&mut self.task, meta, || {
                if meta.input.peek(syn::Token![=]) {
                    TASK.parse(&meta.value()?.parse()?)
                } else {
                    // `task` alone: a task when the client can, a plain call otherwise.
                    Ok("Optional")
                }
            }),
            _ => Err(unknown_key(meta, FN_KEYS)),
        }
    }
}

impl ParamAttrs {
    /// Parses one `#[tool(...)]` attribute found on a parameter, adding to what earlier ones said.
    pub(crate) fn parse_into(&mut self, attr: &syn::Attribute, errors: &mut Errors) {
        let result = attr.parse_nested_meta(|meta| {
            let key = meta
                .path
                .get_ident()
                .map(|i| i.to_string())
                .unwrap_or_default();
            let outcome = match key.as_str() {
                "default" => set_once(&mut self.default, &meta, || meta.value()?.parse()),
                "inject" => {
                    let span = meta.path.get_ident().map(|i| i.span());
                    set_once(&mut self.inject, &meta, || {
                        Ok(span.unwrap_or_else(Span::call_site))
                    })
                }
                "mcp_header" => set_once(&mut self.mcp_header, &meta, || parse_mcp_header(&meta)),
                _ => Err(unknown_key(&meta, PARAM_KEYS)),
            };
            if let Err(e) = outcome {
                errors.push(e);
            }
            Ok(())
        });
        if let Err(e) = result {
            errors.push(e);
        }
    }
}

/// `mcp_header = "Region"`: the header's name as written (its characters are checked with
/// the rest of the parameter, in `checks`).
fn parse_mcp_header(meta: &ParseNestedMeta) -> syn::Result<LitStr> {
    let how = "write `mcp_header = \"Region\"` to send the argument as the HTTP header `Mcp-Param-Region` too";
    if !meta.input.peek(syn::Token![=]) {
        skip_value(meta);
        return Err(meta.error(format!("`mcp_header` takes the header's name: {how}")));
    }
    string_literal("mcp_header", &meta.value()?.parse()?, how).cloned()
}

fn set_once<T>(
    slot: &mut Option<T>,
    meta: &ParseNestedMeta,
    value: impl FnOnce() -> syn::Result<T>,
) -> syn::Result<()> {
    // Parse the value first so a duplicate doesn't also leave tokens behind to complain about.
    let parsed = value()?;
    if slot.is_some() {
        return Err(duplicate(meta));
    }
    *slot = Some(parsed);
    Ok(())
}

fn set_flag(flag: &mut bool, meta: &ParseNestedMeta) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) || meta.input.peek(syn::token::Paren) {
        // Consume the value first, so the only error is this one and not also "expected `,`".
        skip_value(meta);
        let key = path_text(meta);
        // Spans the key and its value: `read_only = true`.
        return Err(meta.error(format!(
            "`{key}` is a flag and takes no value: write `{key}` alone, or leave it out for false"
        )));
    }
    if *flag {
        return Err(duplicate(meta));
    }
    *flag = true;
    Ok(())
}

fn duplicate(meta: &ParseNestedMeta) -> syn::Error {
    syn::Error::new_spanned(
        &meta.path,
        format!(
            "duplicate `{}` in #[tool]: give each key once",
            path_text(meta)
        ),
    )
}

fn unknown_key(meta: &ParseNestedMeta, allowed: &str) -> syn::Error {
    skip_value(meta);
    syn::Error::new_spanned(
        &meta.path,
        format!(
            "unknown #[tool] key `{}`; expected one of {allowed}",
            path_text(meta)
        ),
    )
}

fn path_text(meta: &ParseNestedMeta) -> String {
    let segments: Vec<String> = meta
        .path
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    segments.join("::")
}

/// Consumes `= value` or `(...)` after an unknown key, so the only error is the one about the key.
fn skip_value(meta: &ParseNestedMeta) {
    if meta.input.peek(syn::Token![=]) {
        let _ = meta.value().and_then(|v| v.parse::<Expr>());
    } else if meta.input.peek(syn::token::Paren) {
        let _ = meta.parse_nested_meta(|inner| {
            skip_value(&inner);
            Ok(())
        });
    }
}

/// A key whose value is one of a few strings, each naming a variant of a runtime enum.
struct Choice {
    /// The key, as written: `error_format`.
    key: &'static str,
    /// What a value is, for the error: `error format`.
    what: &'static str,
    /// Each string the key takes, and the variant it names.
    values: &'static [(&'static str, &'static str)],
    /// How to write it, for the error: every choice and what it means.
    how: &'static str,
}

/// `error_format = "..."`, and the runtime's `ErrorFormat` variant each value names.
const ERROR_FORMAT: Choice = Choice {
    key: "error_format",
    what: "error format",
    values: &[
        ("text", "Text"),
        ("json", "Json"),
        ("traceback", "Traceback"),
    ],
    how: "write `error_format = \"text\"` (the default), `\"json\"` or `\"traceback\"`",
};

/// `task = "..."`, and the runtime's `TaskSupport` variant each value names.
const TASK: Choice = Choice {
    key: "task",
    what: "task support",
    values: &[
        ("optional", "Optional"),
        ("required", "Required"),
        ("forbidden", "Forbidden"),
    ],
    how: "write `task` or `task = \"optional\"` (a task when the client supports tasks), `task = \"required\"` (only as a task) or `task = \"forbidden\"` (the default)",
};

impl Choice {
    /// `"json"` → `Json`; anything else (a bare `json` too) is an error naming the choices.
    fn parse(&self, value: &Expr) -> syn::Result<&'static str> {
        let text = string_literal(self.key, value, self.how)?;
        self.values
            .iter()
            .find(|(name, _)| *name == text.value())
            .map(|(_, variant)| *variant)
            .ok_or_else(|| {
                syn::Error::new(
                    text.span(),
                    format!("unknown {} {:?}: {}", self.what, text.value(), self.how),
                )
            })
    }
}

/// The string literal `key = "..."` takes; anything else is an error saying `how` to write it.
fn string_literal<'a>(key: &str, value: &'a Expr, how: &str) -> syn::Result<&'a LitStr> {
    match value {
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(text),
            ..
        }) => Ok(text),
        other => Err(syn::Error::new_spanned(
            other,
            format!("{key} takes a string: {how}"),
        )),
    }
}

/// `"500ms"`, `"30s"`, `"5m"`, `"1h"` → milliseconds; `None` for anything else or zero.
fn parse_duration(text: &str) -> Option<u64> {
    let text = text.trim();
    let split = text.find(|c: char| !c.is_ascii_digit())?;
    let (number, unit) = text.split_at(split);
    let number: u64 = number.parse().ok()?;
    let factor = match unit.trim() {
        "ms" => 1,
        "s" => 1_000,
        "m" | "min" => 60_000,
        "h" => 3_600_000,
        _ => return None,
    };
    number.checked_mul(factor).filter(|ms| *ms > 0)
}

#[cfg(test)]
mod tests {
    use super::{parse_duration, ERROR_FORMAT, TASK};

    #[test]
    fn error_formats() {
        let format = |tokens: &str| ERROR_FORMAT.parse(&syn::parse_str(tokens).unwrap());
        assert_eq!(format(r#""json""#).unwrap(), "Json");
        assert_eq!(format(r#""traceback""#).unwrap(), "Traceback");
        assert_eq!(format(r#""text""#).unwrap(), "Text");
        let wrong = format(r#""JSON""#).unwrap_err().to_string();
        assert!(wrong.contains(r#"unknown error format "JSON""#), "{wrong}");
        assert!(format("json")
            .unwrap_err()
            .to_string()
            .contains("takes a string"));
    }

    #[test]
    fn task_supports() {
        let task = |tokens: &str| TASK.parse(&syn::parse_str(tokens).unwrap());
        assert_eq!(task(r#""required""#).unwrap(), "Required");
        let wrong = task(r#""always""#).unwrap_err().to_string();
        assert!(
            wrong.starts_with(r#"unknown task support "always": write `task`"#),
            "{wrong}"
        );
        let bare = task("required").unwrap_err().to_string();
        assert!(bare.starts_with("task takes a string: "), "{bare}");
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("500ms"), Some(500));
        assert_eq!(parse_duration("30s"), Some(30_000));
        assert_eq!(parse_duration("5m"), Some(300_000));
        assert_eq!(parse_duration("1h"), Some(3_600_000));
        assert_eq!(parse_duration("30"), None);
        assert_eq!(parse_duration("0s"), None);
        assert_eq!(parse_duration("fast"), None);
    }
}
