//! The bottom of the page's crate: the seven input files ([`EditorFile`]) and the constants
//! every part of the page shares. It imports nothing of the page, so anything may import it.

use schedlab_core::input::looks_like_json;
use schedlab_core::Diagnostic;

/// The seed of the tie-break between equally scored nodes, unless a link names another.
pub const SEED: u64 = 0;

/// The most text one editor holds that the page reads (a bigger paste is kept, not read: it
/// would hold the tab for seconds). `schedlab run` reads files of up to 64 MiB.
pub const PAGE_MAX_TEXT: usize = 16 << 20;

/// How many input files (editors) there are.
pub const EDITORS: usize = 7;

/// One of the seven input files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EditorFile {
    /// `nodes.yaml`.
    Nodes,
    /// `pods.yaml`.
    Pods,
    /// `devices.yaml`: Dynamic Resource Allocation's objects (`resource.k8s.io/v1`
    /// DeviceClasses, ResourceSlices, ResourceClaims and ResourceClaimTemplates).
    Devices,
    /// `policy.json`.
    Policy,
    /// `config.yaml`: the `KubeSchedulerConfiguration`.
    Config,
    /// `extenders.yaml`: schedlab's answers for the scheduler's extenders (`ExtenderMock`
    /// tables and `ExtenderRecording`s); empty when the extenders are called live.
    Extenders,
    /// `plugins.js`: custom plugins, a JavaScript program that registers them by name
    /// (`schedlab_js_plugins`); empty without any.
    Plugins,
}

impl EditorFile {
    /// The editors, top to bottom.
    pub const ALL: [EditorFile; EDITORS] = [
        EditorFile::Nodes,
        EditorFile::Pods,
        EditorFile::Devices,
        EditorFile::Policy,
        EditorFile::Config,
        EditorFile::Extenders,
        EditorFile::Plugins,
    ];

    /// Position in [`EditorFile::ALL`].
    pub fn index(self) -> usize {
        match self {
            EditorFile::Nodes => 0,
            EditorFile::Pods => 1,
            EditorFile::Devices => 2,
            EditorFile::Policy => 3,
            EditorFile::Config => 4,
            EditorFile::Extenders => 5,
            EditorFile::Plugins => 6,
        }
    }

    /// `nodes`, `pods`, `policy`: the file name without extension, also used in test ids.
    pub fn stem(self) -> &'static str {
        match self {
            EditorFile::Nodes => "nodes",
            EditorFile::Pods => "pods",
            EditorFile::Devices => "devices",
            EditorFile::Policy => "policy",
            EditorFile::Config => "config",
            EditorFile::Extenders => "extenders",
            EditorFile::Plugins => "plugins",
        }
    }

    /// The tab's short title.
    pub fn tab_title(self) -> &'static str {
        match self {
            EditorFile::Config => "Config",
            f => f.title(),
        }
    }

    /// The editor's title.
    pub fn title(self) -> &'static str {
        match self {
            EditorFile::Nodes => "Nodes",
            EditorFile::Pods => "Pods",
            EditorFile::Devices => "Devices",
            EditorFile::Policy => "Policy",
            EditorFile::Config => "Scheduler configuration",
            EditorFile::Extenders => "Extenders",
            EditorFile::Plugins => "Plugins",
        }
    }

    /// `JSON` or `YAML`, detected from the content as the core does (`JavaScript` for the
    /// Plugins editor, [`EditorFile::format`]).
    pub fn format_of(text: &str) -> &'static str {
        if looks_like_json(text) {
            "JSON"
        } else {
            "YAML"
        }
    }

    /// The format of this editor's `text`: `JavaScript` for plugins, else JSON or YAML.
    pub fn format(self, text: &str) -> &'static str {
        match self {
            EditorFile::Plugins => "JavaScript",
            _ => EditorFile::format_of(text),
        }
    }

    /// Whether the editor has a form view (all but the Plugins program).
    pub fn has_form(self) -> bool {
        self != EditorFile::Plugins
    }

    /// The file name given to the core, so its messages name the format the user typed.
    pub fn source_name(self, text: &str) -> String {
        if self == EditorFile::Plugins {
            return "plugins.js".into();
        }
        let ext = if looks_like_json(text) {
            "json"
        } else {
            "yaml"
        };
        format!("{}.{ext}", self.stem())
    }

    /// The editor a diagnostic belongs under. Diagnostics that name no editor's file (such as
    /// `configuration`) go under the configuration editor.
    pub fn of_diagnostic(d: &Diagnostic) -> EditorFile {
        let stem = d.file.split('.').next().unwrap_or_default();
        EditorFile::ALL
            .into_iter()
            .find(|f| f.stem() == stem)
            .unwrap_or(EditorFile::Config)
    }
}
