//! The Lua scripts: each runs atomically in Redis, so every instance of a fleet sees a
//! task's change whole or not at all. They never parse a record's JSON (Lua's JSON would
//! round numbers); the hash fields beside it (`version`, `expires_at`) say what they need.

/// Stores a new task unless its id is taken or its owner has `limit` unfinished tasks:
/// counting and storing in one step is what keeps concurrent creates within the limit.
///
/// KEYS: 1 the task, 2 the owners of tasks, 3 the owner's unfinished tasks, 4 the owner's
/// tasks by number, 5 the sequence, 6 the expiring tasks, 7 the runner's unfinished tasks,
/// 8 the instances that run tasks.
/// ARGV: 1 id, 2 record, 3 owner, 4 runner, 5 `1` if unfinished, 6 limit, 7 now (ms),
/// 8 when it expires (ms) or empty, 9 when its hash goes (ms).
///
/// Returns 1 stored, 0 the owner is at the limit, -1 the id is taken, -2 an expired task
/// or the leftovers of one hold the id: forget it, then try again.
pub(super) const CREATE: &str = r#"
if redis.call('EXISTS', KEYS[1]) == 1 then
  local at = redis.call('HGET', KEYS[1], 'expires_at')
  if not at or tonumber(at) > tonumber(ARGV[7]) then return -1 end
  return -2
end
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return -2 end
if redis.call('SCARD', KEYS[3]) >= tonumber(ARGV[6]) then return 0 end
local seq = redis.call('INCR', KEYS[5])
redis.call('HSET', KEYS[1], 'record', ARGV[2], 'version', 1, 'seq', seq,
  'owner', ARGV[3], 'runner', ARGV[4])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
redis.call('ZADD', KEYS[4], seq, ARGV[1])
if ARGV[5] == '1' then
  redis.call('SADD', KEYS[3], ARGV[1])
  redis.call('SADD', KEYS[7], ARGV[1])
  redis.call('SADD', KEYS[8], ARGV[4])
end
if ARGV[8] ~= '' then
  redis.call('HSET', KEYS[1], 'expires_at', ARGV[8])
  redis.call('ZADD', KEYS[6], ARGV[8], ARGV[1])
  redis.call('PEXPIREAT', KEYS[1], ARGV[9])
end
return 1
"#;

/// Replaces a task's record if nobody wrote it since it was read (its `version` is the one
/// read), and tells every instance (the id on the channel). With ARGV 9 = `1`, only while
/// the instance whose heartbeat is KEYS 4 is dead (`runner_dead` of the link's `LIVENESS`,
/// which runs before this): failing a task for a dead runner never races a runner that is
/// back.
///
/// KEYS: 1 the task, 2 its owner's unfinished tasks, 3 the expiring tasks, 4 a heartbeat,
/// 5 the fleet's pulse, 6 the end of its last gap, 7 its runner's unfinished tasks.
/// ARGV: 1 version read, 2 record, 3 `1` if it finishes now, 4 when it expires (ms) or
/// empty, 5 when its hash goes (ms), 6 now (ms), 7 id, 8 channel, 9 `1` if the heartbeat
/// must be missing, 10 the gap, 11 the grace period (ms).
///
/// Returns 1 written, 0 changed meanwhile (read again), -1 no such task (or expired).
pub(super) const WRITE: &str = r#"
local version = redis.call('HGET', KEYS[1], 'version')
if not version then return -1 end
local at = redis.call('HGET', KEYS[1], 'expires_at')
if at and tonumber(at) <= tonumber(ARGV[6]) then return -1 end
if version ~= ARGV[1] then return 0 end
if ARGV[9] == '1' and not runner_dead(KEYS[4], KEYS[5], KEYS[6], ARGV[10], ARGV[11]) then
  return 0
end
redis.call('HSET', KEYS[1], 'record', ARGV[2])
redis.call('HINCRBY', KEYS[1], 'version', 1)
if ARGV[3] == '1' then
  redis.call('SREM', KEYS[2], ARGV[7])
  redis.call('SREM', KEYS[7], ARGV[7])
end
if ARGV[4] ~= '' then
  redis.call('HSET', KEYS[1], 'expires_at', ARGV[4])
  redis.call('ZADD', KEYS[3], ARGV[4], ARGV[7])
  redis.call('PEXPIREAT', KEYS[1], ARGV[5])
end
redis.call('PUBLISH', ARGV[8], ARGV[7])
return 1
"#;

/// Forgets an instance (ARGV 1) that runs no task any more (KEYS 1, its unfinished tasks)
/// from the instances that run tasks (KEYS 2): checked and done in one step, so that a task
/// it created meanwhile keeps it there.
pub(super) const FORGET_RUNNER: &str = r#"
if redis.call('SCARD', KEYS[1]) > 0 then return 0 end
return redis.call('SREM', KEYS[2], ARGV[1])
"#;

/// Forgets a task that expired as of now, or whose record Redis already dropped: its hash
/// and every index entry, and tells its watchers. A task that has not expired stays (only
/// a stale entry in the expiring index, which cannot be its own, goes).
///
/// KEYS: 1 the task, 2 the expiring tasks, 3 the owners of tasks, 4 the owner's tasks by
/// number, 5 the owner's unfinished tasks.
/// ARGV: 1 id, 2 now (ms), 3 owner, 4 channel.
///
/// Returns 1 forgotten, 0 nothing to forget, -1 the task belongs to another owner than
/// the one given (read its owner again).
pub(super) const FORGET: &str = r#"
if redis.call('EXISTS', KEYS[1]) == 1 then
  local at = redis.call('HGET', KEYS[1], 'expires_at')
  if not at or tonumber(at) > tonumber(ARGV[2]) then
    local listed = redis.call('ZSCORE', KEYS[2], ARGV[1])
    if listed and tonumber(listed) <= tonumber(ARGV[2]) then
      redis.call('ZREM', KEYS[2], ARGV[1])
    end
    return 0
  end
end
local owner = redis.call('HGET', KEYS[3], ARGV[1])
if owner and owner ~= ARGV[3] then return -1 end
local removed = redis.call('DEL', KEYS[1]) + redis.call('ZREM', KEYS[2], ARGV[1])
  + redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('ZREM', KEYS[4], ARGV[1])
redis.call('SREM', KEYS[5], ARGV[1])
if removed == 0 then return 0 end
redis.call('PUBLISH', ARGV[4], ARGV[1])
return 1
"#;
