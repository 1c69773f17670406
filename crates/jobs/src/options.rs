//! How a job's options are declared once, on its request struct, and read by every front end.
//!
//! A request derives `clap::Args` (the CLI's flags), serde (the server's JSON, the records'
//! headers, Python's keyword arguments) and `schemars::JsonSchema` (the page's forms) from the
//! same fields. Each field's doc comment is its help text, its `#[arg(default_value…)]` its
//! default ([`defaults`] makes the request's `Default` from those), and its
//! `#[schemars(range(…))]` its range, which [`check_ranges`] enforces for every front end.
//! Choices are enums deriving `clap::ValueEnum`, named in JSON as on the command line.
//!
//! The page builds its forms from the schema alone, so a few schemars attributes that change
//! nothing else serve it: `#[schemars(title = "…")]`, a field's (or a choice's) short label
//! where the doc comment's first sentence is too long for one; `extend("x-when" = {"algo":
//! ["spmcts"], "uctk": [null], "tabu_colours": {"minimum": 2}})`, when a field applies (every
//! named field's value is one of the listed values, `null` for unset, or within the bounds;
//! for a list, one of its values), so that a form shows and sends it only then;
//! `extend("x-choices" = [{"const": …, "title": …}])`, named values a form offers for a field
//! written as text (others are accepted too); `extend("x-hidden" = true)`, a field forms leave
//! out (sharding); `extend("x-advanced" = true)`, an expert knob a form shows behind one
//! "Advanced" disclosure (the seed, iteration and node budgets, the papers' internal
//! constants), since its default is the strongest setting. [`flattened`] sets them on
//! flattened fields, which cannot carry attributes of their own.

use anyhow::{anyhow, bail, Result};
use clap::{Args, FromArgMatches, Parser, ValueEnum};
use schemars::JsonSchema;
use serde::Serialize;

/// The request `T` with every option at its declared default: what the command line gives
/// when no flag is set.
pub fn defaults<T: Args + FromArgMatches>() -> T {
    #[derive(Parser)]
    #[command(no_binary_name = true)]
    struct Defaults<T: Args + FromArgMatches> {
        #[command(flatten)]
        options: T,
    }
    match Defaults::<T>::try_parse_from(std::iter::empty::<String>()) {
        Ok(d) => d.options,
        // Only a declaration without a default can fail here: a bug caught by every test.
        Err(e) => panic!("an option has no default: {e}"),
    }
}

/// The names of `T`'s choices, as the command line and JSON spell them.
pub fn choice_names<T: ValueEnum>() -> Vec<String> {
    T::value_variants()
        .iter()
        .filter_map(|v| v.to_possible_value())
        .map(|v| v.get_name().to_string())
        .collect()
}

/// The name of one choice, as the command line and JSON spell it.
pub fn choice_name<T: ValueEnum>(value: &T) -> String {
    value
        .to_possible_value()
        .map_or_else(String::new, |v| v.get_name().to_string())
}

/// Parse `text` as one of `T`'s choices, or say which `field` it is and what it can be.
pub fn parse_choice<T: ValueEnum>(field: &str, text: &str) -> Result<T> {
    T::from_str(text, false).map_err(|_| {
        anyhow!(
            "unknown {field} '{text}' (choose from {})",
            choice_names::<T>().join(", ")
        )
    })
}

/// Refuse a number outside the range its field declares in `T`'s JSON Schema
/// (`#[schemars(range(min = …, max = …))]`): "`field` must be MIN to MAX, not V".
pub fn check_ranges<T: Serialize + JsonSchema>(request: &T) -> Result<()> {
    let schema = serde_json::to_value(schemars::schema_for!(T))?;
    let values = serde_json::to_value(request)?;
    let (Some(properties), Some(values)) = (schema["properties"].as_object(), values.as_object())
    else {
        return Ok(());
    };
    for (field, property) in properties {
        let Some(v) = values.get(field).and_then(serde_json::Value::as_f64) else {
            continue;
        };
        let min = property.get("minimum").and_then(serde_json::Value::as_f64);
        let max = property.get("maximum").and_then(serde_json::Value::as_f64);
        let shown = values[field].to_string();
        let inside = v.is_finite() && min.is_none_or(|m| v >= m) && max.is_none_or(|m| v <= m);
        if !inside {
            match (min, max) {
                (Some(lo), Some(hi)) => bail!("{field} must be {lo} to {hi}, not {shown}"),
                (Some(0.0), None) => {
                    bail!("{field} must be a non-negative number, not {shown}")
                }
                (Some(lo), None) => bail!("{field} must be at least {lo}, not {shown}"),
                (None, Some(hi)) => bail!("{field} must be at most {hi}, not {shown}"),
                (None, None) => bail!("{field} must be a finite number, not {shown}"),
            }
        }
    }
    Ok(())
}

/// A schemars transform for a request's flattened fields, which cannot carry an attribute of
/// their own (their struct is shared): set `key` to `value` on every one of `fields`, e.g.
/// `#[schemars(transform = crate::options::flattened(&["portfolio_first"], "x-when",
/// serde_json::json!({"algo": ["greedy"]})))]` (see the module's documentation).
pub fn flattened(
    fields: &'static [&'static str],
    key: &'static str,
    value: serde_json::Value,
) -> impl FnMut(&mut schemars::Schema) {
    move |schema: &mut schemars::Schema| {
        if let Some(properties) = schema
            .get_mut("properties")
            .and_then(serde_json::Value::as_object_mut)
        {
            for field in fields {
                if let Some(property) = properties
                    .get_mut(*field)
                    .and_then(serde_json::Value::as_object_mut)
                {
                    property.insert(key.into(), value.clone());
                }
            }
        }
    }
}

/// Serde for a field whose type is written as text (`FromStr` + `Display`), e.g. a playout
/// policy `eps0.1-tabu`: `#[serde(with = "crate::options::as_text")]`.
pub mod as_text {
    use serde::{Deserialize, Deserializer, Serializer};
    use std::fmt::Display;
    use std::str::FromStr;

    /// Write the value as its text.
    pub fn serialize<T: Display, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(value)
    }

    /// Read the value from its text, with the type's own error message.
    pub fn deserialize<'de, T, D>(d: D) -> Result<T, D::Error>
    where
        T: FromStr,
        T::Err: Display,
        D: Deserializer<'de>,
    {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    /// A request as jobs declare them.
    #[derive(Args, Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    #[serde(default)]
    struct Options {
        /// How deep.
        #[arg(long, default_value_t = 2)]
        #[schemars(range(min = 1, max = 6))]
        depth: u32,
        /// How wide.
        #[arg(long, default_value_t = 0.5)]
        #[schemars(range(min = 0.0))]
        width: f64,
        /// Which way.
        #[arg(long, value_enum, default_value_t = Way::Up)]
        way: Way,
    }

    impl Default for Options {
        fn default() -> Self {
            defaults()
        }
    }

    /// Directions.
    #[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    #[serde(rename_all = "kebab-case")]
    enum Way {
        /// Up.
        Up,
        /// Far down.
        FarDown,
    }

    #[test]
    fn the_declared_defaults_are_the_default() {
        let d = Options::default();
        assert_eq!((d.depth, d.width, d.way), (2, 0.5, Way::Up));
        let parsed: Options = serde_json::from_str("{}").unwrap();
        assert_eq!(parsed, d);
        let schema = serde_json::to_value(schemars::schema_for!(Options)).unwrap();
        assert_eq!(schema["properties"]["depth"]["default"], 2);
        assert_eq!(schema["properties"]["depth"]["maximum"], 6);
        assert_eq!(schema["properties"]["depth"]["description"], "How deep.");
    }

    #[test]
    fn choices_are_named_alike_in_json_and_on_the_command_line() {
        assert_eq!(choice_names::<Way>(), ["up", "far-down"]);
        assert_eq!(serde_json::to_value(Way::FarDown).unwrap(), "far-down");
        assert_eq!(
            parse_choice::<Way>("way", "far-down").unwrap(),
            Way::FarDown
        );
        let e = parse_choice::<Way>("way", "sideways").unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown way 'sideways' (choose from up, far-down)"
        );
    }

    #[test]
    fn ranges_are_checked_from_the_schema() {
        assert!(check_ranges(&Options::default()).is_ok());
        let deep = Options {
            depth: 7,
            ..Options::default()
        };
        assert_eq!(
            check_ranges(&deep).unwrap_err().to_string(),
            "depth must be 1 to 6, not 7"
        );
        let narrow = Options {
            width: -1.0,
            ..Options::default()
        };
        assert_eq!(
            check_ranges(&narrow).unwrap_err().to_string(),
            "width must be a non-negative number, not -1.0"
        );
    }
}
