//! Injecting values of your own into tools: a parameter marked `#[tool(inject)]` (or typed
//! `State<T>` or `ToolContext`) is filled by [`Inject::inject`] from the call's
//! [`CallContext`] and never appears in the schema. A type that needs a registry state says
//! so in [`Inject::REQUIREMENT`] ([`StateRequirement`]), so a missing one is a build error,
//! not a failed call.

pub use crate::context::{CallContext, Inject};
pub use crate::state::StateRequirement;
