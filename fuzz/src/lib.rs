//! What every fuzz target links: a global allocator that aborts on any single allocation above
//! 512 MiB, so that an input asking for unbounded memory is a crash the fuzzer records, without
//! AddressSanitizer's malloc hooks (the targets are built with `-s none` for speed; the code
//! under test has no `unsafe`).

use std::alloc::{GlobalAlloc, Layout, System};

/// The largest single allocation a target may make.
pub const MALLOC_LIMIT: usize = 512 << 20;

struct Limited;

fn check(size: usize) {
    if size > MALLOC_LIMIT {
        eprintln!("malloc limit exceeded: one allocation of {size} bytes");
        std::process::abort();
    }
}

// SAFETY: every call is forwarded unchanged to the system allocator after a size check.
unsafe impl GlobalAlloc for Limited {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        check(layout.size());
        System.alloc(layout)
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        check(layout.size());
        System.alloc_zeroed(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        check(new_size);
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static ALLOCATOR: Limited = Limited;

/// Run a target's body (linking this crate, and so its allocator, into the target).
pub fn run(body: fn(&[u8]), data: &[u8]) {
    body(data)
}
