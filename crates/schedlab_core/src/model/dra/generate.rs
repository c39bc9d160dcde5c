//! schedlab's resourceclaim controller (reference `dra.md` §1.6, option (b)): a pending pod's
//! template entries get their claims when the pod is added, before its first cycle, with
//! `status.resourceClaimStatuses` set at once (no PreEnqueue gating while the controller
//! works: a stated deviation).
//!
//! Names follow the controller: `generateName = <pod>-<entry>-` (cut to 57 characters as
//! upstream cuts it), then 5 characters from the apiserver's alphabet. Upstream draws them at
//! random; schedlab writes a per-run counter in that alphabet (`…-bbbbb`, `…-bbbbc`, …), so the
//! names are the same on every run.

use super::{
    PodResourceClaimStatus, ResourceClaim, ResourceClaimTemplate, POD_CLAIM_NAME_ANNOTATION,
};
use crate::model::{OwnerReference, Pod};
use std::collections::BTreeMap;
use std::sync::Arc;

/// `rand.String`'s alphabet (`bcdfghjklmnpqrstvwxz2456789`).
const ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";

/// The `n`-th deterministic suffix.
pub fn suffix(mut n: u64) -> String {
    let mut out = [b'b'; 5];
    for slot in out.iter_mut().rev() {
        *slot = ALPHABET[(n % ALPHABET.len() as u64) as usize];
        n /= ALPHABET.len() as u64;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The claim controller's `generateName` for a pod's entry.
pub fn generate_name(pod: &str, entry: &str) -> String {
    let base = format!("{pod}-{entry}-");
    const MAX_BASE_LEN: usize = 57;
    if base.len() <= MAX_BASE_LEN {
        return base;
    }
    let l = base.len();
    let cut = |s: &str| {
        s.chars()
            .take(s.len() * MAX_BASE_LEN / l)
            .collect::<String>()
    };
    format!("{}-{}", cut(pod), cut(entry))
}

/// What generating claims for one pod did.
pub struct Generated {
    /// The new claims.
    pub claims: Vec<ResourceClaim>,
    /// Entries whose template does not exist (the pod keeps no status for them).
    pub missing: Vec<(usize, String)>,
}

/// Creates the claims of `pod`'s template entries that have no status entry yet, and records
/// them in the pod's status. `counter` numbers the suffixes across the run; `taken` says
/// whether a name is used.
pub fn for_pod(
    pod: &mut Pod,
    templates: &BTreeMap<(String, String), Arc<ResourceClaimTemplate>>,
    counter: &mut u64,
    taken: &dyn Fn(&str) -> bool,
) -> Generated {
    let ns = pod.metadata.namespace_or_default().to_string();
    let mut out = Generated {
        claims: Vec::new(),
        missing: Vec::new(),
    };
    for (i, entry) in pod.spec.resource_claims.clone().iter().enumerate() {
        let Some(t) = &entry.resource_claim_template_name else {
            continue;
        };
        if pod
            .status
            .resource_claim_statuses
            .iter()
            .any(|s| s.name == entry.name)
        {
            continue;
        }
        let Some(template) = templates.get(&(ns.clone(), t.clone())) else {
            out.missing.push((i, t.clone()));
            continue;
        };
        let base = generate_name(&pod.metadata.name, &entry.name);
        let mut name;
        loop {
            name = format!(
                "{}{}",
                base.chars().take(58).collect::<String>(),
                suffix(*counter)
            );
            *counter += 1;
            if !taken(&name) && !out.claims.iter().any(|c| c.metadata.name == name) {
                break;
            }
        }
        let mut claim = ResourceClaim::default();
        claim.metadata.name = name.clone();
        claim.metadata.namespace = ns.clone();
        claim.metadata.labels = template.spec.metadata.labels.clone();
        claim.metadata.annotations = template.spec.metadata.annotations.clone();
        claim
            .metadata
            .annotations
            .insert(POD_CLAIM_NAME_ANNOTATION.into(), entry.name.clone());
        claim.metadata.owner_references = vec![OwnerReference {
            kind: "Pod".into(),
            name: pod.metadata.name.clone(),
            uid: pod.metadata.uid.clone(),
            controller: Some(true),
        }];
        claim.spec = template.spec.spec.clone();
        pod.status
            .resource_claim_statuses
            .push(PodResourceClaimStatus {
                name: entry.name.clone(),
                resource_claim_name: Some(name),
            });
        out.claims.push(claim);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suffixes_count_in_the_apiservers_alphabet() {
        assert_eq!(suffix(0), "bbbbb");
        assert_eq!(suffix(1), "bbbbc");
        assert_eq!(suffix(27), "bbbcb");
    }

    #[test]
    fn a_long_generate_name_is_cut_without_its_trailing_hyphen() {
        assert_eq!(generate_name("p", "gpu"), "p-gpu-");
        let pod = "a".repeat(50);
        let entry = "b".repeat(20);
        // L = 72; 50*57/72 = 39, 20*57/72 = 15.
        assert_eq!(
            generate_name(&pod, &entry),
            format!("{}-{}", "a".repeat(39), "b".repeat(15))
        );
    }
}
