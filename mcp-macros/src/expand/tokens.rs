//! Small token helpers shared by the steps of the expansion.
//!
//! A leaf of `expand`: the steps import it, it imports none of them.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};

/// `::core::option::Option::Some(value)` or `::core::option::Option::None`: the optional
/// fields of the descriptor, spelled with full paths so that no name in the user's scope
/// can change their meaning.
pub fn option(value: Option<impl ToTokens>) -> TokenStream {
    match value {
        Some(value) => quote!(::core::option::Option::Some(#value)),
        None => quote!(::core::option::Option::None),
    }
}
