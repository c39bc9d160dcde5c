//! Storage objects the volume predicates read: PersistentVolume, PersistentVolumeClaim,
//! StorageClass and CSINode (filled in by the volume-scheduling work).

/// Every storage object of the scenario, indexed for the volume predicates.
#[derive(Clone, Debug, Default)]
pub struct VolumeCatalog {}
