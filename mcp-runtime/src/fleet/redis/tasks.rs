//! [`RedisTaskStore`]: tasks in Redis (being written).

/// Tasks in Redis.
#[derive(Debug)]
pub struct RedisTaskStore {}
