//! Tool calls written inside plain text.
