//! Compile-time behaviour of `#[mcp_tool]`: every supported shape compiles, and every misuse
//! is an error on the offending token in words that say what to do.
//!
//! The `.stderr` files depend on the compiler's wording: refresh them with
//! `TRYBUILD=overwrite cargo test -p mcp-tests --test ui` and review the diff. They are
//! written for rustc 1.95, so on any other compiler the compile-error cases are skipped
//! (reported as ignored, with the reason) rather than failing on changed wording.

#[test]
fn supported_shapes_compile() {
    trybuild::TestCases::new().pass("ui/pass/*.rs");
}

#[rustversion::attr(
    not(stable(1.95)),
    ignore = "the .stderr files are written for rustc 1.95 stable; on this compiler the wording differs (run with --ignored to compare anyway)"
)]
#[test]
fn misuse_is_a_compile_error_on_the_offending_token() {
    trybuild::TestCases::new().compile_fail("ui/fail/*.rs");
}
