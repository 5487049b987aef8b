//! The Redis stores (feature `redis`): the reference implementations of [`FleetStore`] and
//! [`TaskStore`], on one connection per instance.
//!
//! [`FleetStore`]: super::FleetStore
//! [`TaskStore`]: crate::TaskStore

mod fleet_store;
mod link;
mod subscription;
mod tasks;

pub use fleet_store::RedisFleetStore;
pub use link::RedisLink;
pub use tasks::RedisTaskStore;
