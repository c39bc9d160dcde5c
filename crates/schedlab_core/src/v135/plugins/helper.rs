//! What several plugins share, as upstream's `plugins/helper` and the args decoding of
//! `apis/config` share it: strict args reading ([`decode_args`]), error lists
//! ([`dedup_errors`], [`aggregate_message`]), label keys and values as v1.35 words them
//! ([`label_key_errors`], [`label_value_errors`], [`validate_label_name`])
//! and `DefaultNormalizeScore` ([`default_normalize_score`]).

use crate::model::field::{FieldError, Value};
use crate::model::names::{self, Unit};
use serde::de::DeserializeOwned;

/// Reads a plugin's args strictly: unknown fields are errors, a type error carries its path
/// (`scoringStrategy.resources[0].weight`), and the `kind` / `apiVersion` keys a typed args
/// object may carry are accepted. `None` (or `null`): no args given.
pub(crate) fn decode_args<T: DeserializeOwned>(
    args: Option<&serde_json::Value>,
) -> Result<Option<T>, Vec<FieldError>> {
    let Some(v) = args.filter(|v| !v.is_null()) else {
        return Ok(None);
    };
    let mut v = v.clone();
    if let serde_json::Value::Object(m) = &mut v {
        // `TypeMeta`: strings when given, then not part of the args' own fields.
        for key in ["kind", "apiVersion"] {
            if let Some(meta) = m.remove(key) {
                serde_path_to_error::deserialize::<_, Option<String>>(meta)
                    .map_err(|e| vec![FieldError::plain(key, e.into_inner().to_string())])?;
            }
        }
    }
    serde_path_to_error::deserialize(v).map(Some).map_err(|e| {
        let path = e.path().to_string();
        let path = if path == "." { String::new() } else { path };
        vec![FieldError::plain(path, e.into_inner().to_string())]
    })
}

/// `ErrorList.ToAggregate`: the same error text only once, first occurrence kept.
pub(crate) fn dedup_errors(errs: Vec<FieldError>) -> Vec<FieldError> {
    let mut out: Vec<FieldError> = Vec::with_capacity(errs.len());
    for e in errs {
        if !out.contains(&e) {
            out.push(e);
        }
    }
    out
}

/// `content.IsLabelKey` as v1.35 words it: the messages, none when valid.
pub(crate) fn label_key_errors(value: &str) -> Vec<String> {
    names::qualified_name_in(value, Unit::Bytes)
}

/// `content.IsLabelValue` as v1.35 words it: the messages, none when valid.
pub(crate) fn label_value_errors(value: &str) -> Vec<String> {
    names::label_value_in(value, Unit::Bytes)
}

/// `metav1validation.ValidateLabelName`: one `Invalid` per message.
pub(crate) fn validate_label_name(name: &str, path: &str, errs: &mut Vec<FieldError>) {
    for msg in label_key_errors(name) {
        errs.push(FieldError::invalid(path, Value::Str(name), &msg));
    }
}

/// How `errors.NewAggregate(errs).Error()` prints a list: one error as is, several deduplicated
/// between brackets.
pub(crate) fn aggregate_message(errs: &[FieldError]) -> String {
    let mut seen: Vec<String> = Vec::new();
    for e in errs {
        let m = e.to_string();
        if !seen.contains(&m) {
            seen.push(m);
        }
    }
    match seen.len() {
        1 => seen.pop().unwrap_or_default(),
        _ => format!("[{}]", seen.join(", ")),
    }
}

/// `helper.DefaultNormalizeScore(maxPriority, reverse, scores)` (reference §4.0): scales the
/// scores so the highest becomes `max` (multiply first, then Go's truncating division); with
/// `reverse`, each becomes `max - score`. When every score is 0 (or below), `reverse` sets them
/// all to `max` and otherwise they stay as they are.
pub(crate) fn default_normalize_score(max: i64, reverse: bool, scores: &mut [i64]) {
    let max_count = scores.iter().copied().fold(0, i64::max);
    if max_count == 0 {
        if reverse {
            scores.iter_mut().for_each(|s| *s = max);
        }
        return;
    }
    for s in scores.iter_mut() {
        let v = max * *s / max_count;
        *s = if reverse { max - v } else { v };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_scales_and_reverses() {
        // max 4: 100*0/4 = 0, 100*1/4 = 25, 100*3/4 = 75, 100*4/4 = 100.
        let mut s = [0, 1, 3, 4];
        default_normalize_score(100, false, &mut s);
        assert_eq!(s, [0, 25, 75, 100]);
        // Reversed: 100-0, 100-25, 100-75, 100-100.
        let mut s = [0, 1, 3, 4];
        default_normalize_score(100, true, &mut s);
        assert_eq!(s, [100, 75, 25, 0]);
        // Truncation: max 3, 100*1/3 = 33 (33.3), 100*2/3 = 66 (66.6); reversed 67 and 34.
        let mut s = [1, 2, 3];
        default_normalize_score(100, false, &mut s);
        assert_eq!(s, [33, 66, 100]);
        let mut s = [1, 2, 3];
        default_normalize_score(100, true, &mut s);
        assert_eq!(s, [67, 34, 0]);
        // All zero: reverse gives max everywhere, forward keeps zeros.
        let mut s = [0, 0];
        default_normalize_score(100, true, &mut s);
        assert_eq!(s, [100, 100]);
        let mut s = [0, 0];
        default_normalize_score(100, false, &mut s);
        assert_eq!(s, [0, 0]);
        // Equal non-zero scores all become max (forward) or 0 (reverse).
        let mut s = [7, 7];
        default_normalize_score(100, false, &mut s);
        assert_eq!(s, [100, 100]);
    }
}
