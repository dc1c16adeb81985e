//! Compile-fail tests of `#[tool]`: each `ui/*.rs` must fail to build with exactly the
//! diagnostics in its checked-in `.stderr`, and each `ui/pass/*.rs` must build.
//!
//! Regenerate the expected output after a deliberate change with
//! `TRYBUILD=overwrite cargo test -p tool-tests --test ui`, then read every `.stderr` diff.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/*.rs");
    t.pass("ui/pass/*.rs");
}
