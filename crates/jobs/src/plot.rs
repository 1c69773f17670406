//! SVG plots for the experiment reports: a line chart and a horizontal grouped bar chart, drawn
//! with `plotters` (SVG backend only). Text is written as SVG `<text>` elements
//! (`font-family="DejaVu Sans, sans-serif"`); its layout uses the metrics of the bundled DejaVu
//! Sans (`data/fonts/`), so no system font is looked up at run time.
//!
//! Every chart is [`WIDTH`] pixels wide (the README's width) and has a title, axis labels with
//! units and a legend above the plotting area (never over the data).

use anyhow::{anyhow, Result};
use plotters::coord::ranged1d::{AsRangedCoord, Ranged, ValueFormatter};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::series::DashedLineSeries;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use serde::{Deserialize, Serialize};
use std::sync::Once;

/// The bundled font (DejaVu Sans 2.37, Bitstream Vera licence; see `data/fonts/README.md`).
static FONT: &[u8] = include_bytes!("../fonts/DejaVuSans.ttf");

/// The font family written into the SVG files (and registered with `plotters` for layout).
pub const FONT_FAMILY: &str = "DejaVu Sans, sans-serif";

/// Width of every chart, pixels.
pub const WIDTH: u32 = 1200;

/// The series colours (Tableau 10: distinguishable, also in greyscale by lightness).
const PALETTE: [RGBColor; 10] = [
    RGBColor(0x4e, 0x79, 0xa7),
    RGBColor(0xf2, 0x8e, 0x2b),
    RGBColor(0xe1, 0x57, 0x59),
    RGBColor(0x59, 0xa1, 0x4f),
    RGBColor(0xb0, 0x7a, 0xa1),
    RGBColor(0x76, 0xb7, 0xb2),
    RGBColor(0xed, 0xc9, 0x48),
    RGBColor(0x9c, 0x75, 0x5f),
    RGBColor(0xff, 0x9d, 0xa7),
    RGBColor(0x79, 0x70, 0x6e),
];

/// The `i`-th series colour (cycling).
fn color(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// One plot of a report: the file name the CLI writes it under (beside the report), its title
/// (the Markdown image's alt text) and the SVG text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plot {
    /// File name, e.g. `sudoku-top95.svg` (the CLI prefixes the report's name:
    /// `report-sudoku-top95.svg`).
    pub name: String,
    /// What the plot shows.
    pub title: String,
    /// The SVG document.
    pub svg: String,
}

/// An experiment's output: the Markdown report and its plots.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Report {
    /// The Markdown report (without links to the plots: their file names are the front end's).
    pub markdown: String,
    /// The plots, in the order of the report.
    pub plots: Vec<Plot>,
}

/// One line of a [`LineChart`].
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// The legend entry.
    pub label: String,
    /// The points `(x, y)`, in drawing order.
    pub points: Vec<(f64, f64)>,
    /// The colour's index in the palette (`None`: the series' index).
    pub color: Option<usize>,
    /// The line's dash pattern (to tell series of the same colour apart).
    pub dash: Dash,
    /// Mark each point with a dot.
    pub markers: bool,
}

impl Series {
    /// A solid line with markers, in the next palette colour.
    pub fn new(label: impl Into<String>, points: Vec<(f64, f64)>) -> Self {
        Series {
            label: label.into(),
            points,
            color: None,
            dash: Dash::Solid,
            markers: true,
        }
    }

    /// The same series in palette colour `color` and dash pattern `dash`.
    pub fn styled(mut self, color: usize, dash: Dash) -> Self {
        self.color = Some(color);
        self.dash = dash;
        self
    }

    /// The same series without point markers (for step curves).
    pub fn without_markers(mut self) -> Self {
        self.markers = false;
        self
    }
}

/// A line's dash pattern.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Dash {
    /// A solid line.
    #[default]
    Solid,
    /// Long dashes.
    Dashed,
    /// Short dots.
    Dotted,
}

/// A line chart: one or more series over a numeric x axis.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LineChart {
    /// The title above the chart.
    pub title: String,
    /// The x axis' label, with its unit.
    pub x_label: String,
    /// The y axis' label, with its unit.
    pub y_label: String,
    /// The lines.
    pub series: Vec<Series>,
    /// A logarithmic x axis (every x must be positive).
    pub log_x: bool,
    /// The x range (default: the data's).
    pub x_range: Option<(f64, f64)>,
    /// The y range (default: [`value_range`] of the data).
    pub y_range: Option<(f64, f64)>,
}

/// A horizontal grouped bar chart: categories down the left, one bar per series in each, in
/// one or more panels (stacked, each with its own value axis) that share the categories and the
/// legend.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BarChart {
    /// The title above the chart.
    pub title: String,
    /// What the categories are (the vertical axis' label).
    pub category_label: String,
    /// The categories, top first.
    pub categories: Vec<String>,
    /// The legend: one entry per bar of a category.
    pub series: Vec<String>,
    /// The panels.
    pub panels: Vec<BarPanel>,
}

/// One panel of a [`BarChart`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BarPanel {
    /// The value axis' label, with its unit.
    pub value_label: String,
    /// `values[series][category]`; `None` draws no bar (not measured, no reference figure).
    pub values: Vec<Vec<Option<f64>>>,
}

fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        for name in [FONT_FAMILY, "sans-serif"] {
            // The bundled file is a valid TrueType font (a unit test draws with it).
            let _ = plotters::style::register_font(name, FontStyle::Normal, FONT);
        }
    });
}

fn font(size: u32) -> TextStyle<'static> {
    (FONT_FAMILY, size).into_font().color(&BLACK)
}

fn err<E: std::fmt::Debug>(e: E) -> anyhow::Error {
    anyhow!("drawing a plot: {e:?}")
}

/// A tick label: `0`, `0.25`, `12`, `150k`, `2.5M`.
pub fn tick(v: f64) -> String {
    fn trim(s: String) -> String {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        }
    }
    let a = v.abs();
    if a >= 1e6 {
        format!("{}M", trim(format!("{:.2}", v / 1e6)))
    } else if a >= 1e4 {
        format!("{}k", trim(format!("{:.1}", v / 1e3)))
    } else if a >= 100.0 {
        format!("{v:.0}")
    } else {
        trim(format!("{v:.3}"))
    }
}

/// A bar's value as written at its end: whole numbers in full with thousands separators
/// (`64,981`), so that close values differ on the page; others as [`tick`] writes them.
pub fn bar_value(v: f64) -> String {
    if v.fract() != 0.0 || v.abs() >= 1e15 {
        return tick(v);
    }
    let digits = format!("{}", v.abs() as u64);
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    if v < 0.0 {
        out.insert(0, '-');
    }
    out
}

/// A legend entry: its label, colour, and a line (dashed or not) or a box swatch.
struct Entry<'a> {
    label: &'a str,
    color: RGBColor,
    line: Option<Dash>,
}

const LEGEND_ROW: u32 = 22;

/// Lay out the legend in rows across the width: returns the rows of entry indices.
fn legend_rows(area: &DrawingArea<SVGBackend, Shift>, entries: &[Entry]) -> Vec<Vec<usize>> {
    let style = font(13);
    let mut rows: Vec<Vec<usize>> = vec![Vec::new()];
    let mut x = 0;
    for (i, e) in entries.iter().enumerate() {
        let w = 34 + area.estimate_text_size(e.label, &style).map_or(0, |s| s.0) + 20;
        if x + w > WIDTH - 40 && !rows.last().is_some_and(|r| r.is_empty()) {
            rows.push(Vec::new());
            x = 0;
        }
        rows.last_mut().expect("a row").push(i);
        x += w;
    }
    rows
}

fn draw_legend(area: &DrawingArea<SVGBackend, Shift>, entries: &[Entry]) -> Result<()> {
    let style = font(13);
    for (r, row) in legend_rows(area, entries).iter().enumerate() {
        let y = 6 + r as i32 * LEGEND_ROW as i32 + 8;
        let mut x = 20i32;
        for &i in row {
            let e = &entries[i];
            match e.line {
                Some(dash) => {
                    let s = e.color.stroke_width(2);
                    if dash != Dash::Solid {
                        let (len, step) = if dash == Dash::Dashed {
                            (6, 10)
                        } else {
                            (2, 6)
                        };
                        for k in 0..26 / step + 1 {
                            area.draw(&PathElement::new(
                                vec![(x + k * step, y), (x + k * step + len, y)],
                                s,
                            ))
                            .map_err(err)?;
                        }
                    } else {
                        area.draw(&PathElement::new(vec![(x, y), (x + 26, y)], s))
                            .map_err(err)?;
                    }
                }
                None => area
                    .draw(&Rectangle::new(
                        [(x + 4, y - 6), (x + 22, y + 6)],
                        e.color.filled(),
                    ))
                    .map_err(err)?,
            }
            let pos = Pos::new(HPos::Left, VPos::Center);
            area.draw(&Text::new(
                e.label.to_string(),
                (x + 34, y),
                style.clone().pos(pos),
            ))
            .map_err(err)?;
            x += 34 + area.estimate_text_size(e.label, &style).map_or(0, |s| s.0) as i32 + 20;
        }
    }
    Ok(())
}

/// The title's height plus the legend's, pixels.
fn header_height(entries: &[Entry]) -> u32 {
    // Measure on a scratch area (the legend's rows depend only on the text widths).
    let mut scratch = String::new();
    let rows = {
        let root = SVGBackend::with_string(&mut scratch, (WIDTH, 100)).into_drawing_area();
        legend_rows(&root, entries).len() as u32
    };
    40 + rows * LEGEND_ROW + 8
}

/// Draw a [`LineChart`] as an SVG document.
pub fn line_chart(chart: &LineChart) -> Result<String> {
    register_font();
    let pts = || chart.series.iter().flat_map(|s| s.points.iter().copied());
    let (mut x0, mut x1) = pts().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), (x, _)| {
        (a.min(x), b.max(x))
    });
    if let Some((a, b)) = chart.x_range {
        (x0, x1) = (a, b);
    }
    if !x0.is_finite() {
        (x0, x1) = (if chart.log_x { 1.0 } else { 0.0 }, 1.0);
    }
    if x1 <= x0 {
        x1 = if chart.log_x { x0 * 10.0 } else { x0 + 1.0 };
    }
    let (y0, y1) = chart
        .y_range
        .unwrap_or_else(|| value_range(pts().map(|p| p.1), 0.05));
    let entries: Vec<Entry> = chart
        .series
        .iter()
        .enumerate()
        .map(|(i, s)| Entry {
            label: &s.label,
            color: color(s.color.unwrap_or(i)),
            line: Some(s.dash),
        })
        .collect();
    let head = header_height(&entries);
    let height = head + 440;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let (top, body) = root.split_vertically(head);
        let legend = top.titled(&chart.title, font(19)).map_err(err)?;
        draw_legend(&legend, &entries)?;
        if chart.log_x {
            draw_lines(&body, chart, (x0..x1).log_scale(), y0..y1)?;
        } else {
            draw_lines(&body, chart, x0..x1, y0..y1)?;
        }
        root.present().map_err(err)?;
    }
    Ok(svg)
}

fn draw_lines<XR>(
    area: &DrawingArea<SVGBackend, Shift>,
    chart: &LineChart,
    x: XR,
    y: std::ops::Range<f64>,
) -> Result<()>
where
    XR: AsRangedCoord<Value = f64>,
    XR::CoordDescType: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let mut c = ChartBuilder::on(area)
        .margin_left(10)
        .margin_right(25)
        .margin_bottom(8)
        .x_label_area_size(48)
        .y_label_area_size(72)
        .build_cartesian_2d(x, y)
        .map_err(err)?;
    let fmt = |v: &f64| tick(*v);
    c.configure_mesh()
        .x_desc(chart.x_label.as_str())
        .y_desc(chart.y_label.as_str())
        .x_label_formatter(&fmt)
        .y_label_formatter(&fmt)
        .label_style(font(13))
        .axis_desc_style(font(15))
        .max_light_lines(2)
        .light_line_style(RGBColor(238, 238, 238))
        .bold_line_style(RGBColor(215, 215, 215))
        .draw()
        .map_err(err)?;
    for (i, s) in chart.series.iter().enumerate() {
        let col = color(s.color.unwrap_or(i));
        let style = col.stroke_width(2);
        match s.dash {
            Dash::Solid => c.draw_series(LineSeries::new(s.points.iter().copied(), style)),
            Dash::Dashed => {
                c.draw_series(DashedLineSeries::new(s.points.iter().copied(), 9, 5, style))
            }
            Dash::Dotted => {
                c.draw_series(DashedLineSeries::new(s.points.iter().copied(), 2, 4, style))
            }
        }
        .map_err(err)?;
        if s.markers {
            c.draw_series(s.points.iter().map(|&p| Circle::new(p, 3, col.filled())))
                .map_err(err)?;
        }
    }
    Ok(())
}

const BAR: u32 = 14;
const BAR_GAP: u32 = 12;

/// The axis range for `values`, with `pad` of the range added above the largest: from 0
/// when the values spread over more than half the largest, else from a little below the
/// smallest, so that differences of a few percent between large values stay visible (the
/// axis' ticks show where it starts).
pub fn value_range(values: impl Iterator<Item = f64>, pad: f64) -> (f64, f64) {
    let (lo, hi) = values
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(v), b.max(v))
        });
    if !lo.is_finite() || hi <= 0.0 {
        return (0.0, 1.0);
    }
    if lo <= 0.0 || lo < 0.5 * hi || hi == lo {
        return (lo.min(0.0), hi * (1.0 + pad));
    }
    let span = hi - lo;
    ((lo - 0.25 * span).max(0.0), hi + pad * span.max(0.1 * hi))
}

/// Draw a [`BarChart`] as an SVG document.
pub fn bar_chart(chart: &BarChart) -> Result<String> {
    register_font();
    let entries: Vec<Entry> = chart
        .series
        .iter()
        .enumerate()
        .map(|(i, s)| Entry {
            label: s,
            color: color(i),
            line: None,
        })
        .collect();
    let head = header_height(&entries);
    let n = chart.categories.len().max(1);
    let per = chart.series.len().max(1) as u32;
    let band = per * BAR + BAR_GAP;
    let panel_h = n as u32 * band + 64;
    let height = head + panel_h * chart.panels.len().max(1) as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let (top, mut rest) = root.split_vertically(head);
        let legend = top.titled(&chart.title, font(19)).map_err(err)?;
        draw_legend(&legend, &entries)?;
        let label_w = chart
            .categories
            .iter()
            .map(|c| root.estimate_text_size(c, &font(13)).map_or(0, |s| s.0))
            .max()
            .unwrap_or(0)
            .clamp(30, 360);
        for panel in &chart.panels {
            let (area, below) = rest.split_vertically(panel_h);
            rest = below;
            draw_bars(&area, chart, panel, label_w + 44, band)?;
        }
        root.present().map_err(err)?;
    }
    Ok(svg)
}

fn draw_bars(
    area: &DrawingArea<SVGBackend, Shift>,
    chart: &BarChart,
    panel: &BarPanel,
    label_area: u32,
    band_px: u32,
) -> Result<()> {
    let n = chart.categories.len();
    let (x_min, x_max) = value_range(panel.values.iter().flatten().flatten().copied(), 0.18);
    // y in pixels of the bands: category k (top first) spans [(n-1-k)·band, (n-k)·band).
    let band = band_px as i32;
    let keys: Vec<i32> = (0..n as i32).map(|i| i * band + band / 2).collect();
    let mut c = ChartBuilder::on(area)
        .margin_left(10)
        .margin_right(25)
        .margin_top(6)
        .margin_bottom(6)
        .x_label_area_size(46)
        .y_label_area_size(label_area)
        .build_cartesian_2d(
            x_min..x_max,
            (0..(n.max(1) as i32) * band).with_key_points(keys),
        )
        .map_err(err)?;
    let category = |y: &i32| -> String {
        let i = n as i32 - 1 - y.div_euclid(band);
        if i >= 0 && (i as usize) < n {
            chart.categories[i as usize].clone()
        } else {
            String::new()
        }
    };
    let fmt = |v: &f64| tick(*v);
    c.configure_mesh()
        .disable_y_mesh()
        .x_desc(panel.value_label.as_str())
        .y_desc(chart.category_label.as_str())
        .x_label_formatter(&fmt)
        .y_label_formatter(&category)
        .label_style(font(13))
        .axis_desc_style(font(15))
        .max_light_lines(2)
        .light_line_style(RGBColor(238, 238, 238))
        .bold_line_style(RGBColor(215, 215, 215))
        .draw()
        .map_err(err)?;
    for (s, values) in panel.values.iter().enumerate() {
        let col = color(s);
        for (k, v) in values.iter().enumerate().take(n) {
            let Some(v) = *v else { continue };
            let top = (n - k) as i32 * band - (BAR_GAP / 2 + s as u32 * BAR) as i32;
            let bottom = top - BAR as i32 + 1;
            c.draw_series(std::iter::once(Rectangle::new(
                [(x_min, bottom), (v, top)],
                col.filled(),
            )))
            .map_err(err)?;
            let pos = Pos::new(HPos::Left, VPos::Center);
            c.draw_series(std::iter::once(Text::new(
                format!(" {}", bar_value(v)),
                (v, (top + bottom) / 2),
                font(11).pos(pos),
            )))
            .map_err(err)?;
        }
    }
    Ok(())
}

/// Points of a step curve "share of runs done within x": for each run's x (`None`: not done)
/// the share rises by 1/runs, from `(x_start, 0)` to `(x_end, share)`; in percent.
pub fn success_curve(xs: &[Option<f64>], x_start: f64, x_end: f64) -> Vec<(f64, f64)> {
    let runs = xs.len().max(1) as f64;
    let mut done: Vec<f64> = xs.iter().flatten().copied().collect();
    done.sort_by(f64::total_cmp);
    let mut pts = vec![(x_start, 0.0)];
    for (k, x) in done.iter().enumerate() {
        pts.push((*x, 100.0 * k as f64 / runs));
        pts.push((*x, 100.0 * (k + 1) as f64 / runs));
    }
    pts.push((x_end, 100.0 * done.len() as f64 / runs));
    pts
}

#[cfg(test)]
mod tests {
    use super::*;

    /// All text of the SVG, after checking that it parses as XML.
    fn texts(svg: &str) -> Vec<String> {
        if let Ok(dir) = std::env::var("PUZZLE_PLOT_DIR") {
            // For looking at the pictures: PUZZLE_PLOT_DIR=/tmp/p cargo test plot.
            let name = format!("{dir}/{:016x}.svg", fxhash(svg));
            std::fs::write(name, svg).unwrap();
        }
        let doc = roxmltree::Document::parse(svg).expect("the SVG parses as XML");
        assert_eq!(doc.root_element().tag_name().name(), "svg");
        doc.descendants()
            .filter(|n| n.has_tag_name("text"))
            .map(|n| n.text().unwrap_or("").trim().to_string())
            .collect()
    }

    fn fxhash(s: &str) -> u64 {
        s.bytes().fold(0xcbf29ce484222325, |h, b| {
            (h ^ b as u64).wrapping_mul(0x100000001b3)
        })
    }

    #[test]
    fn a_line_chart_has_its_title_axis_labels_and_legend() {
        let chart = LineChart {
            title: "Success <against> budget & more".into(),
            x_label: "simulations (log scale)".into(),
            y_label: "puzzles solved (%)".into(),
            series: vec![
                Series::new("random / UCB1 0.2", vec![(10.0, 5.0), (100.0, 40.0)]),
                Series::new(
                    "pseudo / UCB1 0.2 / α-AMAF",
                    vec![(10.0, 15.0), (100.0, 80.0)],
                )
                .styled(0, Dash::Dashed),
                Series::new("MRV", success_curve(&[Some(20.0), None], 1.0, 100.0))
                    .without_markers(),
            ],
            log_x: true,
            y_range: Some((0.0, 100.0)),
            ..LineChart::default()
        };
        let svg = line_chart(&chart).unwrap();
        let t = texts(&svg);
        for want in [
            "Success <against> budget & more",
            "simulations (log scale)",
            "puzzles solved (%)",
            "random / UCB1 0.2",
            "pseudo / UCB1 0.2 / α-AMAF",
            "MRV",
        ] {
            assert!(t.iter().any(|s| s == want), "{want} not in {t:?}");
        }
        assert!(svg.contains("DejaVu Sans"));
        assert!(svg.contains("width=\"1200\""));
    }

    #[test]
    fn a_bar_chart_has_every_panel_category_and_legend_entry() {
        let chart = BarChart {
            title: "Table 3.1 — Move-Agent".into(),
            category_label: "column".into(),
            categories: vec!["push-based".into(), "naive".into()],
            series: vec![
                "ours (0.5 s per run)".into(),
                "thesis (30 s per run)".into(),
            ],
            panels: vec![
                BarPanel {
                    value_label: "iterations per second (1/s)".into(),
                    values: vec![
                        vec![Some(120_000.0), Some(90_000.0)],
                        vec![Some(150_000.0), None],
                    ],
                },
                BarPanel {
                    value_label: "best score (P_b · P_c)".into(),
                    values: vec![vec![Some(0.8), Some(0.7)], vec![Some(0.82), Some(0.81)]],
                },
            ],
        };
        let svg = bar_chart(&chart).unwrap();
        let t = texts(&svg);
        for want in [
            "Table 3.1 — Move-Agent",
            "column",
            "push-based",
            "naive",
            "ours (0.5 s per run)",
            "thesis (30 s per run)",
            "iterations per second (1/s)",
            "best score (P_b · P_c)",
            "120k",
        ] {
            assert!(t.iter().any(|s| s == want), "{want} not in {t:?}");
        }
        // Three bars in the first panel, four in the second, and the legend's two swatches.
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let filled_rects = doc
            .descendants()
            .filter(|n| n.has_tag_name("rect") && n.attribute("fill") != Some("#FFFFFF"))
            .filter(|n| n.attribute("fill").is_some_and(|f| f != "none"))
            .count();
        assert!(filled_rects >= 3 + 4 + 2, "{filled_rects}");
    }

    #[test]
    fn empty_charts_still_draw() {
        let svg = line_chart(&LineChart {
            title: "nothing".into(),
            ..LineChart::default()
        })
        .unwrap();
        assert!(texts(&svg).iter().any(|s| s == "nothing"));
        let svg = bar_chart(&BarChart {
            title: "no bars".into(),
            ..BarChart::default()
        })
        .unwrap();
        assert!(texts(&svg).iter().any(|s| s == "no bars"));
    }

    #[test]
    fn ticks_are_short() {
        assert_eq!(tick(0.0), "0");
        assert_eq!(tick(0.25), "0.25");
        assert_eq!(tick(12.0), "12");
        assert_eq!(tick(150_000.0), "150k");
        assert_eq!(tick(2_500_000.0), "2.5M");
    }

    #[test]
    fn a_success_curve_steps_up_per_run() {
        let c = success_curve(&[Some(30.0), None, Some(10.0), Some(20.0)], 0.0, 100.0);
        assert_eq!(c.first(), Some(&(0.0, 0.0)));
        assert_eq!(c.last(), Some(&(100.0, 75.0)));
        assert!(c.contains(&(10.0, 25.0)) && c.contains(&(30.0, 75.0)));
    }

    #[test]
    fn value_axes_start_near_close_values_and_at_zero_for_spread_ones() {
        // Totals within a few percent of each other: the axis starts below the smallest.
        let (lo, hi) = value_range([64_981.0, 67_409.0, 65_253.0].into_iter(), 0.05);
        assert!(lo > 60_000.0 && lo < 64_981.0, "{lo}");
        assert!(hi > 67_409.0);
        // Values spread over more than half the largest: from zero.
        assert_eq!(value_range([10.0, 80.0].into_iter(), 0.0), (0.0, 80.0));
        assert_eq!(value_range([-2.0, 5.0].into_iter(), 0.0), (-2.0, 5.0));
        assert_eq!(value_range(std::iter::empty(), 0.1), (0.0, 1.0));
        assert_eq!(bar_value(64_981.0), "64,981");
        assert_eq!(bar_value(-1_200.0), "-1,200");
        assert_eq!(bar_value(0.25), "0.25");
    }
}
