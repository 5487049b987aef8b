//! Compile-time behaviour of `#[mcp_tool]`: every supported shape compiles, and every misuse
//! is an error on the offending token in words that say what to do.
//!
//! The `.stderr` files depend on the compiler's wording: refresh them with
//! `TRYBUILD=overwrite cargo test -p mcp-tests --test ui` and review the diff. They are
//! written for rustc 1.95, so on any other compiler the compile-error cases are skipped,
//! with the reason printed, rather than failing on changed wording.
//!
//! One test function on purpose: trybuild builds every case in one shared project
//! (`target/tests/trybuild/mcp-tests`), so two `TestCases` running in parallel test threads
//! overwrite each other's files (pass cases were then checked as fail cases).

#[test]
fn supported_shapes_compile_and_misuse_is_a_compile_error_on_the_offending_token() {
    let cases = trybuild::TestCases::new();
    cases.pass("ui/pass/*.rs");
    if rustversion::cfg!(stable(1.95)) {
        cases.compile_fail("ui/fail/*.rs");
    } else {
        eprintln!(
            "skipping ui/fail: the .stderr files are written for rustc 1.95 stable, and this \
             compiler's wording differs"
        );
    }
}
