//! Pictures: a level as SVG or PNG (tiles drawn here, no textures), and the best score over
//! time as an SVG plot (as the thesis's figures 3.2–3.6).

use puzzle_sokoban::Level;

/// Tile size in pixels.
pub const TILE: usize = 32;

const WALL: [u8; 3] = [0x5a, 0x4a, 0x3c];
const FLOOR: [u8; 3] = [0xe8, 0xe2, 0xd0];
const OUTSIDE: [u8; 3] = [0xff, 0xff, 0xff];
const GOAL: [u8; 3] = [0xd0, 0x30, 0x30];
const BOX: [u8; 3] = [0xc8, 0x8a, 0x32];
const BOX_ON_GOAL: [u8; 3] = [0x3c, 0xa0, 0x46];
const PLAYER: [u8; 3] = [0x2a, 0x5c, 0xc8];

fn hex(c: [u8; 3]) -> String {
    format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2])
}

/// What to draw in one cell.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Tile {
    Outside,
    Wall,
    Floor {
        goal: bool,
        boxed: bool,
        player: bool,
    },
}

fn tiles(level: &Level) -> Vec<Tile> {
    let area = level.area();
    (0..level.width * level.height)
        .map(|i| {
            if level.walls[i] {
                Tile::Wall
            } else if !area[i] && !level.goals[i] && !level.boxes[i] {
                Tile::Outside
            } else {
                Tile::Floor {
                    goal: level.goals[i],
                    boxed: level.boxes[i],
                    player: i == level.player,
                }
            }
        })
        .collect()
}

/// The level as an SVG document.
pub fn level_svg(level: &Level) -> String {
    let (w, h) = (level.width * TILE, level.height * TILE);
    let t = TILE as f64;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\n"
    );
    for (i, tile) in tiles(level).into_iter().enumerate() {
        let (x, y) = ((i % level.width) as f64 * t, (i / level.width) as f64 * t);
        match tile {
            Tile::Outside => {}
            Tile::Wall => s.push_str(&format!(
                "<rect x=\"{x}\" y=\"{y}\" width=\"{t}\" height=\"{t}\" fill=\"{}\" stroke=\"#3a3028\"/>\n",
                hex(WALL)
            )),
            Tile::Floor {
                goal,
                boxed,
                player,
            } => {
                s.push_str(&format!(
                    "<rect x=\"{x}\" y=\"{y}\" width=\"{t}\" height=\"{t}\" fill=\"{}\"/>\n",
                    hex(FLOOR)
                ));
                if goal {
                    s.push_str(&format!(
                        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>\n",
                        x + t * 0.375,
                        y + t * 0.375,
                        t * 0.25,
                        t * 0.25,
                        hex(GOAL)
                    ));
                }
                if boxed {
                    s.push_str(&format!(
                        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"3\" fill=\"{}\" stroke=\"#4a3010\"/>\n",
                        x + t * 0.1,
                        y + t * 0.1,
                        t * 0.8,
                        t * 0.8,
                        hex(if goal { BOX_ON_GOAL } else { BOX })
                    ));
                }
                if player {
                    s.push_str(&format!(
                        "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\"/>\n",
                        x + t / 2.0,
                        y + t / 2.0,
                        t * 0.32,
                        hex(PLAYER)
                    ));
                }
            }
        }
    }
    s.push_str("</svg>\n");
    s
}

/// The level as RGB pixels (`width·TILE × height·TILE`, row-major).
pub fn level_pixels(level: &Level) -> (usize, usize, Vec<u8>) {
    let (pw, ph) = (level.width * TILE, level.height * TILE);
    let mut px = vec![0u8; pw * ph * 3];
    let mut fill = |x0: usize, y0: usize, x1: usize, y1: usize, c: [u8; 3], round: bool| {
        for y in y0..y1 {
            for x in x0..x1 {
                if round {
                    // A disc inscribed in the rectangle.
                    let (cx, cy) = ((x0 + x1) as f64 / 2.0, (y0 + y1) as f64 / 2.0);
                    let r = (x1 - x0) as f64 / 2.0;
                    let (dx, dy) = (x as f64 + 0.5 - cx, y as f64 + 0.5 - cy);
                    if dx * dx + dy * dy > r * r {
                        continue;
                    }
                }
                let i = (y * pw + x) * 3;
                px[i..i + 3].copy_from_slice(&c);
            }
        }
    };
    for (i, tile) in tiles(level).into_iter().enumerate() {
        let (x, y) = ((i % level.width) * TILE, (i / level.width) * TILE);
        let sub = |a: usize, b: usize| (x + a * TILE / 32, y + b * TILE / 32);
        match tile {
            Tile::Outside => fill(x, y, x + TILE, y + TILE, OUTSIDE, false),
            Tile::Wall => {
                fill(x, y, x + TILE, y + TILE, [0x3a, 0x30, 0x28], false);
                fill(x + 1, y + 1, x + TILE - 1, y + TILE - 1, WALL, false);
            }
            Tile::Floor {
                goal,
                boxed,
                player,
            } => {
                fill(x, y, x + TILE, y + TILE, FLOOR, false);
                if goal {
                    let (a, b) = sub(10, 10);
                    let (c, d) = sub(22, 22);
                    fill(a, b, c, d, GOAL, false);
                }
                if boxed {
                    let (a, b) = sub(3, 3);
                    let (c, d) = sub(29, 29);
                    fill(a, b, c, d, [0x4a, 0x30, 0x10], false);
                    fill(
                        a + 1,
                        b + 1,
                        c - 1,
                        d - 1,
                        if goal { BOX_ON_GOAL } else { BOX },
                        false,
                    );
                }
                if player {
                    let (a, b) = sub(6, 6);
                    let (c, d) = sub(26, 26);
                    fill(a, b, c, d, PLAYER, true);
                }
            }
        }
    }
    (pw, ph, px)
}

/// The level as a PNG file's bytes.
pub fn level_png(level: &Level) -> Result<Vec<u8>, png::EncodingError> {
    let (w, h, px) = level_pixels(level);
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, w as u32, h as u32);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let mut writer = enc.write_header()?;
        writer.write_image_data(&px)?;
    }
    Ok(out)
}

/// An SVG step plot of the best score over time from `(seconds, score)` points, 1,200 px wide;
/// the score axis spans the scores reached (not from 0), so late small gains stay visible.
pub fn score_plot_svg(points: &[(f64, f64)], total_s: f64, title: &str) -> String {
    let (w, h) = (1200.0, 450.0);
    let (l, r, t, b) = (70.0, 30.0, 40.0, 50.0);
    let max_t = total_s.max(points.last().map_or(0.0, |p| p.0)).max(1e-3);
    let hi = points.iter().map(|p| p.1).fold(f64::MIN, f64::max);
    let lo = points.iter().map(|p| p.1).fold(f64::MAX, f64::min);
    let (lo, hi) = if points.is_empty() {
        (0.0, 1.0)
    } else {
        let pad = ((hi - lo) * 0.05).max(1e-3);
        (lo - pad, hi + pad)
    };
    let sx = |x: f64| l + x / max_t * (w - l - r);
    let sy = |y: f64| h - b - (y - lo) / (hi - lo) * (h - t - b);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"{w}\" height=\"{h}\" fill=\"white\"/>\n"
    );
    s.push_str(&format!(
        "<text x=\"{}\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">{}</text>\n",
        w / 2.0,
        xml_escape(title)
    ));
    s.push_str(&format!(
        "<line x1=\"{l}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"black\"/>\n<line x1=\"{l}\" y1=\"{t}\" x2=\"{l}\" y2=\"{}\" stroke=\"black\"/>\n",
        h - b,
        w - r,
        h - b,
        h - b
    ));
    for i in 0..=5 {
        let xv = max_t * i as f64 / 5.0;
        let yv = lo + (hi - lo) * i as f64 / 5.0;
        s.push_str(&format!(
            "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{xv:.2}</text>\n<text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{yv:.2}</text>\n",
            sx(xv),
            h - b + 16.0,
            l - 6.0,
            sy(yv) + 4.0
        ));
    }
    s.push_str(&format!(
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">time (s)</text>\n<text x=\"16\" y=\"{}\" text-anchor=\"middle\" transform=\"rotate(-90 16 {})\">best score</text>\n",
        (l + w - r) / 2.0,
        h - 12.0,
        (t + h - b) / 2.0,
        (t + h - b) / 2.0
    ));
    if !points.is_empty() {
        let mut d = format!("M{:.1},{:.1}", sx(points[0].0), sy(points[0].1));
        for win in points.windows(2) {
            d.push_str(&format!(
                " L{:.1},{:.1} L{:.1},{:.1}",
                sx(win[1].0),
                sy(win[0].1),
                sx(win[1].0),
                sy(win[1].1)
            ));
        }
        let last = points[points.len() - 1];
        d.push_str(&format!(" L{:.1},{:.1}", sx(max_t), sy(last.1)));
        s.push_str(&format!(
            "<path d=\"{d}\" fill=\"none\" stroke=\"#2a8c3c\" stroke-width=\"2\"/>\n"
        ));
        for p in points {
            s.push_str(&format!(
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"2.5\" fill=\"#2a8c3c\"/>\n",
                sx(p.0),
                sy(p.1)
            ));
        }
    }
    s.push_str("</svg>\n");
    s
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
