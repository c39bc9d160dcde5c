//! The heat-map of a big cluster: one cell per node on a canvas, coloured by CPU requested /
//! allocatable. Cordoned nodes are grey, nodes with a nominated pod carry a dot, the selected
//! node (or the node of the selected pod) is outlined. Clicking a cell selects its node. The
//! canvas takes its container's width, and is drawn again when that width changes.

use crate::session::{ChipKind, Frame};
use crate::state::{RunPosition, Selected, Selection};
use leptos::html;
use leptos::prelude::*;
use schedlab_core::model::resources::format_usage;
use wasm_bindgen::prelude::Closure;
use wasm_bindgen::JsCast;

/// Gap between cells, in CSS pixels.
const GAP: f64 = 1.0;

/// Cell size for `n` nodes: big cells for a thousand nodes, small ones for five thousand.
fn cell_size(n: usize) -> f64 {
    match n {
        0..=1200 => 14.0,
        1201..=3000 => 10.0,
        _ => 7.0,
    }
}

/// The heat-map.
#[component]
pub fn HeatMap() -> impl IntoView {
    let position = expect_context::<RunPosition>();
    let selected = expect_context::<Selected>();
    let canvas = NodeRef::<html::Canvas>::new();
    let hover = RwSignal::new(None::<String>);
    // The container's width, once the browser has laid it out.
    let width = RwSignal::new(None::<f64>);

    // Redraw whenever the frame or the selection changes.
    Effect::new(move |_| {
        let selection = selected.selection.get();
        let selected_pod = selected.pod.get();
        let Some(w) = width.get() else {
            return;
        };
        position.frame.with(|f| {
            if let (Some(f), Some(c)) = (f.as_ref(), canvas.get()) {
                draw(&c, f, &selection, selected_pod, w);
            }
        });
    });
    // Fit the canvas to its container once it is on the page, and again whenever the
    // container's width changes (a narrower window): without that, the cells spill out of the
    // card. The observer reports the first width after the browser's next layout, before its
    // paint, and the map is drawn then: reading the width here would force a layout of the
    // whole page in the middle of a render, and drawing before it would draw twice.
    let observer: StoredValue<Option<WidthObserver>, LocalStorage> = StoredValue::new_local(None);
    Effect::new(move |_| {
        if let Some(c) = canvas.get() {
            if let Some(parent) = c.parent_element() {
                observer.update_value(|o| {
                    if o.is_none() {
                        *o = WidthObserver::new(&parent, width);
                    }
                });
            }
        }
    });
    on_cleanup(move || {
        observer.try_update_value(|o| {
            if let Some(o) = o.take() {
                o.observer.disconnect();
            }
        });
    });

    let cell_at = move |x: f64, y: f64| -> Option<usize> {
        position.frame.with_untracked(|f| {
            let f = f.as_ref()?;
            let n = f.nodes.len();
            let cell = cell_size(n);
            let cols = columns(width.get_untracked()?, cell);
            let (col, row) = ((x / (cell + GAP)) as usize, (y / (cell + GAP)) as usize);
            let i = row * cols + col;
            (col < cols && i < n).then_some(i)
        })
    };
    let describe = move |i: usize| {
        position.frame.with_untracked(|f| {
            let n = f.as_ref()?.nodes.get(i)?;
            Some(format!(
                "{} · cpu {} · mem {} · pods {} / {}{}",
                n.name,
                format_usage("cpu", n.cpu.used, n.cpu.total),
                format_usage("memory", n.memory.used, n.memory.total),
                n.pods.used,
                n.pods.total,
                if n.cordoned { " · cordoned" } else { "" }
            ))
        })
    };
    view! {
        <div class="heat-map" data-testid="heat-map">
            <canvas
                node_ref=canvas
                data-testid="heat-map-canvas"
                role="img"
                aria-label="Heat-map of the nodes by CPU requested; the Pods tab and the event filter find a node by name"
                on:click=move |ev| {
                    if let Some(i) = cell_at(f64::from(ev.offset_x()), f64::from(ev.offset_y())) {
                        let name = position.frame.with_untracked(|f| f.as_ref().map(|f| f.nodes[i].name.clone()));
                        if let Some(name) = name {
                            selected.select_node(&name);
                        }
                    }
                }
                on:mousemove=move |ev| {
                    let text = cell_at(f64::from(ev.offset_x()), f64::from(ev.offset_y())).and_then(describe);
                    hover.set(text);
                }
                on:mouseleave=move |_| hover.set(None)
            ></canvas>
            <div class="heat-legend">
                <span class="swatch" style="background: hsl(214 45% 92%)"></span>"idle"
                <span class="swatch" style="background: hsl(214 70% 45%)"></span>"busy"
                <span class="swatch" style="background: hsl(8 72% 52%)"></span>"≥ 95% cpu"
                <span class="swatch" style="background: #b8b8b8"></span>"cordoned"
                <span class="hover" data-testid="heat-map-hover">{move || hover.get().unwrap_or_default()}</span>
            </div>
        </div>
    }
}

/// Sets the canvas's width signal when its container changes width.
struct WidthObserver {
    observer: web_sys::ResizeObserver,
    /// Called by the observer; kept alive as long as it.
    _on_resize: Closure<dyn FnMut(js_sys::Array)>,
}

impl WidthObserver {
    fn new(container: &web_sys::Element, width: RwSignal<Option<f64>>) -> Option<WidthObserver> {
        let on_resize = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
            let Ok(entry) = entries.get(0).dyn_into::<web_sys::ResizeObserverEntry>() else {
                return;
            };
            // The width the canvas may take: the container's content box, as the browser's
            // layout left it (reading it lays nothing out).
            let w = entry.content_rect().width().max(200.0);
            if width
                .try_get_untracked()
                .is_some_and(|old| old.is_none_or(|old| (old - w).abs() >= 1.0))
            {
                width.try_set(Some(w));
            }
        });
        let observer = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()).ok()?;
        observer.observe(container);
        Some(WidthObserver {
            observer,
            _on_resize: on_resize,
        })
    }
}

fn columns(width: f64, cell: f64) -> usize {
    ((width / (cell + GAP)) as usize).max(1)
}

/// Draws every node's cell.
fn draw(
    canvas: &web_sys::HtmlCanvasElement,
    frame: &Frame,
    selection: &Selection,
    selected_pod: Option<usize>,
    width: f64,
) {
    let n = frame.nodes.len();
    let cell = cell_size(n);
    let cols = columns(width, cell);
    let rows = n.div_ceil(cols).max(1);
    let css_w = cols as f64 * (cell + GAP);
    let css_h = rows as f64 * (cell + GAP);
    let ratio = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio());
    canvas.set_width((css_w * ratio) as u32);
    canvas.set_height((css_h * ratio) as u32);
    let style = web_sys::HtmlElement::style(canvas);
    let _ = style.set_property("width", &format!("{css_w}px"));
    let _ = style.set_property("height", &format!("{css_h}px"));
    let Ok(Some(ctx)) = canvas.get_context("2d") else {
        return;
    };
    let Ok(ctx) = ctx.dyn_into::<web_sys::CanvasRenderingContext2d>() else {
        return;
    };
    let _ = ctx.scale(ratio, ratio);
    ctx.clear_rect(0.0, 0.0, css_w, css_h);
    let selected_node = match selection {
        Selection::Node(name) => frame.nodes.iter().position(|x| &x.name == name),
        Selection::Pod(p) => frame.nodes.iter().position(|x| {
            x.chips
                .iter()
                .any(|c| c.pod == *p && c.kind != ChipKind::Nominated)
        }),
        Selection::None => None,
    };
    for (i, node) in frame.nodes.iter().enumerate() {
        let (x, y) = (
            (i % cols) as f64 * (cell + GAP),
            (i / cols) as f64 * (cell + GAP),
        );
        let used = node.cpu.ratio();
        let color = if node.cordoned {
            "#b8b8b8".to_string()
        } else if used >= 0.95 {
            "hsl(8 72% 52%)".to_string()
        } else {
            // From pale (idle) to deep blue (busy).
            let light = 92.0 - used * 47.0;
            let sat = 45.0 + used * 25.0;
            format!("hsl(214 {sat:.0}% {light:.0}%)")
        };
        ctx.set_fill_style_str(&color);
        ctx.fill_rect(x, y, cell, cell);
        // A dot: a pod is nominated here, or the selected pod is here.
        let dot = node
            .chips
            .iter()
            .any(|c| c.kind == ChipKind::Nominated || Some(c.pod) == selected_pod);
        if dot {
            ctx.set_fill_style_str("#f0a500");
            ctx.fill_rect(x + cell * 0.3, y + cell * 0.3, cell * 0.4, cell * 0.4);
        }
    }
    if let Some(i) = selected_node {
        let (x, y) = (
            (i % cols) as f64 * (cell + GAP),
            (i / cols) as f64 * (cell + GAP),
        );
        ctx.set_stroke_style_str("#111");
        ctx.set_line_width(2.0);
        ctx.stroke_rect(x - 1.0, y - 1.0, cell + 2.0, cell + 2.0);
    }
}
