//! Entry point of the playground's wasm binary: installs the panic hook and mounts [`App`].

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(schedlab_web::App);
}
