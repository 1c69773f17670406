//! Engine benchmarks (filled in by the engine work).
fn main() {
    divan::main();
}
