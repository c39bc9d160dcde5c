//! The playground's share-link decoder (`web/src/link.rs`): any fragment is a link, no link or
//! a `LinkError`, never a panic; and a link that opens, written again by the page, opens the
//! same inputs at the same place.
//!
//! The first byte picks how the rest becomes a fragment: as it is, as the JSON payload of a
//! `scenario=` link (compressed and encoded as the page does), or as its compressed bytes
//! (so the decompressor sees damaged data).

#![no_main]

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use libfuzzer_sys::fuzz_target;
use schedlab_web::link;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let fragment = match mode % 3 {
        0 => String::from_utf8_lossy(rest).into_owned(),
        1 => {
            let packed = miniz_oxide::deflate::compress_to_vec_zlib(rest, 1);
            format!("scenario={}", URL_SAFE_NO_PAD.encode(packed))
        }
        _ => format!("#scenario={}&cycle=2", URL_SAFE_NO_PAD.encode(rest)),
    };
    let _ = link::decode_view(&fragment);
    let opened = match link::decode(&fragment) {
        Ok(Some(opened)) => opened,
        Ok(None) => return,
        Err(e) => {
            drop(e.to_string());
            return;
        }
    };
    opened.warnings.iter().for_each(|w| drop(w.to_string()));
    // What the page writes for this state opens it again, without a problem.
    let again = link::encode(&opened.shared, &opened.view);
    match link::decode(&again) {
        Ok(Some(reopened)) => {
            assert_eq!(reopened.shared, opened.shared, "written again: {again}");
            assert_eq!(reopened.view, opened.view, "written again: {again}");
        }
        other => panic!("the page's own link {again:?} does not open: {other:?}"),
    }
});
