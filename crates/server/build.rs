//! Rebuild when the page changes (the files are embedded by `include_dir!`, which cannot tell
//! cargo about them on stable Rust).
fn main() {
    println!("cargo:rerun-if-changed=web");
}
