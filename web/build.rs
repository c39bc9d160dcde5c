//! Two things the page's build needs before compiling:
//!
//! - the link's relocations in the page's wasm (`--emit-relocs`): `wasm-split-cli`
//!   (`scripts/split-page.sh`) reads them to cut the module at its split points. Only the
//!   binary's link on wasm32; the library's native tests link as usual;
//! - each `assets/lessons/<name>/lesson.yaml` as JSON, `$OUT_DIR/lessons/<name>.json`, which
//!   `src/lesson.rs` compiles in: the page reads its lessons with serde_json, which it has
//!   anyway, and leaves the YAML reader out of its first load. A lesson that is not YAML stops
//!   the build here, naming its file; the tests read the YAML itself and check that both agree.

use std::path::{Path, PathBuf};
use std::{env, fs};

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    if env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo::rustc-link-arg-bins=--emit-relocs");
    }
    if let Err(e) = lessons_as_json() {
        eprintln!("{e}");
        std::process::exit(1);
    }
}

/// Writes each lesson's JSON (see the module docs).
fn lessons_as_json() -> Result<(), String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets/lessons");
    println!("cargo::rerun-if-changed={}", dir.display());
    let out = PathBuf::from(env::var_os("OUT_DIR").ok_or("no OUT_DIR")?).join("lessons");
    fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let entries = fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries {
        let folder = entry.map_err(|e| format!("{}: {e}", dir.display()))?.path();
        let yaml = folder.join("lesson.yaml");
        if !yaml.is_file() {
            continue;
        }
        println!("cargo::rerun-if-changed={}", yaml.display());
        let text = fs::read_to_string(&yaml).map_err(|e| format!("{}: {e}", yaml.display()))?;
        let value: serde_json::Value =
            serde_yaml_ng::from_str(&text).map_err(|e| format!("{}: {e}", yaml.display()))?;
        let name = folder.file_name().ok_or("a lesson folder with no name")?;
        let json = out.join(Path::new(name).with_extension("json"));
        let text = serde_json::to_string(&value).map_err(|e| format!("{}: {e}", yaml.display()))?;
        fs::write(&json, text).map_err(|e| format!("{}: {e}", json.display()))?;
    }
    Ok(())
}
