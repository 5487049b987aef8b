//! Descriptions from doc comments: `///` lines and `#[doc = "..."]` attributes.

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, ExprLit, Lit, Meta};

/// One line of a doc comment, with the span of the attribute it came from (a `///` line is
/// one attribute, so an error can underline exactly that line).
struct Line {
    text: String,
    span: Span,
}

/// A parameter's entry in the function's `# Arguments` list.
pub struct ArgumentDoc {
    pub name: String,
    pub text: String,
    /// The doc line naming the parameter.
    pub span: Span,
}

/// A function's doc comment: its description, less the `# Arguments` section, and that
/// section's entries.
pub struct FunctionDocs {
    pub description: Option<String>,
    pub arguments: Vec<ArgumentDoc>,
}

/// The text of `attributes`' doc comments: one leading space stripped from each line,
/// paragraphs (blank lines) kept, surrounding whitespace trimmed. `None` without docs.
pub fn collect(attributes: &[Attribute]) -> Option<String> {
    paragraphs(lines(attributes).iter().map(|line| line.text.as_str()))
}

/// A function's doc comment, its `# Arguments` (or `# Parameters`) section read into
/// entries and taken out of the description. Entries are Markdown list items:
/// ``* `name` - text``, ``- `name`: text``, `* name - text`; indented lines continue an entry.
pub fn function_docs(attributes: &[Attribute]) -> FunctionDocs {
    let mut kept = Vec::new();
    let mut arguments: Vec<ArgumentDoc> = Vec::new();
    // The level of the `# Arguments` heading while inside its section.
    let mut section: Option<usize> = None;
    let mut in_fence = false;
    let mut continuing = false;
    for line in lines(attributes) {
        let trimmed = line.text.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_fence = !in_fence;
        } else if !in_fence && let Some((level, title)) = heading(trimmed) {
            if title.eq_ignore_ascii_case("arguments") || title.eq_ignore_ascii_case("parameters") {
                section = Some(level);
                continuing = false;
                continue;
            }
            if section.is_some_and(|section| level <= section) {
                section = None;
            }
        }
        if section.is_none() {
            kept.push(line.text);
            continue;
        }
        if let Some((name, text)) = list_item(trimmed) {
            arguments.push(ArgumentDoc {
                name,
                text,
                span: line.span,
            });
            continuing = true;
        } else if continuing
            && !trimmed.is_empty()
            && line.text.starts_with(char::is_whitespace)
            && let Some(last) = arguments.last_mut()
        {
            last.text.push(' ');
            last.text.push_str(trimmed);
        } else {
            // A blank line or prose in the section: ends the entry, and is dropped.
            continuing = false;
        }
    }
    FunctionDocs {
        description: paragraphs(kept.iter().map(String::as_str)),
        arguments,
    }
}

/// Every line of the doc comments, in order.
fn lines(attributes: &[Attribute]) -> Vec<Line> {
    let mut lines = Vec::new();
    for attribute in attributes.iter().filter(|attribute| is_doc(attribute)) {
        if let Meta::NameValue(pair) = &attribute.meta
            && let Expr::Lit(ExprLit {
                lit: Lit::Str(text),
                ..
            }) = &pair.value
        {
            let text = text.value();
            // `split`, not `lines`: an empty `///` line is an empty string, and it is the
            // paragraph break.
            lines.extend(text.split('\n').map(|line| Line {
                text: line.strip_prefix(' ').unwrap_or(line).trim_end().to_owned(),
                span: attribute.span(),
            }));
        }
    }
    lines
}

/// The lines as one text: blank runs become one paragraph break, the whole is trimmed.
fn paragraphs<'a>(lines: impl Iterator<Item = &'a str>) -> Option<String> {
    let mut description = String::new();
    let mut blank_run = 0;
    for line in lines.skip_while(|line| line.is_empty()) {
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

/// `## Title` → `(2, "Title")`.
fn heading(line: &str) -> Option<(usize, &str)> {
    let level = line.chars().take_while(|&c| c == '#').count();
    let title = line[level..].strip_prefix(' ')?;
    (level > 0).then(|| (level, title.trim()))
}

/// ``* `name` - text`` (or `-`/`+` bullets, a `:`, `-`, `–` or `—` separator, the name in
/// backticks or bare) → `(name, text)`; `None` for anything else.
fn list_item(line: &str) -> Option<(String, String)> {
    let rest = ["* ", "- ", "+ "]
        .iter()
        .find_map(|bullet| line.strip_prefix(bullet))?
        .trim_start();
    let (name, rest, quoted) = match rest.strip_prefix('`') {
        Some(quoted) => {
            let end = quoted.find('`')?;
            (&quoted[..end], &quoted[end + 1..], true)
        }
        None => {
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '#'))
                .unwrap_or(rest.len());
            (&rest[..end], &rest[end..], false)
        }
    };
    let name = name.strip_prefix("r#").unwrap_or(name);
    let valid = !name.is_empty()
        && name.chars().all(|c| c.is_alphanumeric() || c == '_')
        && !name.starts_with(|c: char| c.is_ascii_digit());
    if !valid {
        return None;
    }
    let rest = rest.trim_start();
    let separated = [":", "-", "–", "—"]
        .iter()
        .find_map(|separator| rest.strip_prefix(separator));
    let text = match separated {
        Some(text) => text,
        // A bare name needs its separator: `* Note that ...` is prose, not an entry.
        None if quoted && !rest.is_empty() => rest,
        None => return None,
    };
    Some((name.to_owned(), text.trim().to_owned()))
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

    fn docs(lines: &[&str]) -> FunctionDocs {
        let attributes: Vec<Attribute> = lines
            .iter()
            .map(|line| syn::parse_quote!(#[doc = #line]))
            .collect();
        function_docs(&attributes)
    }

    fn entries(docs: &FunctionDocs) -> Vec<(&str, &str)> {
        docs.arguments
            .iter()
            .map(|entry| (entry.name.as_str(), entry.text.as_str()))
            .collect()
    }

    #[test]
    fn reads_the_arguments_section_and_removes_it() {
        let docs = docs(&[
            " Search the index.",
            "",
            " # Arguments",
            "",
            " * `query` - What to look for.",
            " - `limit`: How many results,",
            "   at most.",
            " * offset - Where to start.",
            " + `r#type` — The kind.",
            " * `raw` Just text after the name.",
            "",
            " # Errors",
            "",
            " When the index is missing.",
        ]);
        assert_eq!(
            entries(&docs),
            [
                ("query", "What to look for."),
                ("limit", "How many results, at most."),
                ("offset", "Where to start."),
                ("type", "The kind."),
                ("raw", "Just text after the name."),
            ]
        );
        assert_eq!(
            docs.description.as_deref(),
            Some("Search the index.\n\n# Errors\n\nWhen the index is missing.")
        );
    }

    #[test]
    fn the_section_ends_at_a_heading_of_its_level_and_ignores_code_and_prose() {
        let docs = docs(&[
            " Intro.",
            " ```",
            " # Arguments",
            " * `fake` - in code, not a section",
            " ```",
            " ## Parameters",
            " The parameters:",
            " * Note that this is prose.",
            " * `real`: yes",
            " ### Sub-heading stays in the section",
            " * `also` - yes",
            " ## Next",
            " * `kept` - in the description",
        ]);
        assert_eq!(entries(&docs), [("real", "yes"), ("also", "yes")]);
        assert_eq!(
            docs.description.as_deref(),
            Some(
                "Intro.\n```\n# Arguments\n* `fake` - in code, not a section\n```\n\
                 ## Next\n* `kept` - in the description"
            )
        );
    }

    #[test]
    fn without_a_section_the_docs_are_the_description() {
        let docs = docs(&[" Add.", " * `a` - not in a section"]);
        assert!(docs.arguments.is_empty());
        assert_eq!(
            docs.description.as_deref(),
            Some("Add.\n* `a` - not in a section")
        );
    }
}
