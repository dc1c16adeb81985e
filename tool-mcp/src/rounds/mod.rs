//! Protocol 2026-07-28's multi-round requests (SEP-2322): a request answered with the
//! questions its call needs answered (`input_required`) or the URLs its user must visit
//! (`url_required`), and sent again with the answers and the sealed `requestState`
//! (`round_trip`).

pub(crate) mod input_required;
pub(crate) mod round_trip;
pub(crate) mod url_required;
