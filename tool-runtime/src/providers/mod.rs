//! Every model API the registry speaks, one folder each.

pub(crate) mod ollama;
