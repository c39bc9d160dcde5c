//! Assembles a WAT guest into a `.wasm` module for `schedlab run --plugin NAME=FILE`:
//! `cargo run -p schedlab_guest --example assemble -- guests/node_number.wat node_number.wasm`.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, output] = args.as_slice() else {
        eprintln!("usage: assemble IN.wat OUT.wasm");
        return ExitCode::from(2);
    };
    let bytes = match wat::parse_file(input) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: {input}: {e}");
            return ExitCode::from(1);
        }
    };
    if let Err(e) = std::fs::write(output, bytes) {
        eprintln!("error: {output}: {e}");
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}
