//! Embed mode: the page inside another site's `<iframe>`.
//!
//! `?embed` (with the same `#` fragment a link has) shows a compact view
//! ([`crate::components::embed_view`]): the cluster, the step controls and the inspector for the
//! chosen cycle, and a link out to the full playground. `?embed&edit` adds the editors. An
//! embed keeps nothing: it never reads or writes the saved work of the full page (nor of
//! another embed), so any number of embeds on one page stay apart and a reload shows what
//! the host page asked for.

/// How the page was opened.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PageMode {
    /// `?embed`: the compact view, nothing saved.
    pub embed: bool,
    /// `?embed&edit`: the compact view with the editors.
    pub edit: bool,
}

impl PageMode {
    /// The mode a query string (`?embed&edit`, with or without its `?`) asks for. `embed` and
    /// `edit` count when present with no value or a true-ish one (`1`, `true`, `yes`); `edit`
    /// alone does nothing (the full page always edits).
    pub fn of_query(query: &str) -> PageMode {
        let query = query.strip_prefix('?').unwrap_or(query);
        let mut mode = PageMode::default();
        for pair in query.split('&') {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            let on = matches!(value, "" | "1" | "true" | "yes");
            match key {
                "embed" => mode.embed = on,
                "edit" => mode.edit = on,
                _ => {}
            }
        }
        mode.edit &= mode.embed;
        mode
    }

    /// The mode of this page's address.
    pub fn of_page() -> PageMode {
        let search = web_sys::window()
            .and_then(|w| w.location().search().ok())
            .unwrap_or_default();
        PageMode::of_query(&search)
    }
}

/// The full playground's address for a page at `href` (its own address): the same page
/// without `embed` and `edit` in its query, and without its fragment.
pub fn full_page_address(href: &str) -> String {
    let base = href.split_once('#').map_or(href, |(b, _)| b);
    let Some((path, query)) = base.split_once('?') else {
        return base.to_string();
    };
    let kept: Vec<&str> = query
        .split('&')
        .filter(|pair| {
            let key = pair.split_once('=').map_or(*pair, |(k, _)| k);
            !pair.is_empty() && key != "embed" && key != "edit"
        })
        .collect();
    if kept.is_empty() {
        path.to_string()
    } else {
        format!("{path}?{}", kept.join("&"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_query_names_the_mode() {
        let embed = PageMode {
            embed: true,
            edit: false,
        };
        let edit = PageMode {
            embed: true,
            edit: true,
        };
        assert_eq!(PageMode::of_query(""), PageMode::default());
        assert_eq!(PageMode::of_query("?embed"), embed);
        assert_eq!(PageMode::of_query("embed=1"), embed);
        assert_eq!(PageMode::of_query("?embed&edit"), edit);
        assert_eq!(PageMode::of_query("?edit&embed=true"), edit);
        assert_eq!(PageMode::of_query("?embed=0"), PageMode::default());
        assert_eq!(PageMode::of_query("?edit"), PageMode::default());
        assert_eq!(PageMode::of_query("?embedded"), PageMode::default());
        assert_eq!(PageMode::of_query("?x=1&embed"), embed);
    }

    #[test]
    fn the_full_page_drops_embed_and_edit_only() {
        assert_eq!(
            full_page_address("https://a.example/s/?embed#example=pdb-steers"),
            "https://a.example/s/"
        );
        assert_eq!(
            full_page_address("https://a.example/s/index.html?embed&edit&lang=en#x"),
            "https://a.example/s/index.html?lang=en"
        );
        assert_eq!(
            full_page_address("file:///tmp/dist/index.html?embed=1"),
            "file:///tmp/dist/index.html"
        );
        assert_eq!(
            full_page_address("http://h/p?editor=1"),
            "http://h/p?editor=1"
        );
    }
}
