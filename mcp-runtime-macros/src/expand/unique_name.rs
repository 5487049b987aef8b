//! The guard that makes two tools (or two prompts) with one name in one crate a compile
//! error.

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote_spanned;

use crate::attr::Kind;

/// A `#[macro_export]` macro named for the tool. `#[macro_export]` puts every exported macro
/// in the crate root, wherever the tool is, so a second tool of the same name is "defined
/// multiple times", underlined at both names, and the macro's name says what to do. Tools
/// of different crates export into different roots: the server catches those duplicates at
/// start-up. Tools and prompts have names of their own kind (a tool and a prompt may share
/// one), so the guard's name says the kind.
pub fn unique_name_guard(kind: Kind, name: &str, span: Span) -> TokenStream {
    let noun = kind.noun();
    let plain = name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    // Names with `.` or `-` are escaped, with a prefix of their own so that no escaped name
    // can equal a plain one.
    let (prefix, name) = if plain {
        (format!("__mcp_{noun}_"), name.to_owned())
    } else {
        let escaped = name
            .chars()
            .map(|c| match c {
                '_' => "_u_".to_owned(),
                '.' => "_dot_".to_owned(),
                '-' => "_dash_".to_owned(),
                other => other.to_string(),
            })
            .collect();
        (format!("__mcp_escaped_{noun}_"), escaped)
    };
    let guard = Ident::new(
        &format!("{prefix}{name}__is_used_twice__rename_one_with_the_name_option"),
        span,
    );
    // `non_local_definitions` warns about exported macros inside function bodies; a tool
    // defined in one must stay warning-free.
    quote_spanned! {span=>
        #[doc(hidden)]
        #[allow(non_local_definitions)]
        #[macro_export]
        macro_rules! #guard {
            () => {};
        }
    }
}
