//! Descriptions from doc comments: `///` lines and `#[doc = "..."]` attributes.

use syn::{Attribute, Expr, ExprLit, Lit, Meta};

/// The text of `attributes`' doc comments: one leading space stripped from each line,
/// paragraphs (blank lines) kept, surrounding whitespace trimmed. `None` without docs.
pub fn collect(attributes: &[Attribute]) -> Option<String> {
    let mut lines = Vec::new();
    for attribute in attributes
        .iter()
        .filter(|attribute| attribute.path().is_ident("doc"))
    {
        if let Meta::NameValue(pair) = &attribute.meta
            && let Expr::Lit(ExprLit {
                lit: Lit::Str(text),
                ..
            }) = &pair.value
        {
            let text = text.value();
            // `split`, not `lines`: an empty `///` line is an empty string, and it is the
            // paragraph break.
            lines.extend(
                text.split('\n')
                    .map(|line| line.strip_prefix(' ').unwrap_or(line).trim_end().to_owned()),
            );
        }
    }
    let mut description = String::new();
    let mut blank_run = 0;
    for line in lines.iter().skip_while(|line| line.is_empty()) {
        if line.is_empty() {
            blank_run += 1;
            continue;
        }
        if !description.is_empty() {
            description.push_str(if blank_run > 0 { "\n\n" } else { "\n" });
        }
        blank_run = 0;
        description.push_str(line);
    }
    Some(description).filter(|text| !text.is_empty())
}

/// Whether an attribute is a doc comment (stripped from parameters, where rustc rejects it).
pub fn is_doc(attribute: &Attribute) -> bool {
    attribute.path().is_ident("doc")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_paragraphs_and_trims() {
        let attributes: Vec<Attribute> = vec![
            syn::parse_quote!(#[doc = " Add two integers."]),
            syn::parse_quote!(#[doc = " Quickly."]),
            syn::parse_quote!(#[doc = ""]),
            syn::parse_quote!(#[doc = " Longer   "]),
            syn::parse_quote!(#[doc = "  indented"]),
            syn::parse_quote!(#[doc = ""]),
        ];
        assert_eq!(
            collect(&attributes).as_deref(),
            Some("Add two integers.\nQuickly.\n\nLonger\n indented")
        );
        assert_eq!(collect(&[]), None);
    }
}
