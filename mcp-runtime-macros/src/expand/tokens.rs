//! Small token helpers shared by the steps of the expansion.
//!
//! A leaf of `expand`: the steps import it, it imports none of them.

use proc_macro2::{Group, Span, TokenStream, TokenTree};
use quote::{ToTokens, quote, quote_spanned};
use syn::Type;
use syn::spanned::Spanned;

/// `::core::option::Option::Some(value)` or `::core::option::Option::None`: the optional
/// fields of the descriptor, spelled with full paths so that no name in the user's scope
/// can change their meaning.
pub fn option(value: Option<impl ToTokens>) -> TokenStream {
    match value {
        Some(value) => quote!(::core::option::Option::Some(#value)),
        None => quote!(::core::option::Option::None),
    }
}

/// `tokens` (a type or an expression from a method's signature) as they read beside the
/// impl block of `self_ty`, where the registration is: each `Self` replaced by the type
/// (as `<Type>` before `::` where the type's path has generic arguments). Unchanged for a
/// free function (`self_ty` is `None`).
pub fn without_self(tokens: impl ToTokens, self_ty: Option<&Type>) -> TokenStream {
    let tokens = tokens.into_token_stream();
    let Some(self_ty) = self_ty else {
        return tokens;
    };
    let mut replaced = TokenStream::new();
    let mut tokens = tokens.into_iter().peekable();
    while let Some(token) = tokens.next() {
        match token {
            TokenTree::Ident(ident) if ident == "Self" => {
                let path_follows = matches!(tokens.peek(), Some(TokenTree::Punct(punct)) if punct.as_char() == ':');
                if path_follows {
                    replaced.extend(type_path_prefix(self_ty));
                } else {
                    self_ty.to_tokens(&mut replaced);
                }
            }
            TokenTree::Group(group) => {
                let mut inner = Group::new(
                    group.delimiter(),
                    without_self(group.stream(), Some(self_ty)),
                );
                inner.set_span(group.span());
                replaced.extend([TokenTree::Group(inner)]);
            }
            other => replaced.extend([other]),
        }
    }
    replaced
}

/// The same tokens, every one carrying `span`: the span rustc reports a failed trait bound
/// of a call at.
pub fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut token| {
            if let TokenTree::Group(group) = &token {
                token =
                    TokenTree::Group(Group::new(group.delimiter(), respan(group.stream(), span)));
            }
            token.set_span(span);
            token
        })
        .collect()
}

/// `self_ty` where a path continues it (`Notes::add`): as written for a plain path, or
/// qualified, `<Store<Memory>>::add`, where `Store<Memory>::add` would not parse.
pub fn type_path_prefix(self_ty: &Type) -> TokenStream {
    match self_ty {
        Type::Path(path)
            if path.qself.is_none()
                && path
                    .path
                    .segments
                    .iter()
                    .all(|segment| segment.arguments.is_none()) =>
        {
            quote!(#path)
        }
        _ => quote_spanned!(self_ty.span()=> <#self_ty>),
    }
}

/// `SourceLocation { file, line, module_path }` of the registration, spanned at `span`: the
/// attribute's line, where a start-up error about the descriptor points.
pub fn location(private: &TokenStream, span: Span) -> TokenStream {
    quote_spanned! {span=>
        #private::SourceLocation {
            file: ::core::file!(),
            line: ::core::line!(),
            module_path: ::core::module_path!(),
        }
    }
}
