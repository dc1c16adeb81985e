//! What the macro reads from a type by its path alone (it sees tokens, not resolved types).

use syn::Type;

/// The last path segment of a type, if it is a path: `std::option::Option<T>` → `Option`.
pub(crate) fn last_segment(ty: &Type) -> Option<&syn::PathSegment> {
    match ty {
        Type::Path(path) if path.qself.is_none() => path.path.segments.last(),
        Type::Group(group) => last_segment(&group.elem),
        Type::Paren(paren) => last_segment(&paren.elem),
        _ => None,
    }
}

/// Whether a type is an `Option<T>`, by its last path segment.
pub(crate) fn is_option(ty: &Type) -> bool {
    last_segment(ty).is_some_and(|s| s.ident == "Option")
}
