//! A resource's `uri`: its scheme, and the variables of a template, of which the macro
//! supports RFC 6570's simple `{var}` and reserved `{+var}` expressions: the two whose
//! matching against a requested URI is unambiguous once a literal separates them.
//!
//! A leaf: pure text, no tokens, no other module of the crate.

/// One variable of a template.
#[derive(Debug, PartialEq, Eq)]
pub struct Variable {
    pub name: String,
    /// `{+name}`: its value may hold reserved characters, `/` included.
    pub reserved: bool,
}

/// What every problem message ends with.
const SUPPORTED: &str = "the supported expressions are `{name}` (one path segment's worth of \
                         text) and `{+name}` (text that may span `/`), with a name of ASCII \
                         letters, digits and `_`, and literal text between two of them";

/// The variables of `uri`, none for a fixed URI; or what is wrong with it, in words that say
/// what to write.
pub fn variables(uri: &str) -> Result<Vec<Variable>, String> {
    check_scheme(uri)?;
    let mut variables: Vec<Variable> = Vec::new();
    let mut rest = uri;
    while let Some(open) = rest.find(['{', '}']) {
        if rest[open..].starts_with('}') {
            return Err(format!("a `}}` closes no expression; {SUPPORTED}"));
        }
        // `rest` starts right after the previous expression's `}`.
        if open == 0 && !variables.is_empty() {
            return Err(format!(
                "two expressions follow each other with no text between them, so a requested \
                 uri could not tell where the first ends; put literal text between them \
                 (`{{a}}/{{b}}`); {SUPPORTED}"
            ));
        }
        let inside = &rest[open + 1..];
        let Some(close) = inside.find(['{', '}']) else {
            return Err(format!("a `{{` is never closed; {SUPPORTED}"));
        };
        if inside[close..].starts_with('{') {
            return Err(format!(
                "`{{` opens an expression inside another; {SUPPORTED}"
            ));
        }
        let variable = variable(&inside[..close])?;
        if variables.iter().any(|seen| seen.name == variable.name) {
            return Err(format!(
                "variable `{}` appears twice; each variable is one parameter of the function, \
                 so it may appear once; {SUPPORTED}",
                variable.name
            ));
        }
        variables.push(variable);
        rest = &inside[close + 1..];
    }
    Ok(variables)
}

/// `scheme:` first, as RFC 3986 spells it: a letter, then letters, digits, `+`, `-` or `.`.
fn check_scheme(uri: &str) -> Result<(), String> {
    let scheme = uri.split_once(':').map(|(scheme, _)| scheme);
    let valid = scheme.is_some_and(|scheme| {
        let mut chars = scheme.chars();
        chars.next().is_some_and(|c| c.is_ascii_alphabetic())
            && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    });
    if valid {
        Ok(())
    } else {
        Err(format!(
            "`{uri}` has no scheme: a resource's uri starts with one, such as `file:`, \
             `https:` or `notes:` (a letter, then letters, digits, `+`, `-` or `.`, then `:`)"
        ))
    }
}

/// The variable of one expression (the text between `{` and `}`).
fn variable(expression: &str) -> Result<Variable, String> {
    let (reserved, name) = match expression.strip_prefix('+') {
        Some(name) => (true, name),
        None => (false, expression),
    };
    if let Some(operator) = name.chars().next().filter(|c| "#./;?&=,!@|".contains(*c)) {
        return Err(format!(
            "`{{{expression}}}` uses the operator `{operator}`, which is not supported; \
             {SUPPORTED}"
        ));
    }
    if name.is_empty() {
        return Err(format!("`{{{expression}}}` names no variable; {SUPPORTED}"));
    }
    if name.contains(',') {
        return Err(format!(
            "`{{{expression}}}` lists several variables; give each its own expression, with \
             text between them; {SUPPORTED}"
        ));
    }
    if name.ends_with('*') || name.contains(':') {
        return Err(format!(
            "`{{{expression}}}` has a modifier (`*` or `:length`), which is not supported; \
             {SUPPORTED}"
        ));
    }
    if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(format!(
            "`{name}` is not a supported variable name; {SUPPORTED}"
        ));
    }
    Ok(Variable {
        name: name.to_owned(),
        reserved,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(uri: &str) -> Vec<(String, bool)> {
        variables(uri)
            .unwrap_or_else(|error| panic!("{uri}: {error}"))
            .into_iter()
            .map(|variable| (variable.name, variable.reserved))
            .collect()
    }

    #[test]
    fn reads_fixed_uris_and_templates() {
        assert!(names("file:///notes.txt").is_empty());
        assert!(names("config://app").is_empty());
        assert_eq!(names("notes://{id}"), [("id".to_owned(), false)]);
        assert_eq!(
            names("repo://{owner}/{+path}.md"),
            [("owner".to_owned(), false), ("path".to_owned(), true)]
        );
        assert_eq!(
            names("users://{user_id}/x"),
            [("user_id".to_owned(), false)]
        );
    }

    #[test]
    fn refuses_what_is_not_supported() {
        for bad in [
            "notes.txt",
            "/notes/{id}",
            "{scheme}://x",
            "1x://a",
            "notes://{#id}",
            "notes://{/id}",
            "notes://{?id}",
            "notes://{.id}",
            "notes://{;id}",
            "notes://{&id}",
            "notes://{a,b}",
            "notes://{id*}",
            "notes://{id:3}",
            "notes://{}",
            "notes://{+}",
            "notes://{id",
            "notes://id}",
            "notes://{i{d}}",
            "notes://{my-id}",
            "notes://{id}/{id}",
            "notes://{a}{b}",
        ] {
            assert!(variables(bad).is_err(), "{bad}");
        }
    }
}
