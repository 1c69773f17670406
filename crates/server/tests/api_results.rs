//! `GET /api/results` and `GET /api/results/{id}`: the papers' saved reports with the plots
//! they show, for the Experiments page.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::Value;

mod common;
use common::*;

async fn get(path: &str) -> (StatusCode, Value) {
    let request = Request::get(path)
        .header("host", HOST)
        .header("authorization", format!("Bearer {TOKEN}"))
        .body(Body::empty())
        .unwrap();
    call(&app(), request).await
}

#[tokio::test]
async fn every_saved_report_comes_with_the_plots_it_shows() {
    let (status, list) = get("/api/results").await;
    assert_eq!(status, StatusCode::OK);
    let reports = list.as_array().unwrap();
    assert_eq!(reports.len(), 5, "{list}");
    for report in reports {
        let id = report["id"].as_str().unwrap();
        let title = report["title"].as_str().unwrap();
        assert!(title.starts_with("The "), "{id}: {title}");
        let (status, one) = get(&format!("/api/results/{id}")).await;
        assert_eq!(status, StatusCode::OK);
        let markdown = one["markdown"].as_str().unwrap();
        assert!(markdown.starts_with(&format!("# {title}")), "{id}");
        let shown = markdown
            .lines()
            .filter(|l| l.starts_with("![") && l.contains("](generated/") && l.ends_with(".svg)"))
            .count();
        let plots = one["plots"].as_array().unwrap();
        assert!(!plots.is_empty(), "{id} shows no plot");
        assert_eq!(plots.len(), shown, "{id}: every plot it shows is served");
        for plot in plots {
            assert!(
                plot["svg"].as_str().unwrap().starts_with("<svg"),
                "{id}: {}",
                plot["path"]
            );
            assert!(!plot["alt"].as_str().unwrap().is_empty());
        }
    }
    let (status, body) = get("/api/results/chess").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(body["error"].as_str().unwrap().contains("bait"), "{body}");
}
