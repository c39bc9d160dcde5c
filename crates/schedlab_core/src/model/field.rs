//! apimachinery's `field.Error`: a path and a body worded as upstream's validation words it
//! (`<path>: Invalid value: 0: must be 1`).

use std::fmt;

/// One validation error: where (relative to what is being validated) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    /// The field path (`scoringStrategy.resources[0].weight`); empty for the object itself.
    pub path: String,
    /// The body: `Invalid value: 0: must be 1`, `Required value: can not be empty`, ...
    pub message: String,
}

/// How Go's `%#v` prints a value in a field error (strings quoted, numbers plain).
#[derive(Clone, Debug)]
pub enum Value<'a> {
    /// A string, printed quoted.
    Str(&'a str),
    /// An integer.
    Int(i64),
    /// Printed as is (a struct rendering, a list).
    Raw(String),
}

impl fmt::Display for Value<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Str(s) => write!(f, "{s:?}"),
            Value::Int(n) => write!(f, "{n}"),
            Value::Raw(r) => f.write_str(r),
        }
    }
}

impl FieldError {
    fn with(path: impl Into<String>, message: String) -> FieldError {
        FieldError {
            path: path.into(),
            message,
        }
    }

    /// `field.Invalid(path, value, detail)`.
    pub fn invalid(path: impl Into<String>, value: Value, detail: &str) -> FieldError {
        let mut m = format!("Invalid value: {value}");
        if !detail.is_empty() {
            m.push_str(": ");
            m.push_str(detail);
        }
        FieldError::with(path, m)
    }

    /// `field.Required(path, detail)`.
    pub fn required(path: impl Into<String>, detail: &str) -> FieldError {
        let mut m = "Required value".to_string();
        if !detail.is_empty() {
            m.push_str(": ");
            m.push_str(detail);
        }
        FieldError::with(path, m)
    }

    /// `field.Duplicate(path, value)`.
    pub fn duplicate(path: impl Into<String>, value: Value) -> FieldError {
        FieldError::with(path, format!("Duplicate value: {value}"))
    }

    /// `field.Forbidden(path, detail)`.
    pub fn forbidden(path: impl Into<String>, detail: &str) -> FieldError {
        FieldError::with(path, format!("Forbidden: {detail}"))
    }

    /// `field.NotSupported(path, value, supported)`.
    pub fn not_supported(path: impl Into<String>, value: Value, supported: &[&str]) -> FieldError {
        let list: Vec<String> = supported.iter().map(|s| format!("{s:?}")).collect();
        FieldError::with(
            path,
            format!(
                "Unsupported value: {value}: supported values: {}",
                list.join(", ")
            ),
        )
    }

    /// A message that is not a `field.Error` (a decoding error, a framework error).
    pub fn plain(path: impl Into<String>, message: impl Into<String>) -> FieldError {
        FieldError::with(path, message.into())
    }

    /// This error under `prefix` (`args` + `.weight` → `args.weight`).
    pub fn under(mut self, prefix: &str) -> FieldError {
        self.path = join(prefix, &self.path);
        self
    }
}

/// Joins two field paths (`a` + `b` → `a.b`, `a` + `[0]` → `a[0]`).
pub(crate) fn join(prefix: &str, path: &str) -> String {
    match (prefix.is_empty(), path.is_empty()) {
        (true, _) => path.to_string(),
        (_, true) => prefix.to_string(),
        _ if path.starts_with('[') => format!("{prefix}{path}"),
        _ => format!("{prefix}.{path}"),
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_are_worded_as_apimachinery_words_them() {
        assert_eq!(
            FieldError::invalid("weight", Value::Int(0), "must be 1").to_string(),
            "weight: Invalid value: 0: must be 1"
        );
        assert_eq!(
            FieldError::required("topologyKey", "can not be empty").to_string(),
            "topologyKey: Required value: can not be empty"
        );
        assert_eq!(
            FieldError::not_supported("defaultingType", Value::Str("Foo"), &["System", "List"])
                .to_string(),
            "defaultingType: Unsupported value: \"Foo\": supported values: \"System\", \"List\""
        );
        assert_eq!(
            FieldError::duplicate("resources[1].name", Value::Str("cpu")).to_string(),
            "resources[1].name: Duplicate value: \"cpu\""
        );
        assert_eq!(join("args", "[0]"), "args[0]");
        assert_eq!(join("", "x"), "x");
    }
}
