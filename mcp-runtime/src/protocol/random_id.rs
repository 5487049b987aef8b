//! Unguessable identifiers: HTTP session ids, task ids, task owners of connections.

/// 128 random bits from the operating system's generator, in hex: unguessable, and
/// visible ASCII as the spec requires of session ids.
pub(crate) fn random_id() -> String {
    let mut bytes = [0_u8; 16];
    getrandom::fill(&mut bytes).expect("the operating system's random number generator works");
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}
