//! The pods and nodes a guest reads, as plain structs, and their protobuf encoding: the
//! subset of `k8s.io/api/core/v1` Pod, Node and NodeList the host serves, with the field
//! numbers of k8s.io/api's `generated.proto` (and apimachinery's for ObjectMeta, Quantity).
//!
//! Fields go out in ascending field-number order; empty strings, empty lists and absent
//! options are left out (k8s' gogo marshaller writes empty strings too; decoders treat both
//! alike). Map entries are sorted by key, as gogo sorts them.

/// A pod as a guest sees it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GuestPod {
    pub name: String,
    pub namespace: String,
    pub uid: String,
    pub labels: Vec<(String, String)>,
    pub annotations: Vec<(String, String)>,
    pub containers: Vec<GuestContainer>,
    pub init_containers: Vec<GuestContainer>,
    pub node_selector: Vec<(String, String)>,
    /// `spec.nodeName`: set once the pod is bound.
    pub node_name: String,
    pub affinity: Option<GuestNodeAffinity>,
    pub scheduler_name: String,
    pub tolerations: Vec<GuestToleration>,
    pub priority: Option<i32>,
    pub overhead: Vec<(String, String)>,
    pub phase: String,
    pub nominated_node_name: String,
}

/// A container: its name, image and resources (quantities as Kubernetes strings, e.g. "500m").
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GuestContainer {
    pub name: String,
    pub image: String,
    pub requests: Vec<(String, String)>,
    pub limits: Vec<(String, String)>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GuestToleration {
    pub key: String,
    pub operator: String,
    pub value: String,
    pub effect: String,
    pub toleration_seconds: Option<i64>,
}

/// `spec.affinity.nodeAffinity`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GuestNodeAffinity {
    /// Required terms (ORed); `None` when there is no required node selector.
    pub required: Option<Vec<GuestSelectorTerm>>,
    /// Preferred terms with their weights.
    pub preferred: Vec<(i32, GuestSelectorTerm)>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GuestSelectorTerm {
    pub match_expressions: Vec<GuestRequirement>,
    pub match_fields: Vec<GuestRequirement>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GuestRequirement {
    pub key: String,
    pub operator: String,
    pub values: Vec<String>,
}

/// A node as a guest sees it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GuestNode {
    pub name: String,
    pub uid: String,
    pub labels: Vec<(String, String)>,
    pub annotations: Vec<(String, String)>,
    pub unschedulable: bool,
    pub taints: Vec<GuestTaint>,
    pub capacity: Vec<(String, String)>,
    pub allocatable: Vec<(String, String)>,
    pub images: Vec<GuestImage>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GuestTaint {
    pub key: String,
    pub value: String,
    pub effect: String,
}

/// `status.images[]`: the names of one image and its size.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GuestImage {
    pub names: Vec<String>,
    pub size_bytes: i64,
}

/// A protobuf writer for the handful of wire forms these messages use.
#[derive(Default)]
struct Writer(Vec<u8>);

impl Writer {
    fn varint(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.0.push((v as u8) | 0x80);
            v >>= 7;
        }
        self.0.push(v as u8);
    }

    fn tag(&mut self, field: u32, wire: u8) {
        self.varint(u64::from(field) << 3 | u64::from(wire));
    }

    fn bytes(&mut self, field: u32, b: &[u8]) {
        self.tag(field, 2);
        self.varint(b.len() as u64);
        self.0.extend_from_slice(b);
    }

    fn string(&mut self, field: u32, s: &str) {
        if !s.is_empty() {
            self.bytes(field, s.as_bytes());
        }
    }

    fn strings(&mut self, field: u32, list: &[String]) {
        for s in list {
            self.bytes(field, s.as_bytes());
        }
    }

    /// A varint field (negative int32/int64 take ten bytes, as protobuf says).
    fn int(&mut self, field: u32, v: i64) {
        self.tag(field, 0);
        self.varint(v as u64);
    }

    fn message(&mut self, field: u32, build: impl FnOnce(&mut Writer)) {
        let mut inner = Writer::default();
        build(&mut inner);
        self.bytes(field, &inner.0);
    }

    /// A `map<string, string>`.
    fn string_map(&mut self, field: u32, entries: &[(String, String)]) {
        for (k, v) in sorted(entries) {
            self.message(field, |m| {
                m.bytes(1, k.as_bytes());
                m.bytes(2, v.as_bytes());
            });
        }
    }

    /// A `map<string, Quantity>`.
    fn quantity_map(&mut self, field: u32, entries: &[(String, String)]) {
        for (k, v) in sorted(entries) {
            self.message(field, |m| {
                m.bytes(1, k.as_bytes());
                m.message(2, |q| q.bytes(1, v.as_bytes()));
            });
        }
    }

    /// An ObjectMeta.
    fn meta(
        &mut self,
        field: u32,
        name: &str,
        namespace: &str,
        uid: &str,
        labels: &[(String, String)],
        annotations: &[(String, String)],
    ) {
        self.message(field, |m| {
            m.string(1, name);
            m.string(3, namespace);
            m.string(5, uid);
            m.string_map(11, labels);
            m.string_map(12, annotations);
        });
    }
}

fn sorted(entries: &[(String, String)]) -> Vec<&(String, String)> {
    let mut list: Vec<_> = entries.iter().collect();
    list.sort_by(|a, b| a.0.cmp(&b.0));
    list
}

impl GuestContainer {
    fn encode(&self, w: &mut Writer) {
        w.string(1, &self.name);
        w.string(2, &self.image);
        w.message(8, |r| {
            r.quantity_map(1, &self.limits);
            r.quantity_map(2, &self.requests);
        });
    }
}

impl GuestSelectorTerm {
    fn encode(&self, w: &mut Writer) {
        for (field, list) in [(1, &self.match_expressions), (2, &self.match_fields)] {
            for req in list {
                w.message(field, |r| {
                    r.string(1, &req.key);
                    r.string(2, &req.operator);
                    r.strings(3, &req.values);
                });
            }
        }
    }
}

impl GuestNodeAffinity {
    fn encode(&self, w: &mut Writer) {
        if let Some(terms) = &self.required {
            w.message(1, |s| {
                for term in terms {
                    s.message(1, |t| term.encode(t));
                }
            });
        }
        for (weight, term) in &self.preferred {
            w.message(2, |p| {
                p.int(1, i64::from(*weight));
                p.message(2, |t| term.encode(t));
            });
        }
    }
}

impl GuestPod {
    /// The pod as protobuf `v1.Pod` bytes.
    pub fn to_protobuf(&self) -> Vec<u8> {
        let mut w = Writer::default();
        w.meta(
            1,
            &self.name,
            &self.namespace,
            &self.uid,
            &self.labels,
            &self.annotations,
        );
        w.message(2, |spec| self.encode_spec(spec));
        w.message(3, |status| {
            status.string(1, &self.phase);
            status.string(11, &self.nominated_node_name);
        });
        w.0
    }

    fn encode_spec(&self, spec: &mut Writer) {
        for c in &self.containers {
            spec.message(2, |m| c.encode(m));
        }
        spec.string_map(7, &self.node_selector);
        spec.string(10, &self.node_name);
        if let Some(affinity) = &self.affinity {
            spec.message(18, |a| a.message(1, |na| affinity.encode(na)));
        }
        spec.string(19, &self.scheduler_name);
        for c in &self.init_containers {
            spec.message(20, |m| c.encode(m));
        }
        for t in &self.tolerations {
            spec.message(22, |m| {
                m.string(1, &t.key);
                m.string(2, &t.operator);
                m.string(3, &t.value);
                m.string(4, &t.effect);
                if let Some(seconds) = t.toleration_seconds {
                    m.int(5, seconds);
                }
            });
        }
        if let Some(priority) = self.priority {
            spec.int(25, i64::from(priority));
        }
        spec.quantity_map(32, &self.overhead);
    }
}

impl GuestNode {
    /// The node as protobuf `v1.Node` bytes.
    pub fn to_protobuf(&self) -> Vec<u8> {
        let mut w = Writer::default();
        self.encode(&mut w);
        w.0
    }

    fn encode(&self, w: &mut Writer) {
        w.meta(
            1,
            &self.name,
            "",
            &self.uid,
            &self.labels,
            &self.annotations,
        );
        w.message(2, |spec| {
            if self.unschedulable {
                spec.int(4, 1);
            }
            for t in &self.taints {
                spec.message(5, |m| {
                    m.string(1, &t.key);
                    m.string(2, &t.value);
                    m.string(3, &t.effect);
                });
            }
        });
        w.message(3, |status| {
            status.quantity_map(1, &self.capacity);
            status.quantity_map(2, &self.allocatable);
            for image in &self.images {
                status.message(8, |m| {
                    m.strings(1, &image.names);
                    m.int(2, image.size_bytes);
                });
            }
        });
    }
}

/// Protobuf `v1.NodeList` bytes of these nodes (`items` only).
pub fn node_list_protobuf<'a>(nodes: impl IntoIterator<Item = &'a GuestNode>) -> Vec<u8> {
    let mut w = Writer::default();
    for node in nodes {
        w.message(2, |m| node.encode(m));
    }
    w.0
}
