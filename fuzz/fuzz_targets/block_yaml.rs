//! Arbitrary bytes as YAML: the quick reader of kubectl's block YAML (`input/block_yaml.rs`,
//! used for the items of large lists) either leaves the text to libyaml, or reads it as the same
//! tree that libyaml's path reads.
//!
//! Invalid UTF-8 is replaced, as a browser's decoder would.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    assert_ne!(
        schedlab_core::input::block_yaml_matches_libyaml(&text),
        Some(false),
        "the quick reader and libyaml disagree on {text:?}"
    );
});
