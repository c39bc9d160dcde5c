//! The playground app (placeholder).
