//! Questions asked across runs of one scenario, for policy authors: what changes under another
//! scheduler configuration ([`compare`]), how a run moves with one setting ([`sweep`]), and
//! how many more copies of a pod still fit ([`capacity`]). Each is built from whole runs of
//! the ordinary simulation, so its answers agree with `schedlab run` by construction; the
//! independent runs share out over [`crate::parallel::map`].

pub mod capacity;
pub mod compare;
pub mod summary;
pub mod sweep;

use crate::input::{Diagnostic, Inputs, Origin, Source};
use crate::scenario::{Scenario, SchedulerVersion};
use crate::v117::policy::config::SchedulerConfiguration;
use crate::v117::policy::PolicyDocument;
use serde_json::Value;

/// A scheduler configuration to run a scenario under: the defaults of a version, or the
/// `Policy` / `KubeSchedulerConfiguration` documents of a file.
#[derive(Clone, Debug)]
pub struct SchedulerChoice {
    /// How outputs name it: `v1.17`, `v1.35`, or the file's name.
    pub label: String,
    /// The scheduler asked for (`None`: the documents decide, as in `schedlab run`).
    pub requested: Option<SchedulerVersion>,
    /// Legacy Policies.
    pub policies: Vec<(PolicyDocument, Origin)>,
    /// `kubescheduler.config.k8s.io/v1alpha1` configurations.
    pub configs: Vec<(SchedulerConfiguration, Origin)>,
    /// `kubescheduler.config.k8s.io/v1` configurations, as read.
    pub modern_configs: Vec<(Value, Origin)>,
}

impl SchedulerChoice {
    /// A version's defaults: v1.17's DefaultProvider, or v1.35's default profile.
    pub fn defaults(version: SchedulerVersion) -> SchedulerChoice {
        SchedulerChoice {
            label: format!("{} defaults", version.as_str()),
            requested: Some(version),
            policies: Vec::new(),
            configs: Vec::new(),
            modern_configs: Vec::new(),
        }
    }

    /// The configuration documents read from `file`; an error when it holds anything else
    /// (nodes, pods, ...) or no configuration at all.
    pub fn from_inputs(file: &str, inputs: Inputs) -> Result<SchedulerChoice, Vec<Diagnostic>> {
        let others = [
            (inputs.nodes.len(), "Node"),
            (inputs.pods.len(), "Pod"),
            (inputs.services.len(), "Service"),
            (inputs.priority_classes.len(), "PriorityClass"),
            (inputs.persistent_volumes.len(), "PersistentVolume"),
            (
                inputs.persistent_volume_claims.len(),
                "PersistentVolumeClaim",
            ),
            (inputs.timelines.len(), "Timeline"),
        ];
        let mut errors: Vec<Diagnostic> = others
            .iter()
            .filter(|(n, _)| *n > 0)
            .map(|(n, kind)| {
                Diagnostic::new(
                    file,
                    "",
                    format!("holds {n} {kind}(s): a scheduler configuration file holds only a Policy or a KubeSchedulerConfiguration; pass the cluster as FILE"),
                )
            })
            .collect();
        if inputs.policies.is_empty()
            && inputs.configs.is_empty()
            && inputs.modern_configs.is_empty()
        {
            errors.push(Diagnostic::new(
                file,
                "",
                "no Policy or KubeSchedulerConfiguration in this file (or name a version's defaults: v1.17 or v1.35)",
            ));
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(SchedulerChoice {
            label: file.to_string(),
            requested: None,
            policies: inputs.policies,
            configs: inputs.configs,
            modern_configs: inputs.modern_configs,
        })
    }

    /// The configuration documents of `spec` (each source holding nothing else), labelled
    /// with the sources' names.
    pub fn from_sources(spec: &[Source]) -> Result<SchedulerChoice, Vec<Diagnostic>> {
        let mut all = Inputs::default();
        let mut errors = Vec::new();
        for src in spec {
            match crate::input::read_source(src) {
                Ok(part) => {
                    if let Err(e) = SchedulerChoice::from_inputs(src.name, part.clone()) {
                        errors.extend(e);
                    }
                    all.append(part);
                }
                Err(e) => errors.extend(e),
            }
        }
        if !errors.is_empty() {
            crate::input::locate_lines(&mut errors, spec);
            return Err(errors);
        }
        let label = spec.iter().map(|s| s.name).collect::<Vec<_>>().join(" + ");
        SchedulerChoice::from_inputs(&label, all)
    }

    /// The choice as the playground's two configuration editors hold it: the Policy (v1.17
    /// only) and the scheduler configuration, each a JSON document (`None`: nothing given).
    pub fn documents(&self) -> (Option<Value>, Option<Value>) {
        match self.version() {
            SchedulerVersion::V1_17 => {
                let policy = self.policies.first().map(|(p, _)| {
                    let mut doc =
                        crate::input::strip_nulls(serde_json::to_value(p).unwrap_or(Value::Null));
                    if let Value::Object(m) = &mut doc {
                        let mut head = serde_json::Map::new();
                        head.insert("kind".into(), "Policy".into());
                        head.insert("apiVersion".into(), "v1".into());
                        head.extend(std::mem::take(m));
                        *m = head;
                    }
                    doc
                });
                let config = self.configs.first().map(|(c, _)| c.to_document());
                (policy, config)
            }
            SchedulerVersion::V1_35 => (None, self.modern_configs.first().map(|(c, _)| c.clone())),
        }
    }

    /// The scheduler this choice runs (the version asked for, else what the documents say).
    pub fn version(&self) -> SchedulerVersion {
        match self.requested {
            Some(v) => v,
            None if !self.modern_configs.is_empty() => SchedulerVersion::V1_35,
            None => SchedulerVersion::V1_17,
        }
    }

    /// The scenario of `cluster` (its own configuration documents set aside) under this
    /// choice; `sources` are every text read, for line numbers on errors.
    pub fn scenario(
        &self,
        cluster: &Inputs,
        sources: &[Source],
    ) -> Result<Scenario, Vec<Diagnostic>> {
        let mut inputs = cluster.clone();
        inputs.policies = self.policies.clone();
        inputs.configs = self.configs.clone();
        inputs.modern_configs = self.modern_configs.clone();
        Scenario::from_inputs_with(inputs, sources, self.requested)
    }

    /// Takes the scenario's own configuration documents out of `cluster` (`requested` as
    /// `--scheduler` gives it).
    pub fn take_from(cluster: &mut Inputs, requested: Option<SchedulerVersion>) -> SchedulerChoice {
        let choice = SchedulerChoice {
            label: "the scenario's configuration".into(),
            requested,
            policies: std::mem::take(&mut cluster.policies),
            configs: std::mem::take(&mut cluster.configs),
            modern_configs: std::mem::take(&mut cluster.modern_configs),
        };
        if choice.policies.is_empty()
            && choice.configs.is_empty()
            && choice.modern_configs.is_empty()
        {
            let version = choice.version();
            return SchedulerChoice {
                label: format!("{} defaults", version.as_str()),
                ..choice
            };
        }
        choice
    }

    /// Where this choice's first document was read (for the warning that it is set aside).
    pub fn origin(&self) -> Option<&Origin> {
        self.policies
            .first()
            .map(|(_, o)| o)
            .or(self.configs.first().map(|(_, o)| o))
            .or(self.modern_configs.first().map(|(_, o)| o))
    }
}
