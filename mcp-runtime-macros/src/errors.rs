//! The error collector every phase records into.
//!
//! A macro that stops at its first error makes the user compile once per mistake; every
//! phase here records each problem and carries on with what is valid, and the expansion
//! reports them all at once. This module imports nothing else of the crate, so `attr`,
//! `model` and `expand` can all use it without depending on one another.

use proc_macro2::TokenStream;

/// Collects errors so one compile reports all of them.
#[derive(Default)]
pub struct Errors(Vec<syn::Error>);

impl Errors {
    /// Records one error; its span is where rustc will underline it.
    pub fn push(&mut self, error: syn::Error) {
        self.0.push(error);
    }

    /// All errors as `compile_error!` invocations.
    pub fn to_compile_errors(&self) -> TokenStream {
        self.0.iter().map(syn::Error::to_compile_error).collect()
    }

    /// Whether nothing was recorded, so the expansion may go ahead.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}
