//! A text editor for one input file: a plain textarea with a line-number gutter, and the errors
//! that name this file listed underneath. Clicking an error with a line selects that line.
//! A "Form | Text" toggle swaps the textarea for the file's form view (Text by default).
//!
//! A big text that came from elsewhere (an example, a link, an import) is shown by its first
//! lines until the user asks for the whole of it: a browser takes some 50 ms to lay out 370 KB
//! in a textarea, and 20 ms more to hand it megabytes, which would hold the page while a big
//! scenario loads. Typing or pasting, a form's edit, Undo and Redo keep the textarea whole
//! ([`Editors::replaced`] counts only the replacements from elsewhere).

use super::config_form::ConfigForm;
use super::devices_form::DevicesForm;
use super::extenders_form::ExtendersForm;
use super::extenders_panel::ExtendersPanel;
use super::node_form::NodeForm;
use super::plugins_panel::PluginsPanel;
use super::pod_form::PodForm;
use super::policy_form::PolicyForm;
use super::scheduler_switch::{PolicyIgnored, SchedulerSwitch};
use crate::base::EditorFile;
use crate::state::{Editors, Loads};
use leptos::html;
use leptos::prelude::*;
use schedlab_core::Diagnostic;

/// What the empty Devices editor says goes there.
const DEVICES_PLACEHOLDER: &str = "# DeviceClasses, ResourceSlices, ResourceClaims and ResourceClaimTemplates\n# (resource.k8s.io/v1): the devices kube-scheduler v1.35 allocates to pods\n# through Dynamic Resource Allocation. The Form view adds them one by one;\n# the gpu-cluster example has a whole cluster of GPUs.";

/// What the empty Plugins editor says goes there.
const PLUGINS_PLACEHOLDER: &str = "// Custom plugins, in JavaScript: register each by name, then enable it in the\n// Config tab like an in-tree plugin (kube-scheduler v1.35). For example:\n//\n// register(\"NodeNumber\", (args) => ({\n//   score(pod, node) { return pod.metadata.name.slice(-1) === node.metadata.name.slice(-1) ? 10 : 0; },\n// }));\n//\n// \"Add the example\" above writes a whole one; \"Load a .wasm guest\" adds a\n// kube-scheduler-wasm-extension plugin.";

/// Height of one editor line in CSS pixels; equal to `--editor-line` in `style.css`.
const LINE_HEIGHT_PX: i32 = 18;
/// A text longer than this that came from elsewhere is shown by its first lines until asked.
pub const BIG_TEXT_BYTES: usize = 128 << 10;
/// Lines a big text's preview shows.
const PREVIEW_LINES: usize = 40;
/// Characters of a line a big text's preview shows.
const PREVIEW_LINE_CHARS: usize = 160;

/// The editor of one input file.
#[component]
pub fn Editor(file: EditorFile) -> impl IntoView {
    let editors = expect_context::<Editors>();
    let loads = expect_context::<Loads>();
    let text = editors.text(file);
    let gutter = NodeRef::<html::Div>::new();
    let area = NodeRef::<html::Textarea>::new();
    let form_view = RwSignal::new(false);
    // The textarea holds the whole text: it is small, or the user asked for it (or typed in
    // it) since the editors' texts were last replaced from elsewhere.
    let asked_at = RwSignal::new(None::<u64>);
    let ask_whole = move || asked_at.set(Some(editors.replaced.get_untracked()));
    let whole = Memo::new(move |_| {
        text.with(|t| t.len() <= BIG_TEXT_BYTES) || asked_at.get() == Some(editors.replaced.get())
    });
    let line_count = Memo::new(move |_| text.with(|t| t.matches('\n').count() + 1));
    let numbers = move || {
        let n = line_count.get();
        let mut s = String::with_capacity(n * 4);
        for i in 1..=n {
            if i > 1 {
                s.push('\n');
            }
            s.push_str(&i.to_string());
        }
        s
    };
    let errors = Memo::new(move |_| loads.errors_for(file));
    let error_lines = move || {
        errors.with(|errs| {
            let mut lines: Vec<usize> = errs.iter().filter_map(|d| d.line).collect();
            lines.sort_unstable();
            lines.dedup();
            lines
        })
    };

    let sync_scroll = move || {
        if let (Some(g), Some(a)) = (gutter.get_untracked(), area.get_untracked()) {
            g.set_scroll_top(a.scroll_top());
        }
    };
    let select_line = move |line: usize| {
        let Some(a) = area.get_untracked() else {
            return;
        };
        let (start, end) = text.with_untracked(|t| line_range_utf16(t, line));
        let _ = a.focus();
        let _ = a.set_selection_range(start, end);
        let top = (line as i32 - 1) * LINE_HEIGHT_PX - a.client_height() / 3;
        a.set_scroll_top(top.max(0));
        sync_scroll();
    };
    let jump_to = move |line: usize| {
        if form_view.get_untracked() || !whole.get_untracked() {
            form_view.set(false);
            ask_whole();
            request_animation_frame(move || select_line(line));
        } else {
            select_line(line);
        }
    };
    let form = move || {
        let text = Signal::from(text);
        // A form commits a finished field: rerun at once, without waiting for a typing pause.
        let on_edit = Callback::new(move |t: String| editors.commit(file, t));
        super::on_demand(form_of(file, text, on_edit))
    };

    let title = file.title();
    view! {
        <section
            class="editor"
            class:has-errors=move || !errors.with(Vec::is_empty)
            id=format!("editor-{}", file.stem())
            data-testid=format!("editor-{}", file.stem())
        >
            <EditorHead file=file text=text lines=line_count form_view=form_view/>
            {match file {
                EditorFile::Config => Some(view! { <SchedulerSwitch/> }.into_any()),
                EditorFile::Policy => Some(view! { <PolicyIgnored/> }.into_any()),
                EditorFile::Extenders => Some(view! { <ExtendersPanel/> }.into_any()),
                EditorFile::Plugins => Some(view! { <PluginsPanel/> }.into_any()),
                _ => None,
            }}
            // The text view stays mounted behind the form view (its scroll and selection survive).
            <Show
                when=move || whole.get()
                fallback=move || view! {
                    <BigTextPreview text=text lines=line_count hidden=form_view on_open=ask_whole/>
                }
            >
            <div class="code" class:hidden=move || form_view.get()>
                <div class="gutter" node_ref=gutter aria-hidden="true">
                    <pre>{numbers}</pre>
                    <For
                        each=error_lines
                        key=|line| *line
                        children=|line| {
                            view! { <span class="gutter-mark" style=format!("--line: {line}")></span> }
                        }
                    />
                </div>
                <textarea
                    node_ref=area
                    aria-label=format!("{title} ({})", file.stem())
                    spellcheck="false"
                    autocomplete="off"
                    autocapitalize="off"
                    wrap="off"
                    placeholder=match file {
                        EditorFile::Devices => Some(DEVICES_PLACEHOLDER),
                        EditorFile::Plugins => Some(PLUGINS_PLACEHOLDER),
                        _ => None,
                    }
                    // Never megabytes on their way out: a big text from elsewhere unmounts this.
                    prop:value=move || if whole.get() { text.get() } else { String::new() }
                    on:input=move |ev| {
                        ask_whole();
                        editors.edit(file, event_target_value(&ev))
                    }
                    on:scroll=move |_| sync_scroll()
                ></textarea>
            </div>
            </Show>
            <Show when=move || form_view.get()>
                <div class="form-scroll">{form}</div>
            </Show>
            <Diagnostics file=file errors=errors jump_to=jump_to/>
        </section>
    }
}

/// The editor's title, its file's name and format, its length, and the Form | Text toggle.
#[component]
fn EditorHead(
    file: EditorFile,
    text: ReadSignal<String>,
    lines: Memo<usize>,
    form_view: RwSignal<bool>,
) -> impl IntoView {
    view! {
            <header class="editor-head">
                <h2>{file.title()}</h2>
                <span class="filename">{move || text.with(|t| file.source_name(t))}</span>
                <span class="editor-meta">
                    {move || {
                        format!(
                            "{} · {} lines",
                            text.with(|t| file.format(t)),
                            lines.get(),
                        )
                    }}
                </span>
                {file.has_form().then(|| view! {
                    <span class="view-toggle" role="group" aria-label="View">
                        <button
                            class:active=move || form_view.get()
                            aria-pressed=move || form_view.get().to_string()
                            data-testid="editor-view-form"
                            on:click=move |_| form_view.set(true)
                        >
                            "Form"
                        </button>
                        <button
                            class:active=move || !form_view.get()
                            aria-pressed=move || (!form_view.get()).to_string()
                            data-testid="editor-view-text"
                            on:click=move |_| form_view.set(false)
                        >
                            "Text"
                        </button>
                    </span>
                })}
            </header>
    }
}

/// The errors that name this file, each selecting its line when clicked.
#[component]
fn Diagnostics(
    file: EditorFile,
    errors: Memo<Vec<Diagnostic>>,
    jump_to: impl Fn(usize) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    view! {
        <Show when=move || !errors.with(Vec::is_empty)>
            <ul class="diagnostics" role="alert" data-testid=format!("errors-{}", file.stem())>
                <For
                    each=move || errors.get().into_iter().enumerate()
                    key=|(i, d)| (*i, d.to_string())
                    children=move |(_, d)| view! { <DiagnosticItem d=d jump_to=jump_to/> }
                />
            </ul>
        </Show>
    }
}

/// A big text's first lines, what it holds in all, and a button that puts the whole of it in the
/// textarea.
#[component]
fn BigTextPreview(
    text: ReadSignal<String>,
    lines: Memo<usize>,
    hidden: RwSignal<bool>,
    on_open: impl Fn() + Send + Sync + 'static,
) -> impl IntoView {
    let preview = move || text.with(|t| first_lines(t, PREVIEW_LINES, PREVIEW_LINE_CHARS));
    let size = move || {
        let lines = lines.get();
        format!(
            "{} KB in {lines} lines: its first {} lines are shown here, so that the page stays quick. The run reads all of it.",
            text.with(|t| t.len().div_ceil(1024)),
            lines.min(PREVIEW_LINES)
        )
    };
    view! {
        <div class="big-text" class:hidden=move || hidden.get() data-testid="big-text">
            <p class="big-text-note">
                <span>{size}</span>
                <button class="big-text-open" data-testid="big-text-open" on:click=move |_| on_open()>
                    "Show and edit the whole text"
                </button>
            </p>
            <pre class="big-text-head">{preview}</pre>
        </div>
    }
}

/// The first `lines` lines of `text`, each cut after `chars` characters (marked `…`).
fn first_lines(text: &str, lines: usize, chars: usize) -> String {
    let mut out = String::new();
    for line in text.split('\n').take(lines) {
        match line.char_indices().nth(chars) {
            Some((cut, _)) => {
                out.push_str(&line[..cut]);
                out.push('…');
            }
            None => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

/// One error: its line (a button that selects it), its path and its message.
#[component]
fn DiagnosticItem(
    d: Diagnostic,
    jump_to: impl Fn(usize) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let full = d.to_string();
    let line = d.line.map(|line| {
        view! {
            <button
                class="diag-line"
                title="Select this line"
                on:click=move |_| jump_to(line)
            >
                {format!("line {line}")}
            </button>
        }
    });
    let path =
        (!d.path.is_empty()).then(|| view! { <code class="diag-path">{d.path.clone()}</code> });
    view! {
        <li class="diagnostic" data-testid="diagnostic" title=full>
            {line}
            {path}
            <span class="diag-message">{d.message}</span>
        </li>
    }
}

/// The UTF-16 offsets (what `setSelectionRange` takes) of a 1-based line, without its newline.
fn line_range_utf16(text: &str, line: usize) -> (u32, u32) {
    let mut start = 0u32;
    for (i, l) in text.split('\n').enumerate() {
        let len = l.encode_utf16().count() as u32;
        if i + 1 == line {
            return (start, start + len);
        }
        start += len + 1;
    }
    (start, start)
}

#[cfg(test)]
mod tests {
    use super::first_lines;

    #[test]
    fn a_preview_keeps_the_first_lines_and_cuts_long_ones() {
        let text = "ab\ncdefgh\nij\nkl";
        // Three lines, each cut after four characters.
        assert_eq!(first_lines(text, 3, 4), "ab\ncdef…\nij\n");
        // Characters, not bytes: "é" is two bytes.
        assert_eq!(first_lines("ééééé", 1, 2), "éé…\n");
        // A line of exactly the limit is not cut.
        assert_eq!(first_lines("abcd", 5, 4), "abcd\n");
    }
}

split_point! {
    /// The form of `file`. A split point: the forms' code (and the YAML reader they edit
    /// with) is fetched when a form is first opened.
    fn form_of(file: EditorFile, text: Signal<String>, on_edit: Callback<String>) -> AnyView {
        match file {
            EditorFile::Nodes => view! { <NodeForm text=text on_edit=on_edit/> }.into_any(),
            EditorFile::Pods => view! { <PodForm text=text on_edit=on_edit/> }.into_any(),
            EditorFile::Devices => view! { <DevicesForm text=text on_edit=on_edit/> }.into_any(),
            EditorFile::Policy => view! { <PolicyForm text=text on_edit=on_edit/> }.into_any(),
            EditorFile::Config => view! { <ConfigForm text=text on_edit=on_edit/> }.into_any(),
            EditorFile::Extenders => view! { <ExtendersForm text=text on_edit=on_edit/> }.into_any(),
            // No form: the program is code (the toggle is hidden).
            EditorFile::Plugins => ().into_any(),
        }
    }
}
