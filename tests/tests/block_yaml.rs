//! The quick reader of kubectl's block YAML (`schedlab_core::input`'s `block_yaml`, which reads
//! the items of large YAML lists) on real objects: every object of `shared/realworld/inputs` and
//! of the gallery's scenarios, written as block YAML by serde_yaml_ng (libyaml's emitter, the
//! layout kubectl writes). What the quick reader takes, it must read as libyaml's path reads
//! it; and it must take most of them.

use schedlab_core::input::block_yaml_matches_libyaml;
use schedlab_tests::realworld_dir;
use serde::Deserialize;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The objects of a JSON or YAML file: a list's items, else each document; nothing for a file
/// that does not parse as plain data.
fn objects(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let documents: Vec<Value> = match serde_json::from_str::<Value>(&text) {
        Ok(v) => vec![v],
        Err(_) => serde_yaml_ng::Deserializer::from_str(&text)
            .map_while(|d| Value::deserialize(d).ok())
            .collect(),
    };
    documents
        .into_iter()
        .flat_map(|d| match d.get("items").and_then(Value::as_array) {
            Some(items) => items.clone(),
            None => vec![d],
        })
        .filter(Value::is_object)
        .collect()
}

fn files() -> Vec<PathBuf> {
    let gallery = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../assets/scenarios"));
    let mut files: Vec<PathBuf> = std::fs::read_dir(realworld_dir().join("inputs"))
        .expect("shared/realworld/inputs")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    for example in std::fs::read_dir(gallery).expect("assets/scenarios") {
        let dir = example.expect("an example").path();
        if let Ok(entries) = std::fs::read_dir(&dir) {
            files.extend(entries.filter_map(|e| e.ok().map(|e| e.path())));
        }
    }
    files.retain(|f| {
        f.extension()
            .is_some_and(|x| x == "json" || x == "yaml" || x == "yml")
    });
    files.sort();
    files
}

#[test]
fn real_objects_written_as_block_yaml_read_as_libyaml_reads_them() {
    let (mut objects_seen, mut taken) = (0, 0);
    for file in files() {
        for object in objects(&file) {
            let yaml = serde_yaml_ng::to_string(&object).expect("YAML");
            objects_seen += 1;
            match block_yaml_matches_libyaml(&yaml) {
                Some(true) => taken += 1,
                Some(false) => panic!(
                    "{}: the quick reader and libyaml disagree on\n{yaml}",
                    file.display()
                ),
                None => {}
            }
        }
    }
    // The gallery alone holds more than 10 000 objects (big-cluster's pods).
    assert!(objects_seen > 10_000, "{objects_seen} objects");
    // Most are plain enough for the quick reader (those it leaves have block scalars, floats,
    // non-ASCII text, ...).
    assert!(
        taken * 10 >= objects_seen * 9,
        "taken {taken} of {objects_seen}"
    );
}
