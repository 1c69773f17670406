//! `GET /api/jobs`: every job of the registry with the JSON Schema of its request, which the
//! page builds its settings forms from (`web/forms.js`), and the form hints in those schemas
//! (`x-when`, `x-choices`) name real fields and values the requests accept.

use axum::http::StatusCode;
use puzzle_jobs::JobRequest;
use serde_json::{json, Map, Value};

mod common;
use common::*;

/// The served `{"jobs": [...]}`, checked to be a 200 answer.
async fn served_jobs() -> Vec<Value> {
    let (status, body) = call(&app(), get("/api/jobs")).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["jobs"].as_array().expect("a `jobs` list").clone()
}

fn properties(job: &Value) -> &Map<String, Value> {
    job["schema"]["properties"]
        .as_object()
        .unwrap_or_else(|| panic!("{}: the schema has no properties", job["name"]))
}

/// Whether `{"job": name, field: value}` is a request the server reads.
fn accepts(name: &str, field: &str, value: &Value) -> Result<JobRequest, String> {
    serde_json::from_value(json!({ "job": name, field: value })).map_err(|e| e.to_string())
}

#[tokio::test]
async fn every_registry_job_is_listed_with_a_schema_of_its_options() {
    let jobs = served_jobs().await;
    let registry = puzzle_jobs::registry::jobs();
    let names: Vec<&str> = jobs.iter().map(|j| j["name"].as_str().unwrap()).collect();
    let expected: Vec<&str> = registry.iter().map(|j| j.name).collect();
    assert_eq!(
        names, expected,
        "every registry job, in the registry's order"
    );
    for (job, info) in jobs.iter().zip(&registry) {
        assert_eq!(job["title"], info.title, "{}: the title", info.name);
        assert_eq!(
            job["schema"], info.schema,
            "{}: the registry's schema",
            info.name
        );
        assert!(
            !properties(job).is_empty(),
            "{}: the schema lists the request's options",
            info.name
        );
        assert_eq!(
            job["schema"]["$schema"], "https://json-schema.org/draft/2020-12/schema",
            "{}: draft 2020-12",
            info.name
        );
    }
}

#[tokio::test]
async fn the_schemas_give_what_a_form_needs() {
    for job in served_jobs().await {
        let name = job["name"].as_str().unwrap();
        for (field, property) in properties(&job) {
            // A label: a title, or a doc comment to take its first sentence from.
            assert!(
                property.get("title").is_some() || property.get("description").is_some(),
                "{name}.{field}: no title and no description"
            );
            // Every stated default is a value the request accepts.
            if let Some(default) = property.get("default") {
                accepts(name, field, default)
                    .unwrap_or_else(|e| panic!("{name}.{field}: the default {default}: {e}"));
            }
        }
    }
}

#[tokio::test]
async fn form_hints_name_real_fields_and_accepted_values() {
    let mut hints = 0;
    for job in served_jobs().await {
        let name = job["name"].as_str().unwrap();
        let props = properties(&job);
        for (field, property) in props {
            if let Some(when) = property.get("x-when") {
                hints += 1;
                let when = when
                    .as_object()
                    .unwrap_or_else(|| panic!("{name}.{field}: x-when is an object"));
                for (other, condition) in when {
                    assert!(
                        props.contains_key(other),
                        "{name}.{field}: x-when names `{other}`, which is not an option"
                    );
                    match condition {
                        // One of these values of the other field (for a list: among its values).
                        Value::Array(values) => {
                            assert!(!values.is_empty(), "{name}.{field}: x-when {other}: []");
                            let list = props[other]["type"] == "array"
                                || props[other]["type"]
                                    .as_array()
                                    .is_some_and(|t| t.contains(&json!("array")));
                            for value in values {
                                let value = if list { json!([value]) } else { value.clone() };
                                accepts(name, other, &value).unwrap_or_else(|e| {
                                    panic!("{name}.{field}: x-when {other} = {value}: {e}")
                                });
                            }
                        }
                        // Bounds of a number.
                        Value::Object(bounds) => {
                            assert!(
                                !bounds.is_empty()
                                    && bounds.iter().all(|(k, v)| {
                                        (k == "minimum" || k == "maximum") && v.is_number()
                                    }),
                                "{name}.{field}: x-when {other} = {condition}"
                            );
                        }
                        other => panic!("{name}.{field}: an x-when condition {other}"),
                    }
                }
            }
            if let Some(choices) = property.get("x-choices") {
                hints += 1;
                for choice in choices.as_array().expect("x-choices is a list") {
                    let value = &choice["const"];
                    assert!(
                        choice.get("title").is_some() || choice.get("description").is_some(),
                        "{name}.{field}: the choice {value} has no text"
                    );
                    let request = accepts(name, field, value)
                        .unwrap_or_else(|e| panic!("{name}.{field}: x-choices {value}: {e}"));
                    assert_eq!(
                        serde_json::to_value(&request).unwrap()[field],
                        *value,
                        "{name}.{field}: x-choices {value} reads back as itself"
                    );
                }
            }
            if let Some(hidden) = property.get("x-hidden") {
                assert_eq!(hidden, &json!(true), "{name}.{field}: x-hidden is true");
            }
        }
    }
    assert!(hints > 0, "the schemas carry form hints");
}

#[tokio::test]
async fn the_samegame_solve_form_hints_match_the_page() {
    let jobs = served_jobs().await;
    let job = jobs
        .iter()
        .find(|j| j["name"] == "samegame_solve")
        .expect("samegame_solve");
    let props = properties(job);
    assert_eq!(props["algo"]["title"], "Algorithm");
    assert_eq!(
        props["playout"]["x-when"],
        json!({ "algo": ["spmcts", "nmcs", "dbs", "random"] })
    );
    // UCTK set means UCB1: the SP-MCTS constants apply only without it.
    assert_eq!(
        props["c"]["x-when"],
        json!({ "algo": ["spmcts"], "uctk": [null] })
    );
    assert_eq!(
        props["level"]["x-when"],
        json!({ "algo": ["nmcs", "nrpa"] })
    );
    // The budget settings, flattened from `Limits`, are labelled for forms too.
    assert_eq!(props["time_limit"]["title"], "Time limit (s)");
    assert_eq!(props["shard"]["x-hidden"], true);
}
