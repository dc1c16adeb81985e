//! Automatic registration of `#[tool]` fns through `inventory` (cargo feature `inventory`, on
//! by default). Without it, tools are added with `RegistryBuilder::register`.

use crate::def::ToolDef;

#[cfg(feature = "inventory")]
inventory::collect!(ToolDef);

/// Every `#[tool]` definition linked into the program.
pub(crate) fn collected() -> impl Iterator<Item = ToolDef> {
    #[cfg(feature = "inventory")]
    return inventory::iter::<ToolDef>.into_iter().copied();
    #[cfg(not(feature = "inventory"))]
    return std::iter::empty();
}

/// Registers a definition with `inventory`, or does nothing when the feature is off.
#[cfg(feature = "inventory")]
#[doc(hidden)]
#[macro_export]
macro_rules! __submit {
    ($def:expr) => {
        $crate::__private::inventory::submit! { $def }
    };
}

/// Registers a definition with `inventory`, or does nothing when the feature is off.
#[cfg(not(feature = "inventory"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __submit {
    ($def:expr) => {};
}
