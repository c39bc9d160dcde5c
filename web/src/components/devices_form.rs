//! The form view of `devices.yaml`: Dynamic Resource Allocation's objects, a list per kind
//! (DeviceClasses, ResourceSlices, ResourceClaims, ResourceClaimTemplates) over one parse of
//! the file, each row expanding into its fields. Any other object of the file is kept as it is.

use super::dra_row::{Claims, Classes, Slices, Templates};
use super::form_doc::FormDoc;
use super::form_notice::FormNotice;
use super::object_list::KindList;
use super::term::Term;
use leptos::prelude::*;

/// The devices editor.
#[component]
pub fn DevicesForm(text: Signal<String>, on_edit: Callback<String>) -> impl IntoView {
    let doc = FormDoc::new(text, on_edit);
    view! {
        <div class="form devices-form" data-testid="devices-form">
            <FormNotice text=text stem="devices" error=Signal::derive(move || doc.error())/>
            <Show when=move || doc.error().is_none()>
                <p class="form-hint">
                    "kube-scheduler v1.35 places devices with "<Term name="DynamicResources">"Dynamic Resource Allocation"</Term>
                    ": drivers publish devices in ResourceSlices, pods ask for them through ResourceClaims (or templates). Open a row to edit it; a field applies on Enter or when you leave it."
                </p>
                <section class="form-section" data-testid="device-classes">
                    <div class="form-section-head"><h3><Term name="DeviceClass">"DeviceClasses"</Term></h3></div>
                    <KindList<Classes> doc=doc hint=false/>
                </section>
                <section class="form-section" data-testid="resource-slices">
                    <div class="form-section-head"><h3><Term name="ResourceSlice">"ResourceSlices"</Term></h3></div>
                    <KindList<Slices> doc=doc hint=false/>
                </section>
                <section class="form-section" data-testid="resource-claims">
                    <div class="form-section-head"><h3><Term name="ResourceClaim">"ResourceClaims"</Term></h3></div>
                    <KindList<Claims> doc=doc hint=false/>
                </section>
                <section class="form-section" data-testid="claim-templates">
                    <div class="form-section-head"><h3><Term name="ResourceClaimTemplate">"ResourceClaimTemplates"</Term></h3></div>
                    <KindList<Templates> doc=doc hint=false/>
                </section>
            </Show>
        </div>
    }
}
