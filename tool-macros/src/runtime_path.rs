//! Where the generated code finds `tool-runtime`: under the name the user's `Cargo.toml`
//! gives it (`rt = { package = "tool-runtime" }` makes it `::rt`), read with
//! `proc-macro-crate` as rig-derive and others do.

use proc_macro2::{Span, TokenStream};
use proc_macro_crate::{crate_name, FoundCrate};
use quote::quote;

/// The path of the runtime crate, as the generated code names it: `::tool_runtime`, or the
/// name the dependency was renamed to.
pub(crate) fn runtime_path() -> TokenStream {
    match crate_name("tool-runtime") {
        Ok(FoundCrate::Name(name)) => {
            let ident = syn::Ident::new(&name, Span::call_site());
            quote!(::#ident)
        }
        // `tool-runtime`'s own tests and doctests are crates of their own, which name it
        // `tool_runtime` (the library names itself so too, `extern crate self`); and when the
        // manifest can't be read, the usual name is the best guess.
        Ok(FoundCrate::Itself) | Err(_) => quote!(::tool_runtime),
    }
}
