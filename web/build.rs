//! Keeps the link's relocations in the page's wasm (`--emit-relocs`): `wasm-split-cli`
//! (`scripts/split-page.sh`) reads them to cut the module at its `#[lazy]` split points. Only
//! the binary's link on wasm32; the library's native tests link as usual.

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo::rustc-link-arg-bins=--emit-relocs");
    }
}
