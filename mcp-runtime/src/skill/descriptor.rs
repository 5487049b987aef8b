//! The static descriptors `skill!` submits to `inventory`.

use crate::location::SourceLocation;

/// One skill folder embedded by `skill!`.
///
/// Built by the macro as a constant; users never write one by hand.
#[doc(hidden)]
pub struct SkillDescriptor {
    /// The skill path: `pdf-forms`, or `acme/billing/refunds` with a prefix; its last segment
    /// is the skill's name.
    pub path: &'static str,
    /// Every file of the folder, sorted by path, `SKILL.md` among them.
    pub files: &'static [SkillFile],
    /// Where the `skill!` is, for start-up errors such as two skills of one name.
    pub location: SourceLocation,
}

/// One file of a skill, embedded with its digest computed at compile time.
#[doc(hidden)]
pub struct SkillFile {
    /// Relative to the skill's folder, `/`-separated.
    pub path: &'static str,
    pub bytes: &'static [u8],
    /// `sha256:` and 64 lowercase hex digits, of `bytes`.
    pub digest: &'static str,
}

inventory::collect!(SkillDescriptor);

/// Every skill linked into this binary, in unspecified order.
pub(crate) fn registered_skills() -> impl Iterator<Item = &'static SkillDescriptor> {
    inventory::iter::<SkillDescriptor>.into_iter()
}
