//! Each provider's documented rules for tool definitions, written from its documentation (not
//! from the exporter's code), as checkers that list every violation they find.
//!
//! Every rule names its source. A checker returns one line per violation:
//! `tool /json/pointer: what is wrong [source]`, so a failing test says all of it at once.

#![allow(dead_code)]

pub mod anthropic;
pub mod common;
pub mod gemini;
pub mod mcp;
pub mod openai;
