//! URI templates (RFC 6570), as far as resource templates need them: literal text, simple
//! variables `{var}` and reserved variables `{+var}`. The macro has already refused every
//! other form at compile time; a template the runtime cannot read is treated as literal text.
//!
//! Matching runs the expansion backwards: a simple variable matches one or more characters
//! other than `/`, `?` and `#` (its expansion percent-encodes those, so a value never holds
//! them), percent-decoded; a reserved variable matches one or more of any character,
//! `/` included (its expansion leaves reserved characters as they are), and is
//! percent-decoded too. Where several splits fit, the earliest variable takes the least.

/// One part of a template.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Part {
    Literal(String),
    Variable { name: String, reserved: bool },
}

/// A parsed URI template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct UriTemplate {
    parts: Vec<Part>,
}

impl UriTemplate {
    /// Reads `template`; `None` when it has no variables (a fixed URI).
    pub fn parse(template: &str) -> Option<UriTemplate> {
        let mut parts = Vec::new();
        let mut literal = String::new();
        let mut rest = template;
        while let Some(open) = rest.find('{') {
            let Some(close) = rest[open..].find('}').map(|close| open + close) else {
                break;
            };
            literal.push_str(&rest[..open]);
            let expression = &rest[open + 1..close];
            let (name, reserved) = match expression.strip_prefix('+') {
                Some(name) => (name, true),
                None => (expression, false),
            };
            if !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
                if !literal.is_empty() {
                    parts.push(Part::Literal(std::mem::take(&mut literal)));
                }
                parts.push(Part::Variable {
                    name: name.to_owned(),
                    reserved,
                });
            } else {
                literal.push_str(&rest[open..=close]);
            }
            rest = &rest[close + 1..];
        }
        literal.push_str(rest);
        if !literal.is_empty() {
            parts.push(Part::Literal(literal));
        }
        parts
            .iter()
            .any(|part| matches!(part, Part::Variable { .. }))
            .then_some(UriTemplate { parts })
    }

    /// The variables' names, in order.
    pub fn variables(&self) -> impl Iterator<Item = &str> {
        self.parts.iter().filter_map(|part| match part {
            Part::Variable { name, .. } => Some(name.as_str()),
            Part::Literal(_) => None,
        })
    }

    /// How many characters of literal text the template has: where two templates match
    /// one URI, the one with more literal text is the more specific.
    pub fn literal_len(&self) -> usize {
        self.parts
            .iter()
            .map(|part| match part {
                Part::Literal(text) => text.len(),
                Part::Variable { .. } => 0,
            })
            .sum()
    }

    /// The variables' values if `uri` is an expansion of this template, decoded, in order.
    pub fn matches(&self, uri: &str) -> Option<Vec<(String, String)>> {
        let mut values = Vec::new();
        match_parts(&self.parts, uri, &mut values).then_some(values)
    }
}

fn match_parts(parts: &[Part], uri: &str, values: &mut Vec<(String, String)>) -> bool {
    let Some((first, rest)) = parts.split_first() else {
        return uri.is_empty();
    };
    match first {
        Part::Literal(text) => uri
            .strip_prefix(text.as_str())
            .is_some_and(|uri| match_parts(rest, uri, values)),
        Part::Variable { name, reserved } => {
            // The longest value this variable may take: a simple one stops at a delimiter.
            let limit = if *reserved {
                uri.len()
            } else {
                uri.find(['/', '?', '#']).unwrap_or(uri.len())
            };
            for end in (1..=limit).filter(|end| uri.is_char_boundary(*end)) {
                let Some(value) = percent_decode(&uri[..end]) else {
                    continue;
                };
                values.push((name.clone(), value));
                if match_parts(rest, &uri[end..], values) {
                    return true;
                }
                values.pop();
            }
            false
        }
    }
}

/// `%XX` escapes decoded; `None` when an escape is cut short or the bytes are not UTF-8.
fn percent_decode(text: &str) -> Option<String> {
    if !text.contains('%') {
        return Some(text.to_owned());
    }
    let bytes = text.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        if bytes[index] == b'%' {
            let hex = text.get(index + 1..index + 3)?;
            decoded.push(u8::from_str_radix(hex, 16).ok()?);
            index += 3;
        } else {
            decoded.push(bytes[index]);
            index += 1;
        }
    }
    String::from_utf8(decoded).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(template: &str, uri: &str) -> Option<Vec<(String, String)>> {
        UriTemplate::parse(template).unwrap().matches(uri)
    }

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()))
            .collect()
    }

    #[test]
    fn a_fixed_uri_is_no_template() {
        assert_eq!(UriTemplate::parse("docs://readme"), None);
        assert_eq!(UriTemplate::parse("docs://{}"), None);
    }

    #[test]
    fn simple_variables_match_one_segment() {
        assert_eq!(
            values("notes://{id}", "notes://42"),
            Some(pairs(&[("id", "42")]))
        );
        assert_eq!(values("notes://{id}", "notes://4/2"), None);
        assert_eq!(values("notes://{id}", "notes://"), None);
        assert_eq!(
            values("test://template/{id}/data", "test://template/123/data"),
            Some(pairs(&[("id", "123")]))
        );
        assert_eq!(
            values("test://template/{id}/data", "test://template/1/2/data"),
            None
        );
    }

    #[test]
    fn reserved_variables_span_segments() {
        assert_eq!(
            values("file:///{+path}", "file:///a/b/c.txt"),
            Some(pairs(&[("path", "a/b/c.txt")]))
        );
        assert_eq!(
            values("repo://{owner}/{+path}", "repo://me/src/lib.rs"),
            Some(pairs(&[("owner", "me"), ("path", "src/lib.rs")]))
        );
    }

    #[test]
    fn values_are_percent_decoded() {
        assert_eq!(
            values("notes://{title}", "notes://hello%20world"),
            Some(pairs(&[("title", "hello world")]))
        );
        assert_eq!(
            values("notes://{title}", "notes://caf%C3%A9"),
            Some(pairs(&[("title", "café")]))
        );
        assert_eq!(values("notes://{title}", "notes://bad%zz"), None);
        assert_eq!(values("notes://{title}", "notes://cut%2"), None);
    }

    #[test]
    fn several_variables_split_on_literals() {
        assert_eq!(
            values("db://{table}.{column}", "db://users.name"),
            Some(pairs(&[("table", "users"), ("column", "name")]))
        );
        let template = UriTemplate::parse("db://{table}.{column}").unwrap();
        assert_eq!(
            template.variables().collect::<Vec<_>>(),
            ["table", "column"]
        );
        assert_eq!(template.literal_len(), "db://.".len());
    }
}
