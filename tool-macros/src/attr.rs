//! Parsing of `#[tool(...)]`, on the fn and on its parameters.

use proc_macro2::{Span, TokenStream};
use syn::meta::ParseNestedMeta;
use syn::{Expr, LitBool, LitStr};

/// The keys `#[tool(...)]` accepts on a fn, for the error that lists them.
const FN_KEYS: &str = "`name`, `title`, `description`, `read_only`, `destructive`, `idempotent`, `open_world`, `strict = false`, `resolver`";
/// The keys `#[tool(...)]` accepts on a parameter.
const PARAM_KEYS: &str = "`default = EXPR`, `inject`";

/// What `#[tool(...)]` on the fn says.
#[derive(Default)]
pub struct FnAttrs {
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
    /// `resolver = path::to_fn`: fills the arguments the model left out.
    pub resolver: Option<syn::Path>,
}

/// What `#[tool(...)]` on one parameter says.
#[derive(Default)]
pub struct ParamAttrs {
    pub default: Option<Expr>,
    pub inject: Option<Span>,
}

/// Collects errors as parsing goes, so every mistake is reported at once.
#[derive(Default)]
pub struct Errors(Option<syn::Error>);

impl Errors {
    pub fn push(&mut self, error: syn::Error) {
        match &mut self.0 {
            Some(all) => all.combine(error),
            None => self.0 = Some(error),
        }
    }

    pub fn finish(self) -> syn::Result<()> {
        self.0.map_or(Ok(()), Err)
    }
}

impl FnAttrs {
    /// Parses the attribute's own arguments: `#[tool(name = "x", read_only)]`.
    pub fn parse(tokens: TokenStream, errors: &mut Errors) -> FnAttrs {
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
            "strict" => {
                if !meta.input.peek(syn::Token![=]) {
                    return Err(meta.error(
                        "`strict` takes a value: write `strict = false` to export this tool without strict mode (it is strict-capable by default)",
                    ));
                }
                set_once(&mut self.strict, meta, || meta.value()?.parse())
            }
            "resolver" => set_once(&mut self.resolver, meta, || meta.value()?.parse()),
            _ => Err(unknown_key(meta, FN_KEYS)),
        }
    }
}

impl ParamAttrs {
    /// Parses one `#[tool(...)]` attribute found on a parameter, adding to what earlier ones said.
    pub fn parse_into(&mut self, attr: &syn::Attribute, errors: &mut Errors) {
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
