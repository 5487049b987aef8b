//! The tasks of dead instances, failed in the background: nobody may ever read them (a
//! 2026-07-28 client has no `tasks/list`), and until they fail they count against their
//! owner's limit and their keys never expire.

use super::RedisTaskStore;
use crate::task::store::StoreError;

impl RedisTaskStore {
    /// Fails every unfinished task of every instance that died (see `settle`), and forgets
    /// the instances left with none.
    pub(super) async fn sweep(&self) -> Result<(), StoreError> {
        let runners_key = self.link().key("tasks:runners");
        let mut connection = self.link().connection();
        let runners: Vec<String> = redis::cmd("SMEMBERS")
            .arg(&runners_key)
            .query_async(&mut connection)
            .await
            .map_err(|error| self.unavailable(error))?;
        for runner in runners {
            if runner == *self.inner.instance || self.link().is_alive(&runner).await? {
                continue;
            }
            let runs = self.runs_key(&runner);
            let ids: Vec<String> = redis::cmd("SMEMBERS")
                .arg(&runs)
                .query_async(&mut connection)
                .await
                .map_err(|error| self.unavailable(error))?;
            for id in ids {
                // Failed here unless it finished meanwhile; either way it runs no more.
                let settled = self.load(&id).await?;
                if settled.is_none_or(|(record, _)| record.status.is_terminal()) {
                    let _: i64 = redis::cmd("SREM")
                        .arg(&runs)
                        .arg(&id)
                        .query_async(&mut connection)
                        .await
                        .map_err(|error| self.unavailable(error))?;
                }
            }
            let _: i64 = self
                .inner
                .forget_runner
                .key(&runs)
                .key(&runners_key)
                .arg(&runner)
                .invoke_async(&mut connection)
                .await
                .map_err(|error| self.unavailable(error))?;
        }
        Ok(())
    }
}
