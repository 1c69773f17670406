//! Reading the JSON Lines of sharded runs: joining shards into the output of one unsharded run
//! (`puzzle merge`), and taking the complete items of an interrupted run to resume it
//! (`--resume`).
//!
//! A sharded or resumable run's output starts with a header line `{"request": {…}}`: the whole
//! job request (as [`JobRequest`], with its `shard`), so that a merge knows the configuration,
//! refuses shards of different configurations and can rebuild the summaries and reports. Item
//! records carry `item` (their 1-based number in the run); records without one (summaries,
//! totals) are derived and computed again. A merge runs the request with every item done (see
//! [`crate::shard`]): the job emits the records again in item order and computes its summaries
//! and report over them exactly as an unsharded run does.

use crate::registry::JobRequest;
use crate::shard::{ranges, Items, Shard};
use anyhow::{bail, Context, Result};
use serde_json::Value;
use std::collections::BTreeMap;

/// Records of done items by item number (what [`Items::done`] holds).
pub type DoneRecords = BTreeMap<usize, Vec<Value>>;

/// The header line of a sharded or resumable run's JSON Lines.
pub fn header(request: &JobRequest) -> Result<Value> {
    Ok(serde_json::json!({ "request": serde_json::to_value(request)? }))
}

/// One file of JSON Lines read: its request and its complete items' records.
#[derive(Debug)]
pub struct RunFile {
    /// The file's name (for messages).
    pub name: String,
    /// The request in its header.
    pub request: JobRequest,
    /// The header's request as JSON (for comparisons).
    request_json: Value,
    /// Complete items: item number → (first line, records).
    pub items: BTreeMap<usize, (usize, Vec<Value>)>,
    /// What was left out, for the user (a truncated last line, incomplete items).
    pub notes: Vec<String>,
}

impl RunFile {
    /// Read `text` (the file `name`): a header line, then records. A last line that is not
    /// JSON is taken for one cut off by an interrupted run and left out (with a note); a bad
    /// line elsewhere is an error naming the file and line.
    pub fn parse(name: &str, text: &str) -> Result<RunFile> {
        let lines: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l))
            .filter(|(_, l)| !l.trim().is_empty())
            .collect();
        let mut notes = Vec::new();
        let mut values = Vec::new();
        for (i, &(number, line)) in lines.iter().enumerate() {
            match serde_json::from_str::<Value>(line) {
                Ok(v) if v.is_object() => values.push((number, v)),
                Ok(_) => bail!("{name} line {number}: not a JSON object"),
                Err(e) if i + 1 == lines.len() && i > 0 => {
                    notes.push(format!(
                        "{name} line {number}: left out a cut-off last line ({e})"
                    ));
                }
                Err(e) => bail!("{name} line {number}: not JSON ({e})"),
            }
        }
        let Some((first, head)) = values.first() else {
            bail!("{name}: empty (no header line)");
        };
        let first = *first;
        let Some(request_json) = head
            .get("request")
            .filter(|_| head.as_object().is_some_and(|o| o.len() == 1))
            .cloned()
        else {
            bail!(
                "{name} line {first}: not a run header: the output of a run with --shard I/N \
                 (or --resume) and --json starts with one"
            );
        };
        let mut request: JobRequest = serde_json::from_value(request_json.clone())
            .with_context(|| format!("{name} line {first}: the header's request"))?;
        // Runs before a job refused the budget settings it does not read recorded them: they
        // changed nothing then, so they are unset now.
        request.unset_unread_limits();
        let request_json = serde_json::to_value(&request)?;
        let mut grouped: BTreeMap<usize, (usize, Vec<Value>)> = BTreeMap::new();
        for (number, v) in values.into_iter().skip(1) {
            if v.get("request").is_some() {
                bail!("{name} line {number}: a second run header (were two outputs joined?)");
            }
            let Some(item) = v.get("item") else { continue };
            let Some(item) = item.as_u64().filter(|&k| k >= 1) else {
                bail!("{name} line {number}: \"item\" is not a positive whole number");
            };
            grouped
                .entry(item as usize)
                .or_insert_with(|| (number, Vec::new()))
                .1
                .push(v);
        }
        let mut items = BTreeMap::new();
        let mut cut = Vec::new();
        for (item, (line, records)) in grouped {
            if request.item_complete(&records) {
                items.insert(item, (line, records));
            } else {
                cut.push(item);
            }
        }
        if !cut.is_empty() {
            notes.push(format!(
                "{name}: left out item{} {} (not finished)",
                if cut.len() == 1 { "" } else { "s" },
                ranges(&cut)
            ));
        }
        Ok(RunFile {
            name: name.to_string(),
            request,
            request_json,
            items,
            notes,
        })
    }
}

/// The first top-level field in which two requests differ, as a message.
fn difference(a: &Value, b: &Value) -> Option<String> {
    let empty = serde_json::Map::new();
    let (a, b) = (
        a.as_object().unwrap_or(&empty),
        b.as_object().unwrap_or(&empty),
    );
    let keys = a.keys().chain(b.keys().filter(|k| !a.contains_key(*k)));
    for key in keys {
        let (x, y) = (a.get(key), b.get(key));
        if x != y {
            let show = |v: Option<&Value>| match v {
                None => "absent".to_string(),
                Some(v) => {
                    let s = v.to_string();
                    if s.chars().count() > 60 {
                        format!(
                            "{}… ({} characters)",
                            s.chars().take(40).collect::<String>(),
                            s.len()
                        )
                    } else {
                        s
                    }
                }
            };
            return Some(format!("`{key}` is {} and {}", show(x), show(y)));
        }
    }
    None
}

fn without_shard(request: &Value) -> Value {
    let mut v = request.clone();
    if let Value::Object(map) = &mut v {
        map.shift_remove("shard");
    }
    v
}

/// The complete items of an earlier run's output `text` (file `name`) for resuming `request`
/// (which must be the same request, shard included), with notes on what was left out.
pub fn resume(name: &str, text: &str, request: &JobRequest) -> Result<(DoneRecords, Vec<String>)> {
    let file = RunFile::parse(name, text)?;
    let ours = serde_json::to_value(request)?;
    if let Some(d) = difference(&file.request_json, &ours) {
        bail!("{name} is the output of a different run: {d} (in {name} and in this run)");
    }
    Ok((
        file.items.into_iter().map(|(k, (_, r))| (k, r)).collect(),
        file.notes,
    ))
}

/// Join the outputs of a run's shards: the request with every item's records done and no
/// shard, ready to run (it emits what one unsharded run emits), and notes on what was left out.
/// Refuses shards of different requests, an item in two files, and (when run) missing items.
pub fn merge(files: &[RunFile]) -> Result<JobRequest> {
    let Some(first) = files.first() else {
        bail!("give the shards' JSON Lines files to merge");
    };
    let base = without_shard(&first.request_json);
    for f in files {
        if let Some(d) = difference(&base, &without_shard(&f.request_json)) {
            bail!(
                "{} and {} come from different runs: {d} (in {} and in {})",
                first.name,
                f.name,
                first.name,
                f.name
            );
        }
    }
    let mut done = DoneRecords::new();
    let mut from: BTreeMap<usize, (&str, usize)> = BTreeMap::new();
    for f in files {
        for (&item, (line, records)) in &f.items {
            if let Some((other, other_line)) = from.get(&item) {
                bail!(
                    "item {item} is in both {other} (line {other_line}) and {} (line {line}): \
                     give each shard's output once",
                    f.name
                );
            }
            from.insert(item, (&f.name, *line));
            done.insert(item, records.clone());
        }
    }
    let mut request = first.request.clone();
    let Some(items) = request.items_mut() else {
        bail!(
            "{}: a {} run has no items to merge",
            first.name,
            first.request.name()
        );
    };
    *items = Items {
        shard: None::<Shard>,
        done,
        all_done: true,
    };
    Ok(request)
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = r#"{"request":{"job":"sokoban_solve","xsb":"x","shard":"1/2"}}"#;

    #[test]
    fn a_cut_off_last_line_is_left_out_and_a_bad_middle_line_is_named() {
        let text = format!("{HEAD}\n{{\"item\":1,\"level\":1}}\n{{\"item\":3,\"lev");
        let f = RunFile::parse("a.jsonl", &text).unwrap();
        assert_eq!(f.items.keys().copied().collect::<Vec<_>>(), vec![1]);
        assert!(f.notes[0].contains("a.jsonl line 3"), "{:?}", f.notes);
        let text = format!("{HEAD}\n{{\"item\":1,\n{{\"item\":3}}\n");
        let e = RunFile::parse("a.jsonl", &text).unwrap_err().to_string();
        assert!(e.starts_with("a.jsonl line 2: not JSON"), "{e}");
        let e = RunFile::parse("b.jsonl", "{\"item\":1}\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("b.jsonl line 1: not a run header"), "{e}");
    }

    #[test]
    fn merge_refuses_different_runs_and_duplicate_items() {
        let a = RunFile::parse("a", &format!("{HEAD}\n{{\"item\":1}}\n")).unwrap();
        let b = RunFile::parse(
            "b",
            "{\"request\":{\"job\":\"sokoban_solve\",\"xsb\":\"x\",\"seed\":2,\"shard\":\"2/2\"}}\n",
        )
        .unwrap();
        let e = merge(&[a, b]).unwrap_err().to_string();
        assert!(
            e.contains("a and b come from different runs: `seed`"),
            "{e}"
        );
        let a = RunFile::parse("a", &format!("{HEAD}\n{{\"item\":1}}\n")).unwrap();
        let c = RunFile::parse("c", &format!("{HEAD}\n\n{{\"item\":1}}\n")).unwrap();
        let e = merge(&[a, c]).unwrap_err().to_string();
        assert!(
            e.contains("item 1 is in both a (line 2) and c (line 3)"),
            "{e}"
        );
    }
}
