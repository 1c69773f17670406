//! Sharding and resuming a job over its items (levels, boards, runs, seeds): the part every
//! request that runs many independent items flattens in beside [`crate::Limits`].
//!
//! Items are numbered 1, 2, … in the order an unsharded run takes them; item `k` belongs to
//! shard `((k − 1) mod N) + 1` of `N` (round robin, so a set whose levels grow harder towards
//! its end spreads its hard levels over every shard). Each item derives its randomness from the
//! base seed and its own identity (level, board, seed), never from a stream shared across items,
//! so an item gives the same record whichever shard runs it, and the merged shards of a run with
//! an iteration budget equal the unsharded run.
//!
//! Records of items already done (read by a front end from an earlier run's JSON Lines, or from
//! the shards being merged) go in [`Items::done`]: the job emits them again as they were instead
//! of running those items, and computes its summaries and reports over all of them, so a
//! resumed run's output is complete and a merge is an unsharded run whose items were all done.

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

/// One shard of `count`: `index` is 1-based (`2/4` is the second of four).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which shard, 1 to `count`.
    pub index: usize,
    /// How many shards the items are split into (at least 1).
    pub count: usize,
}

impl Shard {
    /// A shard, checked: `1 ≤ index ≤ count`.
    pub fn new(index: usize, count: usize) -> Result<Shard, String> {
        if count == 0 {
            return Err("a run cannot be split into 0 shards".into());
        }
        if index == 0 || index > count {
            return Err(format!(
                "shard {index}/{count} does not exist: shards are numbered 1 to {count}"
            ));
        }
        Ok(Shard { index, count })
    }

    /// Whether this shard runs item `item` (1-based): `(item − 1) mod count = index − 1`.
    pub fn owns(&self, item: usize) -> bool {
        item >= 1 && (item - 1) % self.count == self.index - 1
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;

    /// `I/N`, e.g. `2/4` (Slurm: `$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT` with a 1-based
    /// array).
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("'{s}' is not a shard: write I/N, e.g. 2/4 (the second of four)");
        let (i, n) = s.trim().split_once('/').ok_or_else(bad)?;
        let i: usize = i.trim().parse().map_err(|_| bad())?;
        let n: usize = n.trim().parse().map_err(|_| bad())?;
        Shard::new(i, n)
    }
}

impl Serialize for Shard {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Shard {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Shard, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// Which items a job runs: all, or one shard's; and the records of items already done.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct Items {
    /// Run only this shard's items (`"2/4"`); `None`: every item.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<String>", extend("x-hidden" = true))]
    pub shard: Option<Shard>,
    /// Records of items already done, by item number: emitted again (with this run's `shard`
    /// field) instead of running the item. Front ends fill it from files (`--resume`, `puzzle
    /// merge`); it is never read from a request's JSON.
    #[serde(skip)]
    pub done: BTreeMap<usize, Vec<Value>>,
    /// Every item must be among `done` (a merge): a missing one is an error, none is run.
    #[serde(skip)]
    pub all_done: bool,
}

/// What a job does with one item.
#[derive(Debug)]
pub enum Plan<'a> {
    /// Run it.
    Run,
    /// Emit these records of it again (in order) instead of running it.
    Done(&'a [Value]),
    /// Another shard runs it.
    Skip,
}

impl Items {
    /// Check the items against the run's item count (call once the job knows it): in a merge,
    /// every item must be done; no done item may lie beyond the run.
    pub fn check(&self, total: usize) -> Result<()> {
        if let Some(&last) = self.done.keys().next_back() {
            if last > total {
                bail!(
                    "item {last} is beyond this run's {total} item{}: the records come from a \
                     different configuration",
                    plural(total)
                );
            }
        }
        if self.all_done {
            let missing: Vec<usize> = (1..=total).filter(|k| !self.done.contains_key(k)).collect();
            if !missing.is_empty() {
                bail!(
                    "{} of {total} item{} are in none of the files: {} (a shard that did not \
                     finish? resume it with --resume)",
                    missing.len(),
                    plural(total),
                    ranges(&missing)
                );
            }
        }
        Ok(())
    }

    /// What to do with item `item` (1-based).
    pub fn plan(&self, item: usize) -> Plan<'_> {
        if let Some(records) = self.done.get(&item) {
            return Plan::Done(records);
        }
        if self.all_done || self.shard.is_some_and(|s| !s.owns(item)) {
            return Plan::Skip;
        }
        Plan::Run
    }

    /// Decode a done record as the job's record type, with this run's `shard`.
    pub fn decode<T: serde::de::DeserializeOwned>(&self, item: usize, record: &Value) -> Result<T> {
        let mut record = record.clone();
        if let Value::Object(map) = &mut record {
            match self.shard {
                Some(s) => map.insert("shard".into(), Value::String(s.to_string())),
                None => map.shift_remove("shard"),
            };
        }
        serde_json::from_value(record)
            .with_context(|| format!("item {item}: the record does not fit this job"))
    }
}

/// A record that stands for one item of a job over many items: it says which item it is, in
/// words a person can compare (`table 3.1 column "bloom" seed 3`).
pub trait ItemRecord: serde::de::DeserializeOwned {
    /// What identifies the item: equal for the same item of the same configuration.
    fn identity(&self) -> String;
}

impl Items {
    /// The record of item `item` from an earlier run (`records`: what [`Plan::Done`] holds),
    /// decoded and checked to be the item whose identity in this run is `expected`.
    pub fn done<R: ItemRecord>(&self, item: usize, records: &[Value], expected: &str) -> Result<R> {
        let [record] = records else {
            bail!(
                "item {item}: {} records where one is expected",
                records.len()
            );
        };
        let r: R = self.decode(item, record)?;
        let found = r.identity();
        if found != expected {
            bail!(
                "item {item} is {found}, but this run's item {item} is {expected}: the records \
                 come from a different configuration"
            );
        }
        Ok(r)
    }

    /// The one step every job over items takes for item `item` (1-based), whose identity in
    /// this run is `expected` ([`ItemRecord::identity`]): `None` when another shard runs it or
    /// the stop flag is set before it starts; the record of an earlier run, decoded and checked
    /// to be this item (a record of another item or configuration is an error); else the
    /// record `run` makes, or `None` when `run` says the run was cut short (not a run of the
    /// configured budget: left out, so that a resume runs it again).
    pub fn record<R: ItemRecord>(
        &self,
        item: usize,
        expected: &str,
        stop: &std::sync::atomic::AtomicBool,
        run: impl FnOnce() -> Result<Option<R>>,
    ) -> Result<Option<R>> {
        match self.plan(item) {
            Plan::Skip => Ok(None),
            Plan::Done(records) => self.done(item, records, expected).map(Some),
            Plan::Run if stop.load(std::sync::atomic::Ordering::Relaxed) => Ok(None),
            Plan::Run => run(),
        }
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// `1-3, 7, 9-10` for sorted numbers.
pub fn ranges(sorted: &[usize]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let mut j = i;
        while j + 1 < sorted.len() && sorted[j + 1] == sorted[j] + 1 {
            j += 1;
        }
        parts.push(if i == j {
            sorted[i].to_string()
        } else {
            format!("{}-{}", sorted[i], sorted[j])
        });
        i = j + 1;
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;

    /// A record of a test item: its name is its identity.
    #[derive(Debug, PartialEq, serde::Deserialize)]
    struct Named {
        name: String,
    }

    impl ItemRecord for Named {
        fn identity(&self) -> String {
            self.name.clone()
        }
    }

    #[test]
    fn an_item_is_skipped_taken_from_earlier_records_checked_or_run() {
        let stop = AtomicBool::new(false);
        let ran = || Ok(Some(Named { name: "ran".into() }));
        let mut items = Items {
            shard: Some(Shard::new(2, 2).unwrap()),
            ..Items::default()
        };
        items
            .done
            .insert(4, vec![serde_json::json!({ "name": "b", "item": 4 })]);
        assert_eq!(
            items.record(1, "a", &stop, ran).unwrap(),
            None,
            "another shard's"
        );
        assert_eq!(
            items.record(2, "a", &stop, ran).unwrap(),
            Some(Named { name: "ran".into() })
        );
        assert_eq!(
            items.record(4, "b", &stop, ran).unwrap(),
            Some(Named { name: "b".into() }),
            "an earlier run's record, not run again"
        );
        let e = items.record(4, "c", &stop, ran).unwrap_err().to_string();
        assert_eq!(
            e,
            "item 4 is b, but this run's item 4 is c: the records come from a different \
             configuration"
        );
        assert_eq!(
            items.record(2, "a", &stop, || Ok(None::<Named>)).unwrap(),
            None,
            "cut short"
        );
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        let never = || -> Result<Option<Named>> { panic!("a stopped run starts no item") };
        assert_eq!(items.record(2, "a", &stop, never).unwrap(), None);
    }

    #[test]
    fn shards_partition_the_items_round_robin() {
        for count in 1..=5 {
            let mut owners = [0; 23];
            for index in 1..=count {
                let s = Shard::new(index, count).unwrap();
                for (k, owner) in owners.iter_mut().enumerate() {
                    if s.owns(k + 1) {
                        assert_eq!(*owner, 0, "item {} in two shards of {count}", k + 1);
                        *owner = index;
                    }
                }
            }
            for (k, owner) in owners.iter().enumerate() {
                assert_eq!(*owner, k % count + 1, "item {} of {count}", k + 1);
            }
        }
    }

    #[test]
    fn shards_parse_as_i_over_n_and_refuse_the_impossible() {
        assert_eq!("2/4".parse(), Ok(Shard { index: 2, count: 4 }));
        assert_eq!(" 1 / 1 ".parse(), Ok(Shard { index: 1, count: 1 }));
        for bad in ["0/4", "5/4", "1/0", "2", "a/b", "-1/3", ""] {
            let e = bad.parse::<Shard>().unwrap_err();
            assert!(e.contains("shard"), "{bad}: {e}");
        }
        assert!("5/4"
            .parse::<Shard>()
            .unwrap_err()
            .contains("numbered 1 to 4"));
        let s: Shard = serde_json::from_str("\"3/8\"").unwrap();
        assert_eq!(serde_json::to_string(&s).unwrap(), "\"3/8\"");
    }

    #[test]
    fn done_items_are_replayed_and_a_merge_names_the_missing_ones() {
        let mut items = Items {
            shard: Some(Shard::new(2, 2).unwrap()),
            ..Items::default()
        };
        items.done.insert(3, vec![serde_json::json!({"item": 3})]);
        assert!(matches!(items.plan(1), Plan::Skip));
        assert!(matches!(items.plan(2), Plan::Run));
        assert!(matches!(items.plan(3), Plan::Done(r) if r.len() == 1));
        items.check(3).unwrap();
        assert!(items.check(2).unwrap_err().to_string().contains("item 3"));
        items.all_done = true;
        items.shard = None;
        let e = items.check(7).unwrap_err().to_string();
        assert!(e.contains("6 of 7 items") && e.contains("1-2, 4-7"), "{e}");
        assert!(matches!(items.plan(1), Plan::Skip));
    }
}
