//! The selection: a pod or a node, highlighted everywhere. Selecting a pod also shows its last
//! cycle in the inspector.

use super::position::RunPosition;
use super::stepping::InspectTarget;
use crate::analysis::Phase;
use leptos::prelude::*;

/// What is selected "everywhere": a pod or a node.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Selection {
    /// Nothing.
    #[default]
    None,
    /// A pod, by id.
    Pod(usize),
    /// A node, by name.
    Node(String),
}

/// The selection, provided as context by [`super::provide`].
#[derive(Clone, Copy)]
pub struct Selected {
    /// The phase walked ([`RunPosition::phase`]): selecting a pod ends the walk.
    phase: RwSignal<Option<Phase>>,
    /// The inspected cycle ([`RunPosition::target`]): a selected pod's.
    target: RwSignal<InspectTarget>,
    /// The selected pod or node.
    pub selection: RwSignal<Selection>,
    /// The selected pod (for views that highlight it).
    pub pod: Memo<Option<usize>>,
}

impl Selected {
    /// Nothing selected.
    pub fn new(position: RunPosition) -> Selected {
        let selection = RwSignal::new(Selection::None);
        let pod = Memo::new(move |_| match selection.get() {
            Selection::Pod(p) => Some(p),
            _ => None,
        });
        Selected {
            phase: position.phase,
            target: position.target,
            selection,
            pod,
        }
    }

    /// Selects a pod everywhere and shows its last cycle in the inspector.
    pub fn select_pod(&self, pod: usize) {
        self.phase.set(None);
        self.selection.set(Selection::Pod(pod));
        self.target.set(InspectTarget::Pod(pod));
    }

    /// Selects a node everywhere.
    pub fn select_node(&self, node: &str) {
        self.selection.set(Selection::Node(node.to_string()));
    }

    /// Selects nothing.
    pub fn clear(&self) {
        self.selection.set(Selection::None);
    }
}
