//! Compile-time behaviour of `#[mcp_tool]`: every supported shape compiles, and every misuse
//! is an error on the offending token in words that say what to do.
//!
//! The `.stderr` files depend on the compiler's wording: refresh them with
//! `TRYBUILD=overwrite cargo test -p mcp-tests --test ui` and review the diff.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.pass("ui/pass/*.rs");
    cases.compile_fail("ui/fail/*.rs");
}
