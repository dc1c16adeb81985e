//! Code generation: the checked model becomes the fn, an argument struct, and a `ToolDef`.
//!
//! Everything that can be generic runtime code is: the expansion only wires the signature
//! to `::tool_runtime::__private`, which keeps compile time and error messages small.

use crate::model::{mentions, OutputKind, Param, ParamKind, ToolFn};
use crate::runtime_path::Runtime;
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned, ToTokens};
use syn::spanned::Spanned;
use syn::{Ident, ItemFn, LitBool, ReturnType};

pub(crate) fn expand(model: ToolFn) -> TokenStream {
    let ToolFn {
        item,
        name,
        description,
        attrs,
        params,
        output,
        output_schema,
    } = &model;
    let fn_ident = &item.sig.ident;
    let vis = &item.vis;
    // Mixed-site hygiene: these locals can't clash with parameter names.
    let args = Ident::new("__tool_args", Span::mixed_site());
    let cx = Ident::new("__tool_cx", Span::mixed_site());

    let Wired {
        fields,
        default_fns,
        field_idents,
        field_locals,
        injections,
        requirements,
        call_args,
        flattened,
    } = wire_params(params, &cx);

    let pending = pending_call(item, output, &call_args, &cx);

    let description = description.as_str();
    // Spanned on the path, so a fn of the wrong shape is reported where it is named.
    let resolver = match &attrs.resolver {
        Some(path) => quote_spanned! {path.span()=>
            ::core::option::Option::Some({
                let resolver: __tr::ResolverFn = #path;
                resolver
            })
        },
        None => quote!(::core::option::Option::None),
    };
    let (read_only, destructive, idempotent, open_world) = (
        attrs.read_only,
        attrs.destructive,
        attrs.idempotent,
        attrs.open_world,
    );
    let strict = attrs.strict.as_ref().is_none_or(LitBool::value);
    let inline = attrs.inline.is_some();
    let parallel = optional(attrs.parallel.as_ref());
    let max_output = optional(attrs.max_output.as_ref());
    let timeout_ms = optional(attrs.timeout.as_ref().map(|(_, ms)| ms));
    let title = optional(attrs.title.as_ref());
    // Spanned on the type, so a type without a schema is reported at the return type.
    let output_schema = match output_schema {
        Some(ty) => quote_spanned! {ty.span()=>
            ::core::option::Option::Some(__tr::output_schema_of::<#ty>)
        },
        None => quote!(::core::option::Option::None),
    };
    let error_format = Ident::new(attrs.error_format.unwrap_or("Text"), Span::call_site());
    let task = Ident::new(attrs.task.unwrap_or("Forbidden"), Span::call_site());
    let defer_task = attrs.defer_task.is_some();
    // The derives' own call site is where rustc points when an argument type lacks
    // `Deserialize` somewhere it can't name the field (serde's missing-field path): the
    // parameter list, not the `#[tool]` attribute.
    let derive = quote_spanned! {item.sig.paren_token.span.join()=>
        #[derive(__tr::serde::Deserialize, __tr::schemars::JsonSchema)]
    };
    // serde doesn't support `deny_unknown_fields` with `flatten`: it would refuse every key the
    // flattened field should collect.
    let deny_unknown = (!flattened).then(|| quote!(, deny_unknown_fields));
    let handle_doc = format!("The `#[tool]` definition of [`{fn_ident}()`]: pass `{fn_ident}::TOOL` to `RegistryBuilder::register`.");

    let runtime = Runtime::find();
    let krate = runtime.path();
    let serde_crate = runtime.private_path_text("serde");
    let schemars_crate = runtime.private_path_text("schemars");

    quote! {
        #item

        #[doc = #handle_doc]
        #[doc(hidden)]
        #[allow(non_camel_case_types, dead_code)]
        #vis struct #fn_ident {}

        // Wiring up a `#[deprecated]` tool fn isn't a use of it; the user's own calls still warn.
        #[allow(deprecated)]
        const _: () = {
            use #krate::__private as __tr;

            #derive
            #[serde(crate = #serde_crate #deny_unknown)]
            #[schemars(crate = #schemars_crate)]
            #[allow(non_camel_case_types, non_snake_case)]
            struct __ToolArgs {
                #(#fields)*
            }

            #(#default_fns)*

            fn __tool_invoke<'a>(
                #args: __tr::Args<'a>,
                #cx: &'a __tr::CallContext<'a>,
            ) -> __tr::Pending<'a> {
                let __ToolArgs { #(#field_idents: #field_locals),* } = match #args.parse::<__ToolArgs>(#cx) {
                    ::core::result::Result::Ok(parsed) => parsed,
                    ::core::result::Result::Err(output) => return __tr::Pending::Refused(output),
                };
                #(#injections)*
                #pending
            }

            impl #fn_ident {
                /// This tool's definition, for `RegistryBuilder::register`.
                pub const TOOL: __tr::ToolDef = __tr::ToolDef {
                    name: #name,
                    title: #title,
                    description: #description,
                    flags: __tr::ToolFlags {
                        read_only: #read_only,
                        destructive: #destructive,
                        idempotent: #idempotent,
                        open_world: #open_world,
                        strict: #strict,
                        parallel: #parallel,
                        inline: #inline,
                        task: __tr::TaskSupport::#task,
                        defer_task: #defer_task,
                    },
                    schema: <__ToolArgs as __tr::schemars::JsonSchema>::json_schema,
                    output_schema: #output_schema,
                    invoke: __tool_invoke,
                    requires: &[#(#requirements),*],
                    resolver: #resolver,
                    timeout_ms: #timeout_ms,
                    max_output: #max_output,
                    error_format: __tr::ErrorFormat::#error_format,
                    location: __tr::SourceLocation {
                        file: ::core::file!(),
                        line: ::core::line!(),
                        column: ::core::column!(),
                    },
                };
            }

            __tr::submit!(#fn_ident::TOOL);
        };
    }
}

/// What the parameters become: the argument struct's fields (with their default fns), the
/// locals the struct is taken apart into, the injected values, and the call's arguments.
#[derive(Default)]
struct Wired<'a> {
    fields: Vec<TokenStream>,
    default_fns: Vec<TokenStream>,
    field_idents: Vec<&'a Ident>,
    field_locals: Vec<Ident>,
    injections: Vec<TokenStream>,
    requirements: Vec<TokenStream>,
    call_args: Vec<Ident>,
    /// A `#[serde(flatten)]` field takes the keys no other field does.
    flattened: bool,
}

fn wire_params<'a>(params: &'a [Param], cx: &Ident) -> Wired<'a> {
    let mut wired = Wired::default();
    for (i, param) in params.iter().enumerate() {
        let ident = &param.ident;
        let ty = &param.ty;
        // The values live in generated locals: a parameter named like the fn would shadow it.
        let local = Ident::new(&format!("__tool_arg_{i}"), Span::mixed_site());
        wired.call_args.push(local.clone());
        match &param.kind {
            ParamKind::Argument {
                doc,
                default,
                forwarded,
                mcp_header,
            } => {
                let describes = forwarded
                    .iter()
                    .any(|a| mentions(a, "schemars", "description"));
                wired.flattened |= forwarded.iter().any(|a| mentions(a, "serde", "flatten"));
                let doc_attr = match doc {
                    Some(doc) if !describes => quote!(#[schemars(description = #doc)]),
                    _ => quote!(),
                };
                let default_attr = default.as_ref().map(|expr| {
                    let default_fn = format_ident!(
                        "__tool_default_{}",
                        ident.to_string().trim_start_matches("r#")
                    );
                    let path = default_fn.to_string();
                    // A typed `let` makes a mismatch read "expected due to this" at the
                    // parameter's type, not "because of return type".
                    let value = Ident::new("__tool_default", Span::mixed_site());
                    let at_expr = Span::call_site().located_at(expr.span());
                    wired.default_fns.push(quote_spanned! {at_expr=>
                        fn #default_fn() -> #ty {
                            let #value: #ty = #expr;
                            #value
                        }
                    });
                    quote!(#[serde(default = #path)])
                });
                // MCP's name for it (SEP-2243): the client sends the argument as the header
                // `Mcp-Param-{name}` too, and the server checks that the two agree.
                let header_attr = mcp_header
                    .as_ref()
                    .map(|name| quote!(#[schemars(extend("x-mcp-header" = #name))]));
                wired.fields.push(quote! {
                    #doc_attr
                    #default_attr
                    #header_attr
                    #(#forwarded)*
                    #ident: #ty,
                });
                wired.field_idents.push(ident);
                wired.field_locals.push(local);
            }
            ParamKind::Injected => {
                wired.injections.push(quote_spanned! {ty.span()=>
                    let #local = match <#ty as __tr::Inject>::inject(#cx) {
                        ::core::result::Result::Ok(value) => value,
                        ::core::result::Result::Err(output) => return __tr::Pending::Refused(output),
                    };
                });
                wired
                    .requirements
                    .push(quote_spanned!(ty.span()=> <#ty as __tr::Inject>::REQUIREMENT));
            }
        }
    }
    wired
}

/// The call of the user's fn and its output's conversion, as the `Pending` the invoke fn
/// returns: run inline or on the blocking pool for a sync fn, boxed for an async one.
fn pending_call(
    item: &ItemFn,
    output: &OutputKind,
    call_args: &[Ident],
    cx: &Ident,
) -> TokenStream {
    let fn_ident = &item.sig.ident;
    // The call and its conversion are located at the return type, so a return type that
    // isn't `Serialize` (or an error type that isn't `Display`) is reported there.
    let (convert, return_span) = match (output, &item.sig.output) {
        (OutputKind::Result, ReturnType::Type(_, ty)) => ("result_output", ty.span()),
        (OutputKind::Value, ReturnType::Type(_, ty)) => ("value_output", ty.span()),
        _ => ("unit_output", Span::call_site()),
    };
    let at_return = Span::call_site().located_at(return_span);
    let convert = Ident::new(convert, at_return);
    let mut callee = fn_ident.clone();
    callee.set_span(fn_ident.span().located_at(return_span));
    let call = quote_spanned!(at_return=> #callee(#(#call_args),*));
    if item.sig.asyncness.is_some() {
        let converted = quote_spanned!(at_return=> __tr::#convert(#call.await));
        quote!(__tr::Pending::Async(__tr::Box::pin(async move { #converted })))
    } else {
        let converted = quote_spanned!(at_return=> __tr::#convert(#call));
        quote!(__tr::sync_pending(#cx, move || #converted))
    }
}

/// `Some(value)` or `None`, as tokens.
fn optional<T: ToTokens>(value: Option<&T>) -> TokenStream {
    match value {
        Some(value) => quote!(::core::option::Option::Some(#value)),
        None => quote!(::core::option::Option::None),
    }
}

/// What stands in for a tool whose `#[tool]` has a mistake (already reported): the handle
/// with a `TOOL` that is never registered, so `f::TOOL` elsewhere gives no second error. A
/// method (a `self` receiver) gets none: a struct can't stand inside an `impl`.
pub(crate) fn fallback(item: &syn::ItemFn) -> TokenStream {
    if item.sig.receiver().is_some() {
        return TokenStream::new();
    }
    let vis = &item.vis;
    let fn_ident = &item.sig.ident;
    let name = fn_ident.to_string();
    let krate = Runtime::find().path();
    quote! {
        #[doc(hidden)]
        #[allow(non_camel_case_types, dead_code)]
        #vis struct #fn_ident {}

        impl #fn_ident {
            /// A stand-in: this tool's `#[tool]` has a mistake, reported above.
            pub const TOOL: #krate::__private::ToolDef = #krate::__private::fallback_tool(#name);
        }
    }
}
