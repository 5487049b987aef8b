//! A JSON Schema (draft 2020-12) validator for what the runtime checks: a call's arguments
//! against its tool's `inputSchema`, a dynamic tool's schemas when it is added. It covers
//! the applicator and validation vocabularies, `$ref` within one document, and
//! `unevaluatedProperties`/`unevaluatedItems`; `format` is an annotation, as `jsonschema`
//! leaves it under 2020-12, and remote references are refused. Its errors are worded as
//! `jsonschema` 0.61 words them: `tests/` holds it to the official test suite and to
//! `jsonschema`'s errors, and `mcp-tests`' `schema_agreement` to them on every published
//! schema.

mod check;
mod compile;
mod error;
mod eval;
mod refs;
mod types;

#[cfg(test)]
mod tests;

use serde_json::Value;

pub(crate) use error::{ErrorKind, SchemaError, ValidationError};

use compile::{Compiler, Node, NodeId};
use eval::Eval;

/// A schema compiled once, to check any number of values against.
pub(crate) struct Schema {
    nodes: Vec<Node>,
    root: NodeId,
    annotates: bool,
}

impl Schema {
    /// Compiles `schema`, refusing what the 2020-12 meta-schema refuses, a pattern that is
    /// not a regular expression, and a `$ref` to anything outside the document.
    pub(crate) fn compile(schema: &Value) -> Result<Schema, SchemaError> {
        let mut compiler = Compiler::new(schema);
        let root = compiler.compile("", 0)?;
        Ok(Schema {
            annotates: compiler.annotates,
            nodes: compiler.nodes,
            root,
        })
    }

    /// Whether `instance` is valid, stopping at its first error.
    pub(crate) fn is_valid(&self, instance: &Value) -> bool {
        Eval::new(&self.nodes, self.annotates)
            .node(self.root, instance, None)
            .valid
    }

    /// Every error of `instance`, in the order the schema's keywords come.
    pub(crate) fn errors(&self, instance: &Value) -> Vec<ValidationError> {
        let mut errors = Vec::new();
        Eval::new(&self.nodes, self.annotates).node(self.root, instance, Some(&mut errors));
        errors
    }
}
