//! `release_free_memory` hands the pages of freed blocks back to the operating system: memory
//! freed between blocks still in use leaves the process's resident set. (Its own test binary,
//! so that no other test allocates while the resident set is read.)

/// The process's resident set in bytes (`/proc/self/statm`, pages of 4 KiB or the system's).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn resident_bytes() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").expect("Linux has /proc/self/statm");
    let pages: u64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|f| f.parse().ok())
        .expect("statm's second field is the resident pages");
    let page = std::process::Command::new("getconf")
        .arg("PAGESIZE")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(4096);
    pages * page
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[test]
fn freed_blocks_between_live_ones_leave_the_resident_set() {
    const BLOCK: usize = 64 * 1024;
    // 128 MiB in blocks small enough for the allocator to serve from its arena.
    const BLOCKS: usize = 2048;
    // On a thread of its own, as the portfolio's second list runs (its own arena).
    let (freed, before, after) = std::thread::spawn(|| {
        let mut blocks: Vec<Vec<u8>> = (0..BLOCKS)
            .map(|i| vec![(i % 251) as u8 + 1; BLOCK])
            .collect();
        // Keep one block in eight, so that the freed ones sit between live ones.
        let mut kept = Vec::new();
        for (i, b) in blocks.drain(..).enumerate() {
            if i % 8 == 0 {
                kept.push(b);
            }
        }
        let before = resident_bytes();
        puzzle_engine::memory::release_free_memory();
        let after = resident_bytes();
        // The kept blocks are intact.
        for (k, b) in kept.iter().enumerate() {
            assert!(b.iter().all(|&x| x == ((k * 8) % 251) as u8 + 1));
        }
        ((BLOCKS - kept.len()) * BLOCK, before, after)
    })
    .join()
    .expect("the thread does not panic");
    assert!(
        before.saturating_sub(after) >= freed as u64 / 2,
        "resident {before} -> {after} bytes after freeing {freed}"
    );
}
