//! Shared values given to the registry builder and injected into tools by type.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

/// A value of type `T` given to [`RegistryBuilder::state`](crate::RegistryBuilder::state),
/// injected into every tool that takes a `State<T>` parameter. Never part of the schema.
///
/// ```
/// use tool_runtime::{tool, State};
///
/// struct Greeting {
///     word: String,
/// }
///
/// /// Greet someone.
/// #[tool]
/// fn greet(name: String, greeting: State<Greeting>) -> String {
///     format!("{}, {name}!", greeting.word)
/// }
/// ```
pub struct State<T: ?Sized>(pub Arc<T>);

impl<T: ?Sized> State<T> {
    /// The shared handle.
    pub fn into_arc(self) -> Arc<T> {
        self.0
    }
}

impl<T: ?Sized> Deref for State<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: ?Sized> Clone for State<T> {
    fn clone(&self) -> Self {
        State(Arc::clone(&self.0))
    }
}

impl<T: ?Sized + fmt::Debug> fmt::Debug for State<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("State").field(&&*self.0).finish()
    }
}

/// The values a registry was given, by type.
#[derive(Clone, Default)]
pub(crate) struct StateMap(HashMap<TypeId, Arc<dyn Any + Send + Sync>>);

impl StateMap {
    pub(crate) fn insert<T: Send + Sync + 'static>(&mut self, value: Arc<T>) {
        self.0.insert(TypeId::of::<T>(), value);
    }

    pub(crate) fn contains(&self, id: TypeId) -> bool {
        self.0.contains_key(&id)
    }

    pub(crate) fn get<T: Send + Sync + 'static>(&self) -> Option<Arc<T>> {
        self.0
            .get(&TypeId::of::<T>())
            .cloned()
            .and_then(|v| v.downcast().ok())
    }
}

/// A type a tool needs from the registry's state: checked when the registry is built, so a
/// missing value is a build error, not a failed call.
#[derive(Clone, Copy, Debug)]
pub struct StateRequirement {
    /// The type's id.
    pub type_id: fn() -> TypeId,
    /// The type's name, for the error message.
    pub type_name: fn() -> &'static str,
}

impl StateRequirement {
    /// The requirement for a `State<T>`.
    pub const fn of<T: 'static>() -> StateRequirement {
        StateRequirement {
            type_id: TypeId::of::<T>,
            type_name: std::any::type_name::<T>,
        }
    }
}
