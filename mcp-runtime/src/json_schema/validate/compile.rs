//! A schema document compiled once into nodes: each subschema a node, each keyword checked
//! and turned into what evaluation needs (numbers read, patterns compiled, `$ref`s pointed
//! at their target's node), in the order the schema writes them.

use std::collections::HashMap;

use regex_lite::Regex;
use serde_json::{Map, Number, Value};

use super::check;
use super::error::SchemaError;
use super::refs::{Index, MAX_DEPTH, escape};
use super::types::Types;

pub(super) type NodeId = usize;

/// A compiled subschema.
pub(super) enum Node {
    Bool(bool),
    Keywords(Vec<Keyword>),
}

/// Which bound a number keyword sets.
#[derive(Clone, Copy)]
pub(super) enum Bound {
    Minimum,
    Maximum,
    ExclusiveMinimum,
    ExclusiveMaximum,
}

/// One keyword, ready to evaluate.
pub(super) enum Keyword {
    /// `$ref` or `$dynamicRef` (read as a `$ref`).
    Ref(NodeId),
    Type(Types),
    Enum(Vec<Value>),
    Const(Value),
    MultipleOf(Number),
    Bound(Bound, Value),
    MinLength(u64),
    MaxLength(u64),
    Pattern(Regex, String),
    MinItems(u64),
    MaxItems(u64),
    UniqueItems,
    PrefixItems(Vec<NodeId>),
    /// `items`, for the items after the first `skip` (those `prefixItems` covers).
    Items {
        skip: usize,
        schema: NodeId,
    },
    Contains {
        schema: NodeId,
        min: u64,
        max: Option<u64>,
    },
    MinProperties(u64),
    MaxProperties(u64),
    Required(Vec<String>),
    DependentRequired(Vec<(String, Vec<String>)>),
    Properties(Vec<(String, NodeId)>),
    PatternProperties(Vec<(Regex, NodeId)>),
    /// `additionalProperties` other than `true`, which checks `properties` and
    /// `patternProperties` as it walks the object (as `jsonschema` does; it orders the errors).
    AdditionalProperties {
        properties: Vec<(String, NodeId)>,
        patterns: Vec<(Regex, NodeId)>,
        schema: NodeId,
        /// `additionalProperties: false`: one error naming every unexpected property.
        forbids: bool,
        /// Whether `properties` or `patternProperties` stand beside it.
        declares: bool,
        /// The one `required` name `jsonschema` checks after the walk (beside
        /// `additionalProperties: false` and `properties`, without `patternProperties`).
        required: Option<String>,
    },
    PropertyNames(NodeId),
    DependentSchemas(Vec<(String, NodeId)>),
    AllOf(Vec<NodeId>),
    AnyOf(Vec<NodeId>),
    OneOf(Vec<NodeId>),
    Not(NodeId, Value),
    If {
        condition: NodeId,
        then: Option<NodeId>,
        otherwise: Option<NodeId>,
    },
    UnevaluatedProperties(NodeId),
    UnevaluatedItems(NodeId),
    /// `additionalProperties: true`, which checks nothing but evaluates every property.
    EvaluatesAllProperties,
}

/// Where `jsonschema` runs a keyword among its siblings (it sorts them, cheap ones first),
/// which is the order of their errors. Evaluation moves the unevaluated keywords after
/// `$ref` (they need its annotations) but keeps their errors in this place.
fn priority(keyword: &Keyword) -> u8 {
    match keyword {
        Keyword::Type(_) => 1,
        Keyword::Const(_) => 5,
        Keyword::Enum(_) => 6,
        Keyword::Bound(Bound::Minimum, _) => 10,
        Keyword::Bound(Bound::Maximum, _) => 11,
        Keyword::Bound(Bound::ExclusiveMinimum, _) => 12,
        Keyword::Bound(Bound::ExclusiveMaximum, _) => 13,
        Keyword::MultipleOf(_) => 14,
        Keyword::MinLength(_) => 20,
        Keyword::MaxLength(_) => 21,
        Keyword::MinItems(_) => 22,
        Keyword::MaxItems(_) => 23,
        Keyword::MinProperties(_) => 24,
        Keyword::MaxProperties(_) => 25,
        Keyword::Required(_) => 26,
        Keyword::DependentRequired(_) => 27,
        Keyword::Pattern(..) => 30,
        Keyword::UniqueItems => 35,
        Keyword::Properties(_) => 40,
        Keyword::PatternProperties(_) => 41,
        Keyword::AdditionalProperties { .. } | Keyword::EvaluatesAllProperties => 42,
        Keyword::PropertyNames(_) => 43,
        Keyword::Items { .. } => 44,
        Keyword::PrefixItems(_) => 45,
        Keyword::Contains { .. } => 47,
        Keyword::DependentSchemas(_) => 49,
        Keyword::AllOf(_) => 50,
        Keyword::AnyOf(_) => 51,
        Keyword::OneOf(_) => 52,
        Keyword::Not(..) => 53,
        Keyword::If { .. } => 54,
        Keyword::UnevaluatedProperties(_) => 60,
        Keyword::UnevaluatedItems(_) => 61,
        Keyword::Ref(_) => 70,
    }
}

/// Compiles the subschemas of one document, each once, `$ref` targets included.
pub(super) struct Compiler<'s> {
    root: &'s Value,
    index: Index,
    pub nodes: Vec<Node>,
    by_pointer: HashMap<String, NodeId>,
    /// Whether any subschema uses `unevaluatedProperties` or `unevaluatedItems`, so
    /// evaluation must keep track of what was evaluated.
    pub annotates: bool,
}

impl<'s> Compiler<'s> {
    pub fn new(root: &'s Value) -> Self {
        Compiler {
            root,
            index: Index::new(root),
            nodes: Vec::new(),
            by_pointer: HashMap::new(),
            annotates: false,
        }
    }

    /// The node of the subschema at `pointer` (from the document's root), compiled once.
    pub fn compile(&mut self, pointer: &str, depth: usize) -> Result<NodeId, SchemaError> {
        if let Some(&id) = self.by_pointer.get(pointer) {
            return Ok(id);
        }
        if depth > MAX_DEPTH {
            return Err(SchemaError::new(
                pointer,
                format!("the schema nests deeper than {MAX_DEPTH} levels"),
            ));
        }
        let Some(value) = self.root.pointer(pointer) else {
            return Err(SchemaError::new(
                pointer,
                format!("Pointer '{pointer}' does not exist"),
            ));
        };
        check::subschema(pointer, value)?;
        let id = self.nodes.len();
        self.nodes.push(Node::Bool(true));
        self.by_pointer.insert(pointer.to_owned(), id);
        let node = match value {
            Value::Object(object) => Node::Keywords(self.keywords(pointer, object, depth)?),
            other => Node::Bool(other.as_bool().unwrap_or(true)),
        };
        self.nodes[id] = node;
        Ok(id)
    }

    fn child(&mut self, at: &str, depth: usize) -> Result<NodeId, SchemaError> {
        self.compile(at, depth + 1)
    }

    fn children(
        &mut self,
        pointer: &str,
        keyword: &str,
        value: &Value,
        depth: usize,
    ) -> Result<Vec<NodeId>, SchemaError> {
        let count = check::schema_list(pointer, keyword, value)?.len();
        (0..count)
            .map(|position| self.child(&format!("{pointer}/{keyword}/{position}"), depth))
            .collect()
    }

    fn named_children(
        &mut self,
        pointer: &str,
        keyword: &str,
        value: &Value,
        depth: usize,
    ) -> Result<Vec<(String, NodeId)>, SchemaError> {
        let names: Vec<String> = check::schema_map(pointer, keyword, value)?
            .keys()
            .cloned()
            .collect();
        names
            .into_iter()
            .map(|name| {
                let id = self.child(&format!("{pointer}/{keyword}/{}", escape(&name)), depth)?;
                Ok((name, id))
            })
            .collect()
    }

    fn patterns(
        &mut self,
        pointer: &str,
        value: &Value,
        depth: usize,
    ) -> Result<Vec<(Regex, NodeId)>, SchemaError> {
        let at = format!("{pointer}/patternProperties");
        self.named_children(pointer, "patternProperties", value, depth)?
            .into_iter()
            .map(|(pattern, id)| Ok((check::regex(&at, &pattern)?, id)))
            .collect()
    }

    #[allow(clippy::too_many_lines)]
    fn keywords(
        &mut self,
        pointer: &str,
        object: &Map<String, Value>,
        depth: usize,
    ) -> Result<Vec<Keyword>, SchemaError> {
        // Each keyword with its place in `jsonschema`'s order (`priority`).
        let mut keywords: Vec<(u8, Keyword)> = Vec::with_capacity(object.len());
        let additional = object
            .get("additionalProperties")
            .is_some_and(|value| value != &Value::Bool(true));
        // `jsonschema` checks a lone required name of a closed object as it walks the object.
        let fused_required = match object.get("required") {
            Some(Value::Array(names))
                if names.len() == 1
                    && object.get("additionalProperties") == Some(&Value::Bool(false))
                    && object.get("properties").is_some_and(Value::is_object)
                    && !object.contains_key("patternProperties") =>
            {
                names[0].as_str().map(str::to_owned)
            }
            _ => None,
        };
        for (keyword, value) in object {
            check::plain_keyword(pointer, keyword, value)?;
            let at = format!("{pointer}/{}", escape(keyword));
            let compiled = match keyword.as_str() {
                "$ref" | "$dynamicRef" => {
                    let base = self.index.base_of(pointer);
                    let reference = value.as_str().unwrap_or_default();
                    let target = self
                        .index
                        .target(&base, reference)
                        .map_err(|message| SchemaError::new(&at, message))?;
                    if self.root.pointer(&target).is_none() {
                        return Err(SchemaError::new(
                            &at,
                            format!("Pointer '{target}' does not exist"),
                        ));
                    }
                    Some(Keyword::Ref(self.child(&target, depth)?))
                }
                "type" => Types::parse(value).map(Keyword::Type),
                "enum" => Some(Keyword::Enum(value.as_array().cloned().unwrap_or_default())),
                "const" => Some(Keyword::Const(value.clone())),
                "multipleOf" => value.as_number().cloned().map(Keyword::MultipleOf),
                "minimum" => Some(Keyword::Bound(Bound::Minimum, value.clone())),
                "maximum" => Some(Keyword::Bound(Bound::Maximum, value.clone())),
                "exclusiveMinimum" => Some(Keyword::Bound(Bound::ExclusiveMinimum, value.clone())),
                "exclusiveMaximum" => Some(Keyword::Bound(Bound::ExclusiveMaximum, value.clone())),
                "minLength" => Some(Keyword::MinLength(check::count(pointer, keyword, value)?)),
                "maxLength" => Some(Keyword::MaxLength(check::count(pointer, keyword, value)?)),
                "pattern" => {
                    let pattern = value.as_str().unwrap_or_default();
                    Some(Keyword::Pattern(
                        check::regex(&at, pattern)?,
                        pattern.to_owned(),
                    ))
                }
                "minItems" => Some(Keyword::MinItems(check::count(pointer, keyword, value)?)),
                "maxItems" => Some(Keyword::MaxItems(check::count(pointer, keyword, value)?)),
                "uniqueItems" => (value == &Value::Bool(true)).then_some(Keyword::UniqueItems),
                "prefixItems" => Some(Keyword::PrefixItems(
                    self.children(pointer, keyword, value, depth)?,
                )),
                "items" => {
                    check::subschema(&at, value)?;
                    let skip = object
                        .get("prefixItems")
                        .and_then(Value::as_array)
                        .map_or(0, Vec::len);
                    Some(Keyword::Items {
                        skip,
                        schema: self.child(&at, depth)?,
                    })
                }
                "contains" => {
                    let schema = self.child(&at, depth)?;
                    let min = match object.get("minContains") {
                        Some(min) => check::count(pointer, "minContains", min)?,
                        None => 1,
                    };
                    let max = match object.get("maxContains") {
                        Some(max) => Some(check::count(pointer, "maxContains", max)?),
                        None => None,
                    };
                    Some(Keyword::Contains { schema, min, max })
                }
                "minContains" | "maxContains" => {
                    check::count(pointer, keyword, value)?;
                    None
                }
                "minProperties" => Some(Keyword::MinProperties(check::count(
                    pointer, keyword, value,
                )?)),
                "maxProperties" => Some(Keyword::MaxProperties(check::count(
                    pointer, keyword, value,
                )?)),
                "required" => {
                    let names = check::names(&at, value)?;
                    fused_required.is_none().then_some(Keyword::Required(names))
                }
                "dependentRequired" => {
                    let map = check::schema_map(pointer, keyword, value)?;
                    let mut dependencies = Vec::with_capacity(map.len());
                    for (name, required) in map {
                        let names = check::names(&format!("{at}/{}", escape(name)), required)?;
                        dependencies.push((name.clone(), names));
                    }
                    Some(Keyword::DependentRequired(dependencies))
                }
                // The draft 7 keyword, which `jsonschema` still applies under 2020-12.
                "dependencies" => {
                    let map = check::schema_map(pointer, keyword, value)?;
                    for (name, dependency) in map {
                        let here = format!("{at}/{}", escape(name));
                        let compiled = if dependency.is_array() {
                            let names = check::names(&here, dependency)?;
                            Keyword::DependentRequired(vec![(name.clone(), names)])
                        } else {
                            Keyword::DependentSchemas(vec![(
                                name.clone(),
                                self.child(&here, depth)?,
                            )])
                        };
                        keywords.push((48, compiled));
                    }
                    None
                }
                "properties" => {
                    let properties = self.named_children(pointer, keyword, value, depth)?;
                    (!additional).then_some(Keyword::Properties(properties))
                }
                "patternProperties" => {
                    let patterns = self.patterns(pointer, value, depth)?;
                    (!additional).then_some(Keyword::PatternProperties(patterns))
                }
                "additionalProperties" => {
                    let schema = self.child(&at, depth)?;
                    if additional {
                        let properties = match object.get("properties") {
                            Some(value) => {
                                self.named_children(pointer, "properties", value, depth)?
                            }
                            None => Vec::new(),
                        };
                        let patterns = match object.get("patternProperties") {
                            Some(value) => self.patterns(pointer, value, depth)?,
                            None => Vec::new(),
                        };
                        Some(Keyword::AdditionalProperties {
                            properties,
                            patterns,
                            schema,
                            forbids: value == &Value::Bool(false),
                            declares: object.contains_key("properties")
                                || object.contains_key("patternProperties"),
                            required: fused_required.clone(),
                        })
                    } else {
                        None
                    }
                }
                "propertyNames" => Some(Keyword::PropertyNames(self.child(&at, depth)?)),
                "dependentSchemas" => Some(Keyword::DependentSchemas(
                    self.named_children(pointer, keyword, value, depth)?,
                )),
                "allOf" => Some(Keyword::AllOf(
                    self.children(pointer, keyword, value, depth)?,
                )),
                "anyOf" => Some(Keyword::AnyOf(
                    self.children(pointer, keyword, value, depth)?,
                )),
                "oneOf" => Some(Keyword::OneOf(
                    self.children(pointer, keyword, value, depth)?,
                )),
                "not" => Some(Keyword::Not(self.child(&at, depth)?, value.clone())),
                "if" => {
                    let condition = self.child(&at, depth)?;
                    let mut branch = |name: &str| -> Result<Option<NodeId>, SchemaError> {
                        match object.get(name) {
                            Some(_) => Ok(Some(self.child(&format!("{pointer}/{name}"), depth)?)),
                            None => Ok(None),
                        }
                    };
                    let then = branch("then")?;
                    let otherwise = branch("else")?;
                    Some(Keyword::If {
                        condition,
                        then,
                        otherwise,
                    })
                }
                "then" | "else" | "$defs" | "definitions" | "contentSchema" => {
                    // Checked like every subschema, though only reached through others.
                    if keyword == "$defs" || keyword == "definitions" {
                        self.named_children(pointer, keyword, value, depth)?;
                    } else {
                        self.child(&at, depth)?;
                    }
                    None
                }
                "unevaluatedProperties" => {
                    self.annotates = true;
                    Some(Keyword::UnevaluatedProperties(self.child(&at, depth)?))
                }
                "unevaluatedItems" => {
                    self.annotates = true;
                    Some(Keyword::UnevaluatedItems(self.child(&at, depth)?))
                }
                _ => None,
            };
            keywords.extend(compiled.map(|keyword| (priority(&keyword), keyword)));
        }
        if object.get("additionalProperties") == Some(&Value::Bool(true)) {
            keywords.push((42, Keyword::EvaluatesAllProperties));
        }
        // A stable sort: keywords of one priority keep the schema's order; the unevaluated
        // ones go last, to see what every other keyword evaluated.
        keywords.sort_by_key(|(priority, keyword)| {
            let unevaluated = matches!(
                keyword,
                Keyword::UnevaluatedProperties(_) | Keyword::UnevaluatedItems(_)
            );
            (unevaluated, *priority)
        });
        Ok(keywords.into_iter().map(|(_, keyword)| keyword).collect())
    }
}
