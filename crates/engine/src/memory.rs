//! Handing freed memory back to the operating system between searches.
//!
//! A search that ends frees its node arrays, but the C allocator (glibc's) keeps the pages of
//! freed blocks that sit between blocks still in use, and it keeps them per thread arena. A
//! portfolio that runs its searches one after another on two threads (the Sokoban
//! portfolio) then holds, beside the searches running, what the earlier searches of each
//! thread left behind: on XSokoban 90 at 60 s on two threads the process peaked at 1,206 MB
//! with two searches holding about 940 MB between them. [`release_free_memory`] between
//! searches brings that peak to 939 MB (`docs/ROBUSTNESS.md`, memory).

/// Return the free pages of every allocator arena to the operating system (glibc's
/// `malloc_trim(0)`), so that the memory a finished search freed no longer counts in the
/// process's resident set. Costs a walk over the arenas' free blocks (milliseconds after a
/// search of millions of nodes); call it between searches, not inside one. Does nothing where
/// the C library is not glibc.
pub fn release_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `malloc_trim` has no preconditions: it takes each arena's lock itself, so it may
    // run on any thread while others allocate, it reads no pointer of ours, and it only
    // advises the kernel that whole pages inside free blocks are unused (`MADV_DONTNEED`)
    // or shrinks the heap's free top; no live allocation is moved or touched. Its return
    // value (whether memory was released) is not needed.
    unsafe {
        libc::malloc_trim(0);
    }
}
