//! How requests and replies cross to and from a worker: JSON text. A reply's frame crosses as a
//! patch against the frame sent before ([`FramePatch`]): a step of a 5000-node cluster changes a
//! few node cards, not 5000. The views' `&'static str` fields are read back interned
//! ([`crate::interned`]).

use super::protocol::Reply;
use crate::session::{Frame, NodeCard, PdbView, PodStatus, QueueView, SessionInfo};
use schedlab_core::model::Millis;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// A list as it crosses: whole, or only the entries that differ from the list last sent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Patch<T> {
    /// The whole list (its length changed, or most of it did).
    All(Vec<T>),
    /// The entries that changed, by index; the others are as last sent.
    Changed(Vec<(usize, T)>),
}

impl<T: Clone + PartialEq> Patch<T> {
    /// `now` against `before`.
    fn of(before: Option<&[T]>, now: &[T]) -> Patch<T> {
        match before {
            Some(before) if before.len() == now.len() => {
                let changed: Vec<(usize, T)> = before
                    .iter()
                    .zip(now)
                    .enumerate()
                    .filter(|(_, (b, n))| b != n)
                    .map(|(i, (_, n))| (i, n.clone()))
                    .collect();
                if changed.len() * 2 > now.len() {
                    Patch::All(now.to_vec())
                } else {
                    Patch::Changed(changed)
                }
            }
            _ => Patch::All(now.to_vec()),
        }
    }

    /// The list this patch makes of `before`; `None` when it does not fit `before`.
    fn apply(self, before: Option<&[T]>) -> Option<Vec<T>> {
        match self {
            Patch::All(list) => Some(list),
            Patch::Changed(changed) => {
                let mut list = before?.to_vec();
                for (i, entry) in changed {
                    *list.get_mut(i)? = entry;
                }
                Some(list)
            }
        }
    }
}

/// A [`Frame`] as it crosses: its node cards and pod statuses (thousands on a big cluster, a
/// few of which a step changes) as patches against the frame sent before.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FramePatch {
    position: usize,
    end: usize,
    now: Millis,
    cycles_done: usize,
    last_cycle: Option<usize>,
    next: Option<String>,
    nodes: Patch<NodeCard>,
    pods: Patch<PodStatus>,
    queue: QueueView,
    events_done: usize,
    pdbs: Vec<PdbView>,
}

impl FramePatch {
    /// `frame` against `before`, the frame sent before (if any).
    pub fn of(before: Option<&Frame>, frame: &Frame) -> FramePatch {
        FramePatch {
            position: frame.position,
            end: frame.end,
            now: frame.now,
            cycles_done: frame.cycles_done,
            last_cycle: frame.last_cycle,
            next: frame.next.clone(),
            nodes: Patch::of(before.map(|f| &f.nodes[..]), &frame.nodes),
            pods: Patch::of(before.map(|f| &f.pods[..]), &frame.pods),
            queue: frame.queue.clone(),
            events_done: frame.events_done,
            pdbs: frame.pdbs.clone(),
        }
    }

    /// The frame this patch makes of `before`, the frame received before; `None` when it does
    /// not fit it.
    pub fn apply(self, before: Option<&Frame>) -> Option<Frame> {
        Some(Frame {
            position: self.position,
            end: self.end,
            now: self.now,
            cycles_done: self.cycles_done,
            last_cycle: self.last_cycle,
            next: self.next,
            nodes: self.nodes.apply(before.map(|f| &f.nodes[..]))?,
            pods: self.pods.apply(before.map(|f| &f.pods[..]))?,
            queue: self.queue,
            events_done: self.events_done,
            pdbs: self.pdbs,
        })
    }
}

/// A [`Reply`] as it crosses: the replies that carry a frame carry a [`FramePatch`].
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Message {
    /// A reply without a frame.
    Plain(Reply),
    /// [`Reply::Loaded`].
    Loaded {
        /// The load's generation.
        generation: u64,
        /// The run's fixed facts.
        info: Arc<SessionInfo>,
        /// The frame.
        frame: FramePatch,
    },
    /// [`Reply::Frame`].
    Frame {
        /// The request's id.
        id: u64,
        /// The frame.
        frame: Option<FramePatch>,
    },
}

/// One end of the line: the frame it last sent or received, which the next patch is against.
/// Replies cross in order, so the two ends agree on it.
#[derive(Default)]
pub struct End {
    last: Option<Arc<Frame>>,
}

impl End {
    /// `reply` as a message (the sending end).
    pub fn send(&mut self, reply: Reply) -> Message {
        let mut patch = |frame: Arc<Frame>| {
            let patch = FramePatch::of(self.last.as_deref(), &frame);
            self.last = Some(frame);
            patch
        };
        match reply {
            Reply::Loaded {
                generation,
                info,
                frame,
            } => Message::Loaded {
                generation,
                info,
                frame: patch(frame),
            },
            Reply::Frame { id, frame } => Message::Frame {
                id,
                frame: frame.map(patch),
            },
            plain => Message::Plain(plain),
        }
    }

    /// The reply `message` stands for (the receiving end); `None` when a patch does not fit
    /// the frame received before, which cannot happen while the two ends agree.
    pub fn receive(&mut self, message: Message) -> Option<Reply> {
        let mut frame = |patch: FramePatch| {
            let frame = Arc::new(patch.apply(self.last.as_deref())?);
            self.last = Some(Arc::clone(&frame));
            Some(frame)
        };
        Some(match message {
            Message::Plain(reply) => reply,
            Message::Loaded {
                generation,
                info,
                frame: patch,
            } => Reply::Loaded {
                generation,
                info,
                frame: frame(patch)?,
            },
            Message::Frame { id, frame: patch } => Reply::Frame {
                id,
                frame: match patch {
                    Some(p) => Some(frame(p)?),
                    None => None,
                },
            },
        })
    }
}
