//! The model of a `#[tool]` fn, and the checks that turn misuse into precise compile errors.

use crate::attr::{Errors, FnAttrs, ParamAttrs};
use crate::docs::{self, FnDocs};
use proc_macro2::TokenStream;
use syn::{Attribute, FnArg, Ident, ItemFn, LitStr, Pat, ReturnType, Type};

/// Everything the expansion needs to know about one tool fn.
pub struct ToolFn {
    /// The fn as rustc will see it: parameter attributes that only the macro understands removed.
    pub item: ItemFn,
    pub name: LitStr,
    pub description: String,
    pub attrs: FnAttrs,
    pub params: Vec<Param>,
    pub output: OutputKind,
}

/// One parameter of the fn.
pub struct Param {
    pub ident: Ident,
    pub ty: Type,
    pub kind: ParamKind,
}

/// Whether the model supplies the parameter or the runtime injects it.
pub enum ParamKind {
    /// Part of the arguments object and of the schema.
    Argument {
        doc: Option<String>,
        default: Option<syn::Expr>,
        /// `#[serde(...)]` and `#[schemars(...)]`, forwarded to the argument struct's field.
        forwarded: Vec<Attribute>,
    },
    /// Taken from the call's context by type (`State<T>`, `ToolContext`, or `#[tool(inject)]`).
    Injected,
}

/// How the return value becomes a `ToolOutput`, chosen by the return type's shape.
#[derive(Clone, Copy)]
pub enum OutputKind {
    /// No return type, or `()`.
    Unit,
    /// A type named `Result`: `Ok` is the output, `Err` an error output.
    Result,
    /// Any other `Serialize` type (a `String` is text, a `ToolOutput` is kept).
    Value,
}

/// Tool names every provider accepts: `^[a-zA-Z0-9_-]{1,64}$`.
fn valid_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

impl ToolFn {
    /// Parses and checks the fn; all errors are returned together.
    pub fn parse(args: TokenStream, mut item: ItemFn) -> syn::Result<ToolFn> {
        let mut errors = Errors::default();
        let attrs = FnAttrs::parse(args, &mut errors);
        check_signature_shape(&item, &mut errors);

        let fn_docs = FnDocs::parse(&docs::doc_lines(&item.attrs));
        let params = parse_params(&mut item, &fn_docs, &mut errors);

        let raw_name = item.sig.ident.unraw().to_string();
        let name = attrs
            .name
            .clone()
            .unwrap_or_else(|| LitStr::new(&raw_name, item.sig.ident.span()));
        if !valid_name(&name.value()) {
            errors.push(syn::Error::new(
                name.span(),
                format!(
                    "invalid tool name {:?}: a tool name must match ^[a-zA-Z0-9_-]{{1,64}}$ (what OpenAI and Anthropic accept)",
                    name.value()
                ),
            ));
        }

        let description = match &attrs.description {
            Some(d) => d.value().trim().to_owned(),
            None => fn_docs.description.clone(),
        };
        if description.is_empty() {
            errors.push(syn::Error::new(
                item.sig.ident.span(),
                "a tool needs a description for the model: add a `///` doc comment to the fn, or write #[tool(description = \"...\")]",
            ));
        }

        let output = output_kind(&item.sig.output);
        errors.finish()?;
        Ok(ToolFn {
            item,
            name,
            description,
            attrs,
            params,
            output,
        })
    }
}

trait Unraw {
    fn unraw(&self) -> Ident;
}

impl Unraw for Ident {
    fn unraw(&self) -> Ident {
        let text = self.to_string();
        match text.strip_prefix("r#") {
            Some(bare) => Ident::new(bare, self.span()),
            None => self.clone(),
        }
    }
}

fn check_signature_shape(item: &ItemFn, errors: &mut Errors) {
    let sig = &item.sig;
    if !sig.generics.params.is_empty() {
        errors.push(syn::Error::new_spanned(
            &sig.generics,
            "a #[tool] fn can't be generic: its arguments need one concrete type to derive a JSON Schema from",
        ));
    } else if let Some(clause) = &sig.generics.where_clause {
        errors.push(syn::Error::new_spanned(
            clause,
            "a #[tool] fn can't have a where clause",
        ));
    }
    if let Some(unsafety) = &sig.unsafety {
        errors.push(syn::Error::new_spanned(
            unsafety,
            "a #[tool] fn can't be `unsafe`: a model can't uphold its safety contract",
        ));
    }
    if let Some(abi) = &sig.abi {
        errors.push(syn::Error::new_spanned(
            abi,
            "a #[tool] fn can't have an `extern` ABI",
        ));
    }
    if let Some(variadic) = &sig.variadic {
        errors.push(syn::Error::new_spanned(
            variadic,
            "a #[tool] fn can't be variadic",
        ));
    }
}

fn parse_params(item: &mut ItemFn, fn_docs: &FnDocs, errors: &mut Errors) -> Vec<Param> {
    let mut params = Vec::new();
    for input in item.sig.inputs.iter_mut() {
        let typed = match input {
            FnArg::Receiver(receiver) => {
                errors.push(syn::Error::new_spanned(
                    &*receiver,
                    "a #[tool] fn can't take `self`: write a free fn and receive shared values as `State<T>`, or implement the `Tool` trait for a type that owns state",
                ));
                continue;
            }
            FnArg::Typed(typed) => typed,
        };

        let mut tool_attrs = ParamAttrs::default();
        let mut doc_attrs = Vec::new();
        let mut forwarded = Vec::new();
        let mut kept = Vec::new();
        for attr in typed.attrs.drain(..) {
            let path = attr.path();
            if path.is_ident("tool") {
                tool_attrs.parse_into(&attr, errors);
            } else if path.is_ident("doc") {
                doc_attrs.push(attr);
            } else if path.is_ident("serde") || path.is_ident("schemars") {
                forwarded.push(attr);
            } else {
                kept.push(attr);
            }
        }
        typed.attrs = kept;

        let ident = match &*typed.pat {
            Pat::Ident(pat) if pat.subpat.is_none() && pat.by_ref.is_none() => pat.ident.clone(),
            other => {
                errors.push(syn::Error::new_spanned(
                    other,
                    "a #[tool] parameter must be a plain name, because the name is the argument's key in the JSON the model sends: write `point: (i32, i32)` and destructure in the body",
                ));
                continue;
            }
        };
        let ty = (*typed.ty).clone();

        let injected = tool_attrs.inject.is_some() || is_injected_type(&ty);
        let kind = if injected {
            if let Some(default) = &tool_attrs.default {
                errors.push(syn::Error::new_spanned(
                    default,
                    "an injected parameter can't have a default: the runtime supplies it",
                ));
            }
            ParamKind::Injected
        } else {
            check_argument_type(&ty, errors);
            if let (Some(default), true) = (&tool_attrs.default, is_option(&ty)) {
                errors.push(syn::Error::new_spanned(
                    default,
                    "`default` on an `Option` parameter: an `Option` is already optional and defaults to null; drop the `Option`, or drop the default",
                ));
            }
            let own_doc = docs::join_trimmed(
                &docs::doc_lines(&doc_attrs)
                    .iter()
                    .map(String::as_str)
                    .collect::<Vec<_>>(),
            );
            let doc = if own_doc.is_empty() {
                fn_docs.arguments.get(&ident.unraw().to_string()).cloned()
            } else {
                Some(own_doc)
            };
            ParamKind::Argument {
                doc,
                default: tool_attrs.default,
                forwarded,
            }
        };
        params.push(Param { ident, ty, kind });
    }
    params
}

fn check_argument_type(ty: &Type, errors: &mut Errors) {
    match ty {
        Type::Reference(reference) => errors.push(syn::Error::new_spanned(
            reference,
            "a #[tool] argument must own its value, because arguments are deserialized from the model's JSON: use `String` for `&str`, `Vec<T>` for `&[T]`",
        )),
        Type::ImplTrait(imp) => errors.push(syn::Error::new_spanned(
            imp,
            "a #[tool] argument can't be `impl Trait`: it needs one concrete type to derive a JSON Schema from",
        )),
        _ => {}
    }
}

/// The last path segment of a type, if it is a path: `std::option::Option<T>` → `Option`.
fn last_segment(ty: &Type) -> Option<&syn::PathSegment> {
    match ty {
        Type::Path(path) if path.qself.is_none() => path.path.segments.last(),
        Type::Group(group) => last_segment(&group.elem),
        Type::Paren(paren) => last_segment(&paren.elem),
        _ => None,
    }
}

fn is_option(ty: &Type) -> bool {
    last_segment(ty).is_some_and(|s| s.ident == "Option")
}

/// `State<T>` and `ToolContext` are injected by type; anything else needs `#[tool(inject)]`.
fn is_injected_type(ty: &Type) -> bool {
    last_segment(ty).is_some_and(|s| s.ident == "State" || s.ident == "ToolContext")
}

fn output_kind(output: &ReturnType) -> OutputKind {
    match output {
        ReturnType::Default => OutputKind::Unit,
        ReturnType::Type(_, ty) => match &**ty {
            Type::Tuple(tuple) if tuple.elems.is_empty() => OutputKind::Unit,
            ty if last_segment(ty).is_some_and(|s| s.ident == "Result") => OutputKind::Result,
            _ => OutputKind::Value,
        },
    }
}

/// The fn with every parameter attribute only the macro understands removed: what is left
/// when the macro has already failed, so rustc's own errors stay relevant.
pub fn strip_param_attrs(mut item: ItemFn) -> TokenStream {
    for input in item.sig.inputs.iter_mut() {
        if let FnArg::Typed(typed) = input {
            typed.attrs.retain(|a| {
                !["tool", "doc", "serde", "schemars"]
                    .iter()
                    .any(|k| a.path().is_ident(k))
            });
        }
    }
    quote::ToTokens::into_token_stream(item)
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    fn parse(args: TokenStream, item: TokenStream) -> syn::Result<ToolFn> {
        ToolFn::parse(args, syn::parse2(item).unwrap())
    }

    #[test]
    fn arguments_and_injected_params_are_told_apart() {
        let model = parse(
            quote!(read_only),
            quote! {
                /// Search.
                async fn search(
                    /// The query.
                    query: String,
                    #[tool(default = 10)] limit: u32,
                    db: State<Db>,
                    ctx: tool_runtime::ToolContext,
                    #[tool(inject)] clock: Clock,
                ) -> Result<Vec<String>, ToolError> { todo!() }
            },
        )
        .unwrap();
        assert_eq!(model.name.value(), "search");
        assert!(model.attrs.read_only);
        let kinds: Vec<bool> = model
            .params
            .iter()
            .map(|p| matches!(p.kind, ParamKind::Argument { .. }))
            .collect();
        assert_eq!(kinds, [true, true, false, false, false]);
        assert!(matches!(model.output, OutputKind::Result));
        match &model.params[0].kind {
            ParamKind::Argument { doc, .. } => assert_eq!(doc.as_deref(), Some("The query.")),
            ParamKind::Injected => unreachable!(),
        }
        // The macro's own attributes are gone from what rustc compiles.
        let first = match &model.item.sig.inputs[0] {
            FnArg::Typed(t) => t,
            FnArg::Receiver(_) => unreachable!(),
        };
        assert!(first.attrs.is_empty());
    }

    #[test]
    fn arguments_section_feeds_params_without_their_own_doc() {
        let model = parse(
            quote!(),
            quote! {
                /// Read.
                ///
                /// # Arguments
                /// * `path` - Where.
                /// * `limit` - Ignored, the param has its own.
                fn read(path: String, /// Own.
                    limit: u32) {}
            },
        )
        .unwrap();
        assert_eq!(model.description, "Read.");
        let docs: Vec<Option<String>> = model
            .params
            .iter()
            .map(|p| match &p.kind {
                ParamKind::Argument { doc, .. } => doc.clone(),
                ParamKind::Injected => None,
            })
            .collect();
        assert_eq!(docs, [Some("Where.".into()), Some("Own.".into())]);
    }

    #[test]
    fn every_mistake_is_reported_at_once() {
        let error = parse(
            quote!(name = "bad name", colour),
            quote! { fn f<T>(&self, (a, b): (i32, i32)) {} },
        )
        .err()
        .unwrap();
        let messages: Vec<String> = error.into_iter().map(|e| e.to_string()).collect();
        assert_eq!(messages.len(), 6, "{messages:#?}");
    }

    #[test]
    fn output_kinds_follow_the_return_type() {
        let kind = |ret: TokenStream| output_kind(&syn::parse2(ret).unwrap());
        assert!(matches!(kind(quote!()), OutputKind::Unit));
        assert!(matches!(kind(quote!(-> ())), OutputKind::Unit));
        assert!(matches!(
            kind(quote!(-> anyhow::Result<u8>)),
            OutputKind::Result
        ));
        assert!(matches!(kind(quote!(-> Vec<u8>)), OutputKind::Value));
    }

    #[test]
    fn names_are_checked() {
        assert!(valid_name("read_file-2"));
        assert!(!valid_name("read.file"));
        assert!(!valid_name(&"a".repeat(65)));
    }
}
