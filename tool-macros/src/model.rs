//! The model of a `#[tool]` fn: what the expansion needs, parsed from the fn and its
//! attributes. The checks that turn misuse into compile errors are in `checks`.

use crate::attr::{Errors, FnAttrs, ParamAttrs};
use crate::checks::{
    check_argument_type, check_defer_task, check_inline, check_mcp_header, check_name,
    check_signature_shape, output_schema_type,
};
use crate::docs::{self, FnDocs};
use crate::types::{is_option, last_segment};
use proc_macro2::{TokenStream, TokenTree};
use syn::punctuated::Punctuated;
use syn::{
    Attribute, FnArg, GenericArgument, Ident, ItemFn, LitStr, Meta, Pat, PathArguments, ReturnType,
    Token, Type,
};

/// Everything the expansion needs to know about one tool fn.
pub(crate) struct ToolFn {
    /// The fn as rustc will see it: parameter attributes that only the macro understands removed.
    pub item: ItemFn,
    pub name: LitStr,
    pub description: String,
    pub attrs: FnAttrs,
    pub params: Vec<Param>,
    pub output: OutputKind,
    /// `#[tool(output_schema)]`: the type whose schema the output is declared to have.
    pub output_schema: Option<Type>,
}

/// One parameter of the fn.
pub(crate) struct Param {
    pub ident: Ident,
    pub ty: Type,
    pub kind: ParamKind,
}

/// Whether the model supplies the parameter or the runtime injects it.
pub(crate) enum ParamKind {
    /// Part of the arguments object and of the schema.
    Argument {
        doc: Option<String>,
        default: Option<Box<syn::Expr>>,
        /// `#[serde(...)]` and `#[schemars(...)]`, forwarded to the argument struct's field,
        /// also inside `#[cfg_attr(pred, ...)]`.
        forwarded: Vec<Attribute>,
        /// `#[tool(mcp_header = "Region")]`: the property's `x-mcp-header`.
        mcp_header: Option<LitStr>,
    },
    /// Taken from the call's context by type (`State<T>`, `ToolContext`, or `#[tool(inject)]`).
    Injected,
}

/// How the return value becomes a `ToolOutput`, chosen by the return type's shape.
#[derive(Clone, Copy)]
pub(crate) enum OutputKind {
    /// No return type, or `()`.
    Unit,
    /// A type named `Result`: `Ok` is the output, `Err` an error output.
    Result,
    /// Any other `Serialize` type (a `String` is text, a `ToolOutput` is kept).
    Value,
}

impl ToolFn {
    /// Parses and checks the fn; all errors are returned together.
    pub(crate) fn parse(args: TokenStream, mut item: ItemFn) -> syn::Result<ToolFn> {
        let mut errors = Errors::default();
        // Checks run in source order (attribute, signature, parameters), so the errors do too.
        let attrs = FnAttrs::parse(args, &mut errors);
        let raw_name = item.sig.ident.unraw().to_string();
        let name = attrs
            .name
            .clone()
            .unwrap_or_else(|| LitStr::new(&raw_name, item.sig.ident.span()));
        if let Err(problem) = check_name(&name.value()) {
            errors.push(syn::Error::new(
                name.span(),
                format!(
                    "invalid tool name {:?}: {problem}; a tool name is 1 to 64 ASCII letters, digits, `_` or `-` (what OpenAI and Anthropic accept)",
                    name.value()
                ),
            ));
        }
        check_signature_shape(&item, &mut errors);
        check_inline(&attrs, &item, &mut errors);
        check_defer_task(&attrs, &mut errors);

        let fn_docs = FnDocs::parse(&docs::doc_lines(&item.attrs));
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

        let params = parse_params(&mut item, &fn_docs, &mut errors);
        let output = output_kind(&item.sig.output);
        let output_schema = output_schema_type(&attrs, &item.sig.output, &mut errors);
        errors.finish()?;
        Ok(ToolFn {
            item,
            name,
            description,
            attrs,
            params,
            output,
            output_schema,
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

fn parse_params(item: &mut ItemFn, fn_docs: &FnDocs, errors: &mut Errors) -> Vec<Param> {
    let mut params = Vec::new();
    // The parameters with an `mcp_header` so far, and its name.
    let mut headers = Vec::new();
    for input in item.sig.inputs.iter_mut() {
        let typed = match input {
            FnArg::Receiver(receiver) => {
                errors.push(syn::Error::new_spanned(
                    &*receiver,
                    "a #[tool] fn can't take `self`: write a free fn outside the impl block, and take the shared value as a `State<T>` parameter",
                ));
                continue;
            }
            FnArg::Typed(typed) => typed,
        };

        if typed.attrs.iter().any(|a| a.path().is_ident("cfg")) {
            errors.push(syn::Error::new_spanned(
                &*typed,
                "`#[cfg]` on a tool parameter is not supported: the macro can't evaluate the condition, so the tool's schema and call can't follow it; write one #[tool] fn per configuration, or keep the parameter and put the `#[cfg]` on the code that uses it",
            ));
        }

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
            } else if path.is_ident("cfg_attr") {
                split_cfg_attr(attr, &mut forwarded, &mut kept, errors);
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
                    "a #[tool] parameter must be a plain name, because the name is the argument's key in the JSON the model sends: write `name: Type` and destructure it in the body",
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
            if let Some(header) = &tool_attrs.mcp_header {
                errors.push(syn::Error::new_spanned(
                    header,
                    "an injected parameter can't be an MCP header: the client never sends it; put `mcp_header` on an argument the model gives",
                ));
            }
            ParamKind::Injected
        } else {
            check_argument_type(&ty, errors);
            if let (Some(default), true) = (&tool_attrs.default, is_option(&ty)) {
                errors.push(syn::Error::new_spanned(
                    default,
                    "`default` on an `Option` parameter: a missing `Option` argument is already `None`; remove the `Option` to keep this default, or remove the default",
                ));
            }
            if let Some(header) = &tool_attrs.mcp_header {
                check_mcp_header(
                    header,
                    &ident.unraw().to_string(),
                    &ty,
                    &mut headers,
                    errors,
                );
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
                default: tool_attrs.default.map(Box::new),
                forwarded,
                mcp_header: tool_attrs.mcp_header,
            }
        };
        params.push(Param { ident, ty, kind });
    }
    params
}

/// The condition and attributes of a `#[cfg_attr(pred, a, b)]`; `None` for anything else,
/// or one rustc will reject on its own.
fn cfg_attr_parts(attr: &Attribute) -> Option<(Meta, Vec<Meta>)> {
    if !attr.path().is_ident("cfg_attr") {
        return None;
    }
    let metas = attr
        .parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)
        .ok()?;
    let mut metas = metas.into_iter();
    Some((metas.next()?, metas.collect()))
}

/// Splits a parameter's `#[cfg_attr(pred, ...)]`: its `serde`/`schemars` attributes go to the
/// argument struct's field under the same condition, the rest stay on the parameter.
fn split_cfg_attr(
    attr: Attribute,
    forwarded: &mut Vec<Attribute>,
    kept: &mut Vec<Attribute>,
    errors: &mut Errors,
) {
    let Some((pred, metas)) = cfg_attr_parts(&attr) else {
        kept.push(attr);
        return;
    };
    let (mut ours, mut others) = (Vec::new(), Vec::new());
    for meta in metas {
        let path = meta.path();
        if path.is_ident("serde") || path.is_ident("schemars") {
            ours.push(meta);
        } else if let Some(key) = ["tool", "doc", "cfg", "cfg_attr"]
            .into_iter()
            .find(|k| path.is_ident(k))
        {
            errors.push(syn::Error::new_spanned(
                &meta,
                format!("`{key}` inside `#[cfg_attr]` on a tool parameter is not supported: the macro reads it itself and can't evaluate the condition; write it without `cfg_attr`"),
            ));
        } else {
            others.push(meta);
        }
    }
    if !ours.is_empty() {
        forwarded.push(syn::parse_quote!(#[cfg_attr(#pred, #(#ours),*)]));
    }
    if !others.is_empty() {
        kept.push(syn::parse_quote!(#[cfg_attr(#pred, #(#others),*)]));
    }
}

/// Whether a forwarded attribute is a `kind(...)` (say `serde`), possibly inside a
/// `cfg_attr`, that mentions the key `word` (say `flatten`).
pub(crate) fn mentions(attr: &Attribute, kind: &str, word: &str) -> bool {
    if attr.path().is_ident(kind) {
        return contains(quote::ToTokens::to_token_stream(&attr.meta), word);
    }
    cfg_attr_parts(attr).is_some_and(|(_, metas)| {
        metas
            .iter()
            .any(|m| m.path().is_ident(kind) && contains(quote::ToTokens::to_token_stream(m), word))
    })
}

fn contains(tokens: TokenStream, word: &str) -> bool {
    tokens.into_iter().any(|tt| match tt {
        TokenTree::Ident(ident) => ident == word,
        TokenTree::Group(group) => contains(group.stream(), word),
        _ => false,
    })
}

/// `State<T>` and `ToolContext` are injected by type; anything else needs `#[tool(inject)]`.
/// A `State` without exactly one type argument is the user's own type, not the runtime's.
fn is_injected_type(ty: &Type) -> bool {
    last_segment(ty).is_some_and(|s| match &s.arguments {
        PathArguments::AngleBracketed(args) if s.ident == "State" => {
            args.args.len() == 1 && matches!(args.args[0], GenericArgument::Type(_))
        }
        _ => s.ident == "ToolContext",
    })
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
pub(crate) fn strip_param_attrs(mut item: ItemFn) -> TokenStream {
    for input in item.sig.inputs.iter_mut() {
        if let FnArg::Typed(typed) = input {
            let ours = |path: &syn::Path| {
                ["tool", "doc", "serde", "schemars"]
                    .iter()
                    .any(|k| path.is_ident(k))
            };
            typed.attrs.retain(|a| {
                !ours(a.path())
                    && !cfg_attr_parts(a).is_some_and(|(_, m)| m.iter().any(|m| ours(m.path())))
            });
        }
    }
    quote::ToTokens::into_token_stream(item)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::borrowed_or_opaque;
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
    fn mcp_headers_are_kept_and_names_checked() {
        let model = parse(
            quote!(),
            quote! {
                /// Route.
                fn route(#[tool(mcp_header = "Region")] region: String, zone: String) {}
            },
        )
        .unwrap();
        let headers: Vec<Option<String>> = model
            .params
            .iter()
            .map(|p| match &p.kind {
                ParamKind::Argument { mcp_header, .. } => mcp_header.as_ref().map(LitStr::value),
                ParamKind::Injected => None,
            })
            .collect();
        assert_eq!(headers, [Some("Region".to_owned()), None]);

        let error = parse(
            quote!(),
            quote! {
                /// Route.
                fn route(
                    #[tool(mcp_header = "Region")] region: String,
                    #[tool(mcp_header = "region")] zone: String,
                    #[tool(mcp_header = "Two Words")] shard: u8,
                ) {}
            },
        )
        .err()
        .unwrap();
        let messages: Vec<String> = error.into_iter().map(|e| e.to_string()).collect();
        assert_eq!(messages.len(), 2, "{messages:#?}");
        assert!(messages[0].starts_with("`region` already goes as the header `Mcp-Param-Region`, and header names ignore case"), "{messages:#?}");
        assert!(
            messages[1].starts_with(r#"invalid MCP header name "Two Words": it contains ' '"#),
            "{messages:#?}"
        );
    }

    #[test]
    fn only_a_state_with_one_type_argument_is_injected() {
        let injected = |ty: TokenStream| is_injected_type(&syn::parse2(ty).unwrap());
        assert!(injected(quote!(State<Db>)));
        assert!(injected(quote!(tool_runtime::State<dyn Store>)));
        assert!(!injected(quote!(State)));
        assert!(!injected(quote!(crate::ticket::State)));
        assert!(!injected(quote!(State<A, B>)));
    }

    #[test]
    fn cfg_attr_serde_is_forwarded_and_the_rest_kept() {
        let model = parse(
            quote!(),
            quote! {
                /// Find.
                fn find(
                    #[cfg_attr(test, serde(flatten), allow(unused))] extra: Map,
                ) {}
            },
        )
        .unwrap();
        let ParamKind::Argument { forwarded, .. } = &model.params[0].kind else {
            unreachable!()
        };
        assert_eq!(forwarded.len(), 1);
        assert!(mentions(&forwarded[0], "serde", "flatten"));
        assert!(!mentions(&forwarded[0], "schemars", "flatten"));
        let FnArg::Typed(param) = &model.item.sig.inputs[0] else {
            unreachable!()
        };
        let kept = &param.attrs[0];
        assert_eq!(
            quote!(#kept).to_string(),
            quote!(#[cfg_attr(test, allow(unused))]).to_string()
        );
    }

    #[test]
    fn cfg_on_a_parameter_is_an_error() {
        let error = parse(
            quote!(),
            quote! {
                /// Find.
                fn find(#[cfg(unix)] a: u8, #[cfg_attr(unix, tool(default = 1))] b: u8) {}
            },
        )
        .err()
        .unwrap();
        let messages: Vec<String> = error.into_iter().map(|e| e.to_string()).collect();
        assert_eq!(messages.len(), 2, "{messages:#?}");
        assert!(messages[0].starts_with("`#[cfg]` on a tool parameter"));
        assert!(messages[1].starts_with("`tool` inside `#[cfg_attr]`"));
    }

    #[test]
    fn references_are_found_inside_argument_types() {
        let found = |ty: TokenStream| {
            let ty: Type = syn::parse2(ty).unwrap();
            borrowed_or_opaque(&ty).map(|t| quote!(#t).to_string())
        };
        assert_eq!(found(quote!(Option<&str>)).as_deref(), Some("& str"));
        assert_eq!(
            found(quote!((u8, Vec<impl Sized>))).as_deref(),
            Some("impl Sized")
        );
        assert_eq!(found(quote!(std::borrow::Cow<'static, str>)), None);
        assert_eq!(found(quote!(HashMap<String, [u8; 4]>)), None);
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
        assert_eq!(check_name("read_file-2"), Ok(()));
        assert_eq!(check_name(&"a".repeat(64)), Ok(()));
        assert_eq!(check_name("read.file"), Err("it contains '.'".into()));
        assert_eq!(check_name("a b c!"), Err("it contains ' ', '!'".into()));
        assert_eq!(
            check_name(&"a".repeat(65)),
            Err("it is 65 characters long".into())
        );
        assert_eq!(check_name(""), Err("it is empty".into()));
    }
}
