//! The checks that turn misuse of `#[tool]` into precise compile errors: the name, the fn's
//! shape (generics, `where`, `self`, ABI, ...), each argument's type and MCP header. Each
//! pushes its error and lets the others run, so the user sees every mistake at once.

use crate::attr::{Errors, FnAttrs};
use crate::types::{is_option, last_segment};
use syn::{GenericArgument, ItemFn, LitStr, PathArguments, ReturnType, Type};

/// Tool names every provider accepts: `^[a-zA-Z0-9_-]{1,64}$`. The error says what breaks it.
pub(crate) fn check_name(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("it is empty".to_owned());
    }
    outside(name, |c| c.is_ascii_alphanumeric() || c == '_' || c == '-')?;
    if name.len() > 64 {
        return Err(format!("it is {} characters long", name.len()));
    }
    Ok(())
}

/// Checks one `mcp_header = "..."` on parameter `param`: a name that can be a header, on a
/// type whose schema MCP allows one on, and not a name an earlier parameter took, ignoring
/// case as header names do (`taken`: each earlier parameter and its header's name).
pub(crate) fn check_mcp_header(
    header: &LitStr,
    param: &str,
    ty: &Type,
    taken: &mut Vec<(String, String)>,
    errors: &mut Errors,
) {
    let name = header.value();
    if let Err(problem) = header_name(&name) {
        errors.push(syn::Error::new(
            header.span(),
            format!(
                "invalid MCP header name {name:?}: {problem}; the argument is sent as the header `Mcp-Param-{{name}}`, so the name is ASCII letters, digits and any of !#$%&'*+-.^_`|~ (an HTTP token, RFC 9110)"
            ),
        ));
    } else if let Some((first, its)) = taken.iter().find(|(_, t)| t.eq_ignore_ascii_case(&name)) {
        errors.push(syn::Error::new(
            header.span(),
            format!("`{first}` already goes as the header `Mcp-Param-{its}`, and header names ignore case: give each parameter its own name"),
        ));
    } else {
        taken.push((param.to_owned(), name));
    }
    if is_option(ty) {
        errors.push(syn::Error::new(
            header.span(),
            "`mcp_header` on an `Option` parameter: its schema also accepts `null`, and MCP allows `x-mcp-header` only on a string, integer or boolean property; remove the `Option` and make the argument required, or give it a `#[tool(default = ...)]`",
        ));
    }
}

/// An `mcp_header` name: an HTTP token (RFC 9110 `tchar`s), what MCP's `x-mcp-header` must
/// be for `Mcp-Param-{name}` to be a header at all. The error says what breaks it.
fn header_name(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("it is empty".to_owned());
    }
    outside(name, is_tchar)
}

/// `Err("it contains ' ', '!'")`: each character of `name` that `allowed` refuses, once.
fn outside(name: &str, allowed: impl Fn(char) -> bool) -> Result<(), String> {
    let mut bad: Vec<char> = Vec::new();
    for c in name.chars() {
        if !(allowed(c) || bad.contains(&c)) {
            bad.push(c);
        }
    }
    if bad.is_empty() {
        return Ok(());
    }
    let listed: Vec<String> = bad.iter().map(|c| format!("{c:?}")).collect();
    Err(format!("it contains {}", listed.join(", ")))
}

/// RFC 9110 §5.6.2 `tchar`: the characters of an HTTP token, such as a header name.
fn is_tchar(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

/// `inline` runs a sync fn on the caller's task: meaningless for an async fn, and a timeout
/// could not stop it there.
pub(crate) fn check_inline(attrs: &FnAttrs, item: &ItemFn, errors: &mut Errors) {
    let Some(span) = attrs.inline else {
        return;
    };
    if item.sig.asyncness.is_some() {
        errors.push(syn::Error::new(
            span,
            "`inline` is for sync fns: an async fn already runs on the caller's task; remove `inline`",
        ));
    }
    if let Some((timeout, _)) = &attrs.timeout {
        errors.push(syn::Error::new_spanned(
            timeout,
            "an `inline` tool runs on the caller's thread, where a timeout can't stop it: remove `timeout`, or `inline` to run on the blocking pool where the timeout holds",
        ));
    }
}

/// `defer_task` says when a task starts: meaningless for a tool that never runs as one.
pub(crate) fn check_defer_task(attrs: &FnAttrs, errors: &mut Errors) {
    let Some(span) = attrs.defer_task else {
        return;
    };
    if matches!(attrs.task, None | Some("Forbidden")) {
        errors.push(syn::Error::new(
            span,
            "`defer_task` says when a call becomes an MCP task, and this tool never runs as one: add `task` (or `task = \"required\"`), or remove `defer_task`",
        ));
    }
}

pub(crate) fn check_signature_shape(item: &ItemFn, errors: &mut Errors) {
    let sig = &item.sig;
    if !sig.generics.params.is_empty() {
        errors.push(syn::Error::new_spanned(
            &sig.generics,
            "a #[tool] fn can't be generic: the JSON Schema needs one concrete type per argument; remove the generic parameters and write concrete types",
        ));
    } else if let Some(clause) = &sig.generics.where_clause {
        errors.push(syn::Error::new_spanned(
            clause,
            "a #[tool] fn can't have a where clause: remove it and write concrete types",
        ));
    }
    if let Some(unsafety) = &sig.unsafety {
        errors.push(syn::Error::new_spanned(
            unsafety,
            "a #[tool] fn can't be `unsafe`: a model can't uphold a safety contract; remove `unsafe` here and use an `unsafe { .. }` block inside the body",
        ));
    }
    if let Some(abi) = &sig.abi {
        errors.push(syn::Error::new_spanned(
            abi,
            "a #[tool] fn can't have an `extern` ABI: remove it",
        ));
    }
    if let Some(variadic) = &sig.variadic {
        errors.push(syn::Error::new_spanned(
            variadic,
            "a #[tool] fn can't be variadic: take a `Vec<T>` argument instead",
        ));
    }
}

pub(crate) fn check_argument_type(ty: &Type, errors: &mut Errors) {
    match borrowed_or_opaque(ty) {
        Some(Type::Reference(reference)) => {
            let owned = match &*reference.elem {
                Type::Path(path) if path.qself.is_none() && path.path.is_ident("str") => {
                    "write `String` instead of `&str`"
                }
                Type::Slice(_) => "write `Vec<T>` instead of `&[T]`",
                _ => "write an owned type instead, such as `T` for `&T` or `PathBuf` for `&Path`",
            };
            errors.push(syn::Error::new_spanned(
                reference,
                format!("a #[tool] argument must own its value, because it is deserialized from the model's JSON: {owned}"),
            ));
        }
        Some(imp @ Type::ImplTrait(_)) => errors.push(syn::Error::new_spanned(
            imp,
            "a #[tool] argument can't be `impl Trait`: the JSON Schema needs one concrete type; write that type instead",
        )),
        _ => {}
    }
}

/// The first `&T` or `impl Trait` anywhere in an argument type (`Option<&str>` included):
/// neither can be deserialized from the model's JSON or described by one schema.
pub(crate) fn borrowed_or_opaque(ty: &Type) -> Option<&Type> {
    match ty {
        Type::Reference(_) | Type::ImplTrait(_) => Some(ty),
        Type::Paren(paren) => borrowed_or_opaque(&paren.elem),
        Type::Group(group) => borrowed_or_opaque(&group.elem),
        Type::Array(array) => borrowed_or_opaque(&array.elem),
        Type::Slice(slice) => borrowed_or_opaque(&slice.elem),
        Type::Tuple(tuple) => tuple.elems.iter().find_map(borrowed_or_opaque),
        Type::Path(path) => {
            path.path
                .segments
                .iter()
                .find_map(|segment| match &segment.arguments {
                    PathArguments::AngleBracketed(args) => {
                        args.args.iter().find_map(|arg| match arg {
                            GenericArgument::Type(ty) => borrowed_or_opaque(ty),
                            _ => None,
                        })
                    }
                    _ => None,
                })
        }
        _ => None,
    }
}

/// The type whose schema `#[tool(output_schema)]` declares: the return type, or the `T` of a
/// `Result<T, E>`. `None` (with the error pushed) when there is no such type to describe.
pub(crate) fn output_schema_type(
    attrs: &FnAttrs,
    output: &ReturnType,
    errors: &mut Errors,
) -> Option<Type> {
    let span = attrs.output_schema?;
    let ty = match output {
        ReturnType::Type(_, ty) if !matches!(&**ty, Type::Tuple(t) if t.elems.is_empty()) => ty,
        _ => {
            errors.push(syn::Error::new(
                span,
                "`output_schema` declares the schema of the return value, but this fn returns nothing: return the value (a type that derives `schemars::JsonSchema`), or remove `output_schema`",
            ));
            return None;
        }
    };
    let value = match last_segment(ty) {
        Some(segment) if segment.ident == "Result" => match &segment.arguments {
            PathArguments::AngleBracketed(args) => args.args.iter().find_map(|arg| match arg {
                GenericArgument::Type(ty) => Some(ty),
                _ => None,
            }),
            _ => None,
        },
        _ => Some(&**ty),
    };
    let Some(value) = value else {
        errors.push(syn::Error::new_spanned(
            ty,
            "`output_schema` needs to see the value type of this `Result`: write it as `Result<T, E>`",
        ));
        return None;
    };
    if let Some(opaque) = borrowed_or_opaque(value).filter(|t| matches!(t, Type::ImplTrait(_))) {
        errors.push(syn::Error::new_spanned(
            opaque,
            "`output_schema` needs a concrete return type to describe: write the type instead of `impl Trait`, or remove `output_schema`",
        ));
        return None;
    }
    Some(value.clone())
}
