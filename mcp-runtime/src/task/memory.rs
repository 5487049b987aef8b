//! [`InMemoryTaskStore`]: the default store, in this process's memory.

/// Tasks kept in this process's memory: the default. A fleet of servers needs a shared
/// store instead.
#[derive(Default)]
pub struct InMemoryTaskStore {}
