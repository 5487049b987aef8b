//! The icons of a tool, a resource or a prompt: `&[IconDescriptor { ... }, ...]`.

use proc_macro2::TokenStream;
use quote::quote;

use super::tokens::option;
use crate::attr::Icon;

/// The descriptor's `icons`, in the order the attribute states them; `&[]` for none.
pub fn icons(icons: &[Icon], private: &TokenStream) -> TokenStream {
    let icons = icons.iter().map(|icon| {
        let src = &icon.src;
        let mime_type = option(icon.mime_type.as_deref());
        let sizes = &icon.sizes;
        let theme = option(icon.theme.as_deref());
        quote! {
            #private::IconDescriptor {
                src: #src,
                mime_type: #mime_type,
                sizes: &[#(#sizes),*],
                theme: #theme,
            }
        }
    });
    quote!(&[#(#icons),*])
}
