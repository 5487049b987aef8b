//! Where an item was declared in the user's source: start-up errors (a duplicate tool
//! name, a missing state) name the places involved.

use std::fmt;

/// A place in the user's source code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SourceLocation {
    /// `file!()` of the definition.
    pub file: &'static str,
    /// `line!()` of the definition.
    pub line: u32,
    /// `module_path!()` of the definition.
    pub module_path: &'static str,
}

impl fmt::Display for SourceLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{} ({})", self.file, self.line, self.module_path)
    }
}
