//! `ValidatePersistentVolume`, `ValidatePersistentVolumeClaim` (`pkg/apis/core/validation`) and
//! `ValidateStorageClass` (`pkg/apis/storage/validation`), for the fields schedlab reads.

use super::facts::{PvFacts, StorageClassFacts};
use super::{meta, quoted, selector, Check, RefusedBy};
use crate::model::field::FieldError;
use crate::model::names::{dns1123_subdomain, qualified_name};
use crate::model::volume::{PersistentVolume, PersistentVolumeClaim, StorageClass};
use std::collections::HashSet;

/// `supportedAccessModes`, sorted as upstream lists them (`ReadWriteOncePod` is v1.35's).
const ACCESS_MODES: [&str; 4] = [
    "ReadOnlyMany",
    "ReadWriteMany",
    "ReadWriteOnce",
    "ReadWriteOncePod",
];
const V117_ACCESS_MODES: [&str; 3] = ["ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce"];
const VOLUME_MODES: [&str; 2] = ["Block", "Filesystem"];
const PV_RECLAIM_POLICIES: [&str; 3] = ["Delete", "Recycle", "Retain"];
const CLASS_RECLAIM_POLICIES: [&str; 2] = ["Delete", "Retain"];
const BINDING_MODES: [&str; 2] = ["Immediate", "WaitForFirstConsumer"];
/// A PersistentVolume's sources, in the order `ValidatePersistentVolumeSpec` looks at them.
const PV_SOURCES: [&str; 22] = [
    "hostPath",
    "gcePersistentDisk",
    "awsElasticBlockStore",
    "glusterfs",
    "flocker",
    "nfs",
    "rbd",
    "quobyte",
    "cephfs",
    "iscsi",
    "cinder",
    "fc",
    "flexVolume",
    "azureFile",
    "vsphereVolume",
    "photonPersistentDisk",
    "portworxVolume",
    "azureDisk",
    "scaleIO",
    "local",
    "storageos",
    "csi",
];

/// Access modes: known ones (per version), at least one when `required`.
fn access_modes(c: &mut Check, modes: &[String], required: Option<&str>) {
    if modes.is_empty() {
        if let Some(detail) = required {
            c.error(FieldError::required("spec.accessModes", detail));
        }
    }
    for (i, m) in modes.iter().enumerate() {
        let at = format!("spec.accessModes[{i}]");
        if !ACCESS_MODES.contains(&m.as_str()) {
            c.error(FieldError::not_supported(at, quoted(m), &ACCESS_MODES));
        } else if !V117_ACCESS_MODES.contains(&m.as_str()) {
            let e = FieldError::not_supported(at, quoted(m), &V117_ACCESS_MODES);
            c.error_in(RefusedBy::V1_17, e);
        }
    }
}

/// `volumeMode`: `Block` or `Filesystem`.
fn volume_mode(c: &mut Check, mode: Option<&str>) {
    if let Some(m) = mode {
        if !VOLUME_MODES.contains(&m) {
            c.error(FieldError::not_supported(
                "spec.volumeMode",
                quoted(m),
                &VOLUME_MODES,
            ));
        }
    }
}

/// `ValidateClassName`: a storage class name is a DNS-1123 subdomain.
fn class_name(c: &mut Check, name: &str) {
    if !name.is_empty() {
        c.invalid_each(dns1123_subdomain(name), name, || {
            "spec.storageClassName".into()
        });
    }
}

/// `ValidatePersistentVolume`: metadata, capacity, access modes, reclaim policy, exactly one
/// source, the class name, the volume mode, the node affinity's node selector.
pub(crate) fn persistent_volume(c: &mut Check, v: &PersistentVolume, facts: &PvFacts) {
    meta(c, &v.metadata, false, false);
    let spec = &v.spec;
    if facts.spec.capacity.as_ref().is_none_or(|k| k.0.is_empty()) {
        c.error(FieldError::required("spec.capacity", ""));
    } else if spec.capacity.storage.is_none() {
        c.error(FieldError::required("spec.capacity.storage", ""));
    }
    access_modes(c, &spec.access_modes, Some(""));
    if let Some(p) = facts.spec.persistent_volume_reclaim_policy.as_deref() {
        if !p.is_empty() && !PV_RECLAIM_POLICIES.contains(&p) {
            c.error(FieldError::not_supported(
                "spec.persistentVolumeReclaimPolicy",
                quoted(p),
                &PV_RECLAIM_POLICIES,
            ));
        }
    }
    let given: HashSet<&str> = facts.spec.other.keys().map(String::as_str).collect();
    let mut sources = PV_SOURCES.iter().filter(|s| given.contains(*s));
    if sources.next().is_none() {
        c.error(FieldError::required("spec", "must specify a volume type"));
    }
    for extra in sources {
        c.error(FieldError::forbidden(
            format!("spec.{extra}"),
            "may not specify more than 1 volume type",
        ));
    }
    class_name(c, &spec.storage_class_name);
    volume_mode(c, spec.volume_mode.as_deref());
    if let Some(sel) = spec
        .node_affinity
        .as_ref()
        .and_then(|a| a.required.as_ref())
    {
        selector::node_selector(c, sel, "spec.nodeAffinity.required");
    }
}

/// `ValidatePersistentVolumeClaim`: metadata, access modes, the label selector over volumes,
/// the class name, the volume mode.
pub(crate) fn persistent_volume_claim(c: &mut Check, v: &PersistentVolumeClaim) {
    meta(c, &v.metadata, true, false);
    let spec = &v.spec;
    access_modes(c, &spec.access_modes, None);
    if let Some(sel) = &spec.selector {
        selector::label_selector(c, sel, "spec.selector");
    }
    class_name(c, spec.storage_class_name.as_deref().unwrap_or(""));
    volume_mode(c, spec.volume_mode.as_deref());
}

/// `ValidateStorageClass`: metadata, a provisioner (a qualified name, in any case), the
/// reclaim policy, the binding mode, the allowed topologies' requirements.
pub(crate) fn storage_class(c: &mut Check, s: &StorageClass, facts: &StorageClassFacts) {
    meta(c, &s.metadata, false, false);
    if s.provisioner.is_empty() {
        c.error(FieldError::required("provisioner", ""));
    } else {
        let lower = s.provisioner.to_lowercase();
        c.invalid_each(qualified_name(&lower), &s.provisioner, || {
            "provisioner".into()
        });
    }
    if let Some(p) = facts.reclaim_policy.as_deref() {
        if !CLASS_RECLAIM_POLICIES.contains(&p) {
            c.error(FieldError::not_supported(
                "reclaimPolicy",
                quoted(p),
                &CLASS_RECLAIM_POLICIES,
            ));
        }
    }
    if let Some(m) = s.volume_binding_mode.as_deref() {
        if !BINDING_MODES.contains(&m) {
            c.error(FieldError::not_supported(
                "volumeBindingMode",
                quoted(m),
                &BINDING_MODES,
            ));
        }
    }
    for (i, term) in s.allowed_topologies.iter().enumerate() {
        let mut keys: HashSet<&str> = HashSet::new();
        for (j, r) in term.match_label_expressions.iter().enumerate() {
            let at = format!("allowedTopologies[{i}].matchLabelExpressions[{j}]");
            if r.values.is_empty() {
                c.error(FieldError::required(
                    format!("{at}.values"),
                    "must specify as least one value",
                ));
            }
            let mut values: HashSet<&str> = HashSet::new();
            for v in &r.values {
                if !values.insert(v.as_str()) {
                    c.error(FieldError::duplicate(format!("{at}.values"), quoted(v)));
                }
            }
            c.invalid_each(qualified_name(&r.key), &r.key, || format!("{at}.key"));
            if !keys.insert(r.key.as_str()) {
                c.error(FieldError::duplicate(format!("{at}.key"), quoted(&r.key)));
            }
        }
    }
}
