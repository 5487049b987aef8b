//! What one thread sends on one outbox while it handles a message, kept for it instead of
//! queued (see [`Outbox::keep_on_this_thread`](super::Outbox::keep_on_this_thread)).
//!
//! A thread-local, because what sends is whatever holds a clone of the outbox (a tool's
//! `Context`, deep in user code, which may move to other threads), and only what is sent
//! on the handling thread while it handles belongs before the answer. The outbox is known
//! by its key, the address of the sender its clones share: compared, never read (the
//! guard's holder keeps the outbox alive while it is set).

use std::cell::RefCell;
use std::marker::PhantomData;

thread_local! {
    /// The outbox whose messages this thread keeps, and the lines kept.
    static KEPT: RefCell<Option<Kept>> = const { RefCell::new(None) };
}

struct Kept {
    outbox: *const (),
    lines: Vec<u8>,
}

/// From now until the guard is dropped, this thread keeps what it sends on `outbox`.
#[inline]
pub(super) fn start(outbox: *const ()) -> KeptHere {
    KEPT.with(|kept| {
        *kept.borrow_mut() = Some(Kept {
            outbox,
            lines: Vec::new(),
        });
    });
    KeptHere {
        _this_thread: PhantomData,
    }
}

/// Keeps `line` if this thread keeps what is sent on `outbox`, else gives it back.
pub(super) fn keep(outbox: *const (), mut line: Vec<u8>) -> Result<(), Vec<u8>> {
    KEPT.with(|kept| match &mut *kept.borrow_mut() {
        Some(kept) if std::ptr::eq(kept.outbox, outbox) => {
            kept.lines.append(&mut line);
            Ok(())
        }
        _ => Err(line),
    })
}

/// Keeps what this thread sends on one outbox; see
/// [`Outbox::keep_on_this_thread`](super::Outbox::keep_on_this_thread).
pub(crate) struct KeptHere {
    /// The lines are kept in this thread's storage.
    _this_thread: PhantomData<*const ()>,
}

impl KeptHere {
    /// Appends the lines kept so far to `output`.
    pub fn take(&self, output: &mut Vec<u8>) {
        KEPT.with(|kept| {
            if let Some(kept) = &mut *kept.borrow_mut() {
                output.append(&mut kept.lines);
            }
        });
    }
}

impl Drop for KeptHere {
    fn drop(&mut self) {
        KEPT.with(|kept| *kept.borrow_mut() = None);
    }
}
