//! The behaviour hints of the descriptor (`read_only`, `destructive`, `idempotent`,
//! `open_world`), which clients see as the tool's `annotations`.

use proc_macro2::TokenStream;
use quote::quote;

use super::tokens::option;
use crate::model::Tool;

/// `ToolHints { ... }`: each hint `Some` as stated, `None` where the attribute is silent, so
/// that only what the user stated is sent.
pub fn hints(tool: &Tool<'_>, private: &TokenStream) -> TokenStream {
    let read_only = option(tool.read_only);
    let destructive = option(tool.destructive);
    let idempotent = option(tool.idempotent);
    let open_world = option(tool.open_world);
    quote! {
        #private::ToolHints {
            read_only: #read_only,
            destructive: #destructive,
            idempotent: #idempotent,
            open_world: #open_world,
        }
    }
}
