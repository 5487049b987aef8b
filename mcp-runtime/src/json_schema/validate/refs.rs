//! Where a `$ref` points within one schema document: the resources its `$id`s make, their
//! `$anchor`s, and URI references resolved against the base in effect (RFC 3986, enough of
//! it for the identifiers schemas use). Nothing is ever fetched.

use std::collections::HashMap;

use serde_json::Value;

/// How deep a schema may nest, and how many subschemas deep an evaluation may go, so
/// neither can exhaust the stack. Here, in the leaf every step reads, so none reaches back
/// to the module's root for it.
pub(super) const MAX_DEPTH: usize = 256;

/// The base URI of a document without `$id`, as `jsonschema` uses.
pub(super) const DEFAULT_BASE: &str = "json-schema:///";

/// Keywords whose value is one subschema.
pub(super) const SCHEMA_KEYWORDS: [&str; 12] = [
    "additionalProperties",
    "items",
    "contains",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contentSchema",
    "additionalItems",
];

/// Keywords whose value maps names to subschemas.
const MAP_KEYWORDS: [&str; 6] = [
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
    "dependencies",
];

/// Keywords whose value is a list of subschemas.
const LIST_KEYWORDS: [&str; 5] = ["allOf", "anyOf", "oneOf", "prefixItems", "items"];

/// Every resource and anchor of a document, and the base URI of each subschema.
pub(super) struct Index {
    /// A resource's URI (no fragment) to the JSON pointer of its root.
    resources: HashMap<String, String>,
    /// `(resource URI, anchor)` to the JSON pointer of the subschema it names.
    anchors: HashMap<(String, String), String>,
    /// A subschema's JSON pointer to its base URI.
    bases: HashMap<String, String>,
}

impl Index {
    pub fn new(root: &Value) -> Index {
        let mut index = Index {
            resources: HashMap::new(),
            anchors: HashMap::new(),
            bases: HashMap::new(),
        };
        index
            .resources
            .insert(DEFAULT_BASE.to_owned(), String::new());
        index.walk(root, String::new(), DEFAULT_BASE, 0);
        index
    }

    fn walk(&mut self, schema: &Value, pointer: String, base: &str, depth: usize) {
        let Value::Object(object) = schema else {
            return;
        };
        if depth > MAX_DEPTH {
            return;
        }
        let base = match object.get("$id").and_then(Value::as_str) {
            Some(id) => {
                let resolved = resolve(base, id);
                let (resource, _) = split_fragment(&resolved);
                self.resources
                    .entry(resource.to_owned())
                    .or_insert_with(|| pointer.clone());
                resource.to_owned()
            }
            None => base.to_owned(),
        };
        for keyword in ["$anchor", "$dynamicAnchor"] {
            if let Some(anchor) = object.get(keyword).and_then(Value::as_str) {
                self.anchors
                    .entry((base.clone(), anchor.to_owned()))
                    .or_insert_with(|| pointer.clone());
            }
        }
        for (keyword, value) in object {
            let here = format!("{pointer}/{}", escape(keyword));
            if SCHEMA_KEYWORDS.contains(&keyword.as_str()) && !value.is_array() {
                self.walk(value, here.clone(), &base, depth + 1);
            }
            if MAP_KEYWORDS.contains(&keyword.as_str())
                && let Value::Object(schemas) = value
            {
                for (name, schema) in schemas {
                    self.walk(schema, format!("{here}/{}", escape(name)), &base, depth + 1);
                }
            }
            if LIST_KEYWORDS.contains(&keyword.as_str())
                && let Value::Array(schemas) = value
            {
                for (position, schema) in schemas.iter().enumerate() {
                    self.walk(schema, format!("{here}/{position}"), &base, depth + 1);
                }
            }
        }
        self.bases.insert(pointer, base);
    }

    /// The base URI in effect at the subschema at `pointer`, its own `$id` included.
    pub fn base_of(&self, pointer: &str) -> String {
        let mut at = pointer;
        loop {
            if let Some(base) = self.bases.get(at) {
                return base.clone();
            }
            match at.rfind('/') {
                Some(slash) => at = &at[..slash],
                None => return DEFAULT_BASE.to_owned(),
            }
        }
    }

    /// The JSON pointer (from the document's root) that `reference` names, read against
    /// `base`; `Err` says why it names nothing here.
    pub fn target(&self, base: &str, reference: &str) -> Result<String, String> {
        let uri = resolve(base, reference);
        let (resource, fragment) = split_fragment(&uri);
        let Some(root) = self.resources.get(resource) else {
            return Err(format!(
                "Resource '{resource}' is not present in a registry and retrieving it failed"
            ));
        };
        let fragment = percent_decode(fragment);
        if fragment.is_empty() {
            Ok(root.clone())
        } else if fragment.starts_with('/') {
            Ok(format!("{root}{fragment}"))
        } else {
            self.anchors
                .get(&(resource.to_owned(), fragment.clone()))
                .cloned()
                .ok_or_else(|| format!("Anchor '{fragment}' does not exist"))
        }
    }
}

/// A key written as a JSON pointer's segment.
pub(super) fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// `uri` split at its `#`: what comes before, and the fragment (empty if none).
fn split_fragment(uri: &str) -> (&str, &str) {
    uri.split_once('#').unwrap_or((uri, ""))
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        let hex = |byte: u8| (byte as char).to_digit(16);
        if bytes[at] == b'%'
            && at + 2 < bytes.len()
            && let (Some(high), Some(low)) = (hex(bytes[at + 1]), hex(bytes[at + 2]))
        {
            #[allow(clippy::cast_possible_truncation)]
            decoded.push((high * 16 + low) as u8);
            at += 3;
        } else {
            decoded.push(bytes[at]);
            at += 1;
        }
    }
    String::from_utf8_lossy(&decoded).into_owned()
}

/// The length of `uri`'s scheme and its colon, if it has a scheme.
fn scheme_end(uri: &str) -> Option<usize> {
    let colon = uri.find(':')?;
    let scheme = &uri[..colon];
    let valid = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
    valid.then_some(colon + 1)
}

/// `reference` resolved against `base` (RFC 3986, section 5.2).
pub(super) fn resolve(base: &str, reference: &str) -> String {
    if scheme_end(reference).is_some() {
        return remove_dots(reference);
    }
    let (base, _) = split_fragment(base);
    if reference.is_empty() {
        return base.to_owned();
    }
    if reference.starts_with('#') {
        return format!("{base}{reference}");
    }
    let scheme = scheme_end(base).unwrap_or(0);
    if reference.starts_with("//") {
        return remove_dots(&format!("{}{reference}", &base[..scheme]));
    }
    // Where the authority ends and the path begins.
    let path_start = if base[scheme..].starts_with("//") {
        base[scheme + 2..]
            .find('/')
            .map_or(base.len(), |slash| scheme + 2 + slash)
    } else {
        scheme
    };
    if reference.starts_with('/') {
        return remove_dots(&format!("{}{reference}", &base[..path_start]));
    }
    let directory = match base[path_start..].rfind('/') {
        Some(slash) => &base[..path_start + slash + 1],
        None if path_start < base.len() || base[scheme..].starts_with("//") => {
            return remove_dots(&format!("{}/{reference}", &base[..path_start]));
        }
        None => &base[..path_start],
    };
    remove_dots(&format!("{directory}{reference}"))
}

/// `uri` with its path's `.` and `..` segments applied.
fn remove_dots(uri: &str) -> String {
    if !uri.contains("/.") {
        return uri.to_owned();
    }
    let (uri, fragment) = match uri.split_once('#') {
        Some((uri, fragment)) => (uri, Some(fragment)),
        None => (uri, None),
    };
    let mut segments: Vec<&str> = Vec::new();
    for segment in uri.split('/') {
        match segment {
            "." => {}
            ".." => {
                if segments.len() > 3 {
                    segments.pop();
                }
            }
            _ => segments.push(segment),
        }
    }
    let mut result = segments.join("/");
    if uri.ends_with("/.") || uri.ends_with("/..") {
        result.push('/');
    }
    if let Some(fragment) = fragment {
        result.push('#');
        result.push_str(fragment);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::resolve;

    #[test]
    fn references_resolve_against_their_base() {
        let base = "http://example.com/root.json";
        assert_eq!(resolve(base, "#foo"), "http://example.com/root.json#foo");
        assert_eq!(resolve(base, "other.json"), "http://example.com/other.json");
        assert_eq!(resolve(base, "/a/b.json"), "http://example.com/a/b.json");
        assert_eq!(
            resolve("http://example.com/a/b/c.json", "../d.json"),
            "http://example.com/a/d.json"
        );
        assert_eq!(resolve(base, "urn:uuid:1#/x"), "urn:uuid:1#/x");
        assert_eq!(
            resolve("json-schema:///", "#/$defs/a"),
            "json-schema:///#/$defs/a"
        );
        assert_eq!(
            resolve("json-schema:///", "b.json"),
            "json-schema:///b.json"
        );
        assert_eq!(
            resolve("http://example.com", "b.json"),
            "http://example.com/b.json"
        );
    }
}
