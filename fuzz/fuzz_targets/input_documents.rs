//! Arbitrary bytes as one input file: read, loaded as a scenario for each scheduler, and (when
//! it loads) run within small limits and rendered. Nothing may panic, whatever the text.
//!
//! The first byte picks the file name (`f.json` or `f.yaml`) and the scheduler asked for; the
//! rest is the file's text (invalid UTF-8 replaced, as a browser's decoder would).

#![no_main]

use libfuzzer_sys::fuzz_target;
use schedlab_core::input::{read_source, Source};
use schedlab_core::model::Millis;
use schedlab_core::report::{json_report, text_report};
use schedlab_core::scenario::SchedulerVersion;
use schedlab_core::simulation::Limits;
use schedlab_core::Scenario;

/// Small bounds: a fuzzed scenario must not run for long.
const LIMITS: Limits = Limits {
    until: Some(Millis(3_600_000)),
    max_cycles: Some(200),
};

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let name = if mode & 1 == 0 { "f.json" } else { "f.yaml" };
    let requested = match (mode >> 1) % 3 {
        0 => None,
        1 => Some(SchedulerVersion::V1_17),
        _ => Some(SchedulerVersion::V1_35),
    };
    let src = Source { name, text: &text };
    // Errors and warnings must be printable.
    match read_source(&src) {
        Ok(inputs) => inputs.warnings.iter().for_each(|w| drop(w.to_string())),
        Err(errors) => errors.iter().for_each(|e| drop(e.to_string())),
    }
    match Scenario::load_with(&[src], requested) {
        Ok(scenario) => {
            let run = scenario.run_with(1, true, LIMITS);
            drop(json_report(&run, true));
            drop(text_report(&run));
        }
        Err(errors) => errors.iter().for_each(|e| drop(e.to_string())),
    }
});
