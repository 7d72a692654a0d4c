//! Drawings of a game on an explicit graph, as SVG or PNG: one circle per node coloured by its
//! outcome (P, N or D), the edges as arrows (or plain lines for an undirected graph such as a
//! Hackenbush picture), a legend and a title. Pure: the caller supplies the outcomes and the
//! labels; nothing here solves anything.
//!
//! The nodes are placed in rows by [`crate::graph::layout`]; this module turns rows into
//! pixels.
//!
//! Parallel edges (and the two directions of a 2-cycle) are bowed apart, an edge whose straight
//! line would run through another node is bowed around it (trying a few curves on either
//! side), and a self-loop is a small circle on its node. The image grows with the widest row
//! and the number of rows, up to 4000 × 4000 pixels, beyond which the layout is squeezed.
//! Graphs of more than [`MAX_DRAWN_NODES`] nodes are refused: such a drawing is unreadable,
//! and the values are better read from a table.

use std::collections::HashMap;
use std::error::Error;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::plot::{render_image, Painter};
use super::{ChartFormat, ExportError};
use crate::graph::layout::{layers, Layers};
use crate::graph::Graph;
use crate::value::Outcome;

/// The largest graph drawn; larger ones are refused with [`ExportError::GraphTooLarge`].
pub const MAX_DRAWN_NODES: usize = 2000;

/// Fill of P-positions (Okabe–Ito vermillion): the player to move loses.
const P_FILL: RGBColor = RGBColor(213, 94, 0);
/// Fill of N-positions (Okabe–Ito sky blue): the player to move wins.
const N_FILL: RGBColor = RGBColor(86, 180, 233);
/// Fill of draws (Okabe–Ito yellow). With the two above, the three differ in hue and in
/// lightness, so they stay apart under every common colour-vision deficiency.
const D_FILL: RGBColor = RGBColor(240, 228, 66);
/// Fill of a node whose outcome was not given.
const UNKNOWN_FILL: RGBColor = RGBColor(200, 200, 200);
/// Node outlines and names.
const INK: RGBColor = RGBColor(40, 40, 40);
/// Edges (a little lighter than the nodes, which are drawn over them).
const EDGE_COLOUR: RGBColor = RGBColor(90, 90, 90);
/// The ground band of an undirected drawing.
const GROUND_COLOUR: RGBColor = RGBColor(120, 96, 72);

/// Font sizes, in pixels.
const TITLE_FONT: u32 = 26;
const NAME_FONT: u32 = 17;
const LABEL_FONT: u32 = 15;
const LEGEND_FONT: u32 = 17;
/// Space above the rows (title and legend), below them, and on either side.
const TOP: f64 = 92.0;
const BOTTOM: f64 = 36.0;
const SIDE: f64 = 60.0;
/// Bounds on the image size: the lower ones leave room for the legend, the upper ones keep
/// a PNG's buffer under 50 MB.
const MIN_WIDTH: f64 = 760.0;
const MIN_HEIGHT: f64 = 360.0;
const MAX_SIDE: f64 = 4000.0;
/// The node radius, unless the graph must be squeezed to fit.
const MIN_RADIUS: f64 = 14.0;
/// Perpendicular distance between parallel edges, in pixels.
const PARALLEL_GAP: f64 = 14.0;
/// The most node-against-edge tests made to route edges around nodes; past it, the remaining
/// edges are drawn straight (only dense graphs near [`MAX_DRAWN_NODES`] get there).
const DETOUR_BUDGET: usize = 4_000_000;

/// A graph to draw, with what to write on and how to colour each node. The slices are indexed
/// by node; a missing entry is tolerated (the name falls back to the node's number, the label
/// to nothing and the colour to grey).
#[derive(Clone, Copy, Debug)]
pub struct GraphDrawing<'a> {
    /// The title, at the top.
    pub title: &'a str,
    /// The graph: a move goes from a node to one of its successors.
    pub graph: &'a Graph,
    /// Each node's name, written in its circle.
    pub names: &'a [String],
    /// Each node's outcome, which colours it.
    pub outcome: &'a [Outcome],
    /// A second line under each node (e.g. its value `inf{0,2}` or its remoteness); empty
    /// strings draw nothing.
    pub labels: &'a [String],
    /// Draws the edges as plain lines and lays the graph out from the ground (Hackenbush):
    /// each stored edge is one line, whichever way it is stored.
    pub undirected: bool,
    /// A node drawn at the bottom as a square on a ground band (Hackenbush's ground).
    pub ground: Option<u32>,
}

/// The SVG document of `drawing`.
pub fn render_graph_svg(drawing: &GraphDrawing) -> Result<String, ExportError> {
    let bytes = render_graph(drawing, ChartFormat::Svg)?;
    String::from_utf8(bytes).map_err(|e| ExportError::Chart {
        message: e.to_string(),
    })
}

/// The encoded image of `drawing` in `format`; refuses graphs of more than
/// [`MAX_DRAWN_NODES`] nodes.
pub fn render_graph(drawing: &GraphDrawing, format: ChartFormat) -> Result<Vec<u8>, ExportError> {
    let nodes = drawing.graph.node_count();
    if nodes > MAX_DRAWN_NODES {
        return Err(ExportError::GraphTooLarge {
            nodes,
            limit: MAX_DRAWN_NODES,
        });
    }
    let scene = Scene::new(drawing);
    render_image(format, scene.size, &scene)
}

/// Where every node goes, and the sizes the drawing uses.
struct Scene<'a> {
    drawing: &'a GraphDrawing<'a>,
    /// Each node's row, 0 at the bottom.
    row: Vec<usize>,
    /// Each node's place in its row, from the left.
    column: Vec<usize>,
    /// The nodes of each row, left to right.
    rows: Vec<Vec<u32>>,
    /// Each node's centre in pixels.
    centre: Vec<(f64, f64)>,
    /// The node radius.
    radius: f64,
    /// The distance between rows.
    row_gap: f64,
    /// The image size.
    size: (u32, u32),
}

impl<'a> Scene<'a> {
    fn new(drawing: &'a GraphDrawing<'a>) -> Self {
        let n = drawing.graph.node_count();
        let Layers { row, rows } = layers(drawing.graph, drawing.undirected, drawing.ground);

        // Sizes from the text they must hold (DejaVu Sans averages about 0.6 em per glyph).
        let widest = |texts: &mut dyn Iterator<Item = usize>, font: u32| {
            texts.max().unwrap_or(0) as f64 * font as f64 * 0.6
        };
        let name_width = widest(
            &mut (0..n).map(|v| name(drawing, v).chars().count()),
            NAME_FONT,
        );
        let label_width = widest(
            &mut (0..n).map(|v| label(drawing, v).chars().count()),
            LABEL_FONT,
        );
        let mut radius = (name_width / 2.0 + 6.0).clamp(MIN_RADIUS, 30.0);
        let mut column_gap = (2.0 * radius + 18.0)
            .max(label_width + 12.0)
            .max(name_width + 12.0)
            .min(220.0);
        let mut row_gap = 2.0 * radius + LABEL_FONT as f64 + 48.0;
        let widest_row = rows.iter().map(Vec::len).max().unwrap_or(0).max(1);
        let height_rows = rows.len().max(1);
        // A graph too big for the largest image is squeezed, its nodes shrunk to fit.
        let max_inner_width = MAX_SIDE - 2.0 * SIDE;
        let max_inner_height = MAX_SIDE - TOP - BOTTOM;
        column_gap = column_gap.min(max_inner_width / widest_row as f64);
        row_gap = row_gap.min(max_inner_height / height_rows as f64);
        radius = radius.min(column_gap * 0.4).min(row_gap * 0.3).max(2.0);
        let width = (widest_row as f64 * column_gap + 2.0 * SIDE).clamp(MIN_WIDTH, MAX_SIDE);
        let height = (height_rows as f64 * row_gap + TOP + BOTTOM).clamp(MIN_HEIGHT, MAX_SIDE);
        // Whole pixels, so that the centres agree with the image size.
        let (width, height) = (width.round(), height.round());

        let mut centre = vec![(0.0, 0.0); n];
        let mut column = vec![0; n];
        for (r, nodes) in rows.iter().enumerate() {
            let y = height - BOTTOM - (r as f64 + 0.5) * row_gap;
            let middle = (nodes.len() as f64 - 1.0) / 2.0;
            for (i, &v) in nodes.iter().enumerate() {
                centre[v as usize] = (width / 2.0 + (i as f64 - middle) * column_gap, y);
                column[v as usize] = i;
            }
        }
        Scene {
            drawing,
            row,
            column,
            rows,
            centre,
            radius,
            row_gap,
            size: (width as u32, height as u32),
        }
    }
}

impl Scene<'_> {
    /// How far (and which way) the middle of the edge `v`–`w` must be moved so that it does
    /// not run through another node: nothing when the straight line is clear, else the first
    /// clear bow among a few, shallow before deep, on either side (right of a falling edge or
    /// above a level one first when it spans an even number of rows or columns); the deepest
    /// on the preferred side when none is clear. Every node-against-segment
    /// test spends one unit of `budget`; with none left, edges go straight.
    fn detour(&self, v: u32, w: u32, budget: &mut usize) -> (f64, f64) {
        let (a, b) = (self.centre[v as usize], self.centre[w as usize]);
        // Oriented downwards (or rightwards when level), so that the side does not depend on
        // the edge's direction.
        let (p, q) = if (a.1, a.0) <= (b.1, b.0) {
            (a, b)
        } else {
            (b, a)
        };
        let (dx, dy) = (q.0 - p.0, q.1 - p.1);
        let length = dx.hypot(dy);
        if length < 1e-9 || self.clear(v, w, &[p, q], budget) {
            return (0.0, 0.0);
        }
        let right = (dy / length, -dx / length);
        let span = self.row[v as usize]
            .abs_diff(self.row[w as usize])
            .max(self.column[v as usize].abs_diff(self.column[w as usize]));
        // Deeper the more rows or columns it spans, so that nested detours stay apart.
        let base = (self.radius + 14.0) * (1.0 + 0.6 * span.saturating_sub(2) as f64);
        // Spans of different parities start on different sides: in a subtraction game's
        // column, the moves of 2 bow right and those of 3 left.
        let first = if span.is_multiple_of(2) { 1.0 } else { -1.0 };
        let mut deepest = (0.0, 0.0);
        for depth in [1.0, 1.6, 2.4] {
            let depth = (base * depth).min(3.0 * self.row_gap);
            for side in [first, -first] {
                let shift = (right.0 * depth * side, right.1 * depth * side);
                let control = (
                    (p.0 + q.0) / 2.0 + 2.0 * shift.0,
                    (p.1 + q.1) / 2.0 + 2.0 * shift.1,
                );
                if self.clear(v, w, &bezier(p, control, q, 12), budget) {
                    return shift;
                }
                if side == first {
                    deepest = shift;
                }
            }
        }
        deepest
    }

    /// True when the polyline `path` keeps clear of every node but `v` and `w` (or when the
    /// budget is spent, which ends the search).
    fn clear(&self, v: u32, w: u32, path: &[(f64, f64)], budget: &mut usize) -> bool {
        let clearance = self.radius + 3.0;
        let (mut low_x, mut high_x) = (f64::INFINITY, f64::NEG_INFINITY);
        let (mut low_y, mut high_y) = (f64::INFINITY, f64::NEG_INFINITY);
        for &(x, y) in path {
            (low_x, high_x) = (low_x.min(x - clearance), high_x.max(x + clearance));
            (low_y, high_y) = (low_y.min(y - clearance), high_y.max(y + clearance));
        }
        // Rows are evenly spaced and each is sorted by x, so only the box is searched.
        let Some(bottom) = self.rows.len().checked_sub(1) else {
            return true;
        };
        let row_of = |y: f64| {
            let r = (self.centre_y(0) - y) / self.row_gap;
            r.clamp(0.0, bottom as f64)
        };
        let (first_row, last_row) = (
            row_of(high_y).floor() as usize,
            row_of(low_y).ceil() as usize,
        );
        for row in first_row..=last_row {
            let nodes = &self.rows[row];
            let first = nodes.partition_point(|&u| self.centre[u as usize].0 < low_x);
            for &u in &nodes[first..] {
                let c = self.centre[u as usize];
                if c.0 > high_x {
                    break;
                }
                if u == v || u == w {
                    continue;
                }
                for segment in path.windows(2) {
                    if *budget == 0 {
                        return true;
                    }
                    *budget -= 1;
                    if distance_to_segment(c, segment[0], segment[1]) < clearance {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// The pixel height of the centres of row `row`.
    fn centre_y(&self, row: usize) -> f64 {
        self.size.1 as f64 - BOTTOM - (row as f64 + 0.5) * self.row_gap
    }
}

/// The distance from `c` to the segment from `p` to `q`.
fn distance_to_segment(c: (f64, f64), p: (f64, f64), q: (f64, f64)) -> f64 {
    let (dx, dy) = (q.0 - p.0, q.1 - p.1);
    let squared = dx * dx + dy * dy;
    let t = if squared < 1e-12 {
        0.0
    } else {
        (((c.0 - p.0) * dx + (c.1 - p.1) * dy) / squared).clamp(0.0, 1.0)
    };
    (c.0 - p.0 - t * dx).hypot(c.1 - p.1 - t * dy)
}

impl Painter for Scene<'_> {
    fn paint<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), Box<dyn Error>>
    where
        DB::ErrorType: 'static,
    {
        draw(root, self)
    }
}

/// Node `v`'s name, its number when none was given.
fn name(drawing: &GraphDrawing, v: usize) -> String {
    drawing
        .names
        .get(v)
        .cloned()
        .unwrap_or_else(|| v.to_string())
}

/// Node `v`'s second line, empty when none was given.
fn label<'a>(drawing: &GraphDrawing<'a>, v: usize) -> &'a str {
    drawing.labels.get(v).map_or("", String::as_str)
}

/// The fill of an outcome, grey for none.
fn fill(outcome: Option<Outcome>) -> RGBColor {
    match outcome {
        Some(Outcome::P) => P_FILL,
        Some(Outcome::N) => N_FILL,
        Some(Outcome::D) => D_FILL,
        None => UNKNOWN_FILL,
    }
}

/// The points of a quadratic Bézier curve from `a` through the control point `c` to `b`.
fn bezier(a: (f64, f64), c: (f64, f64), b: (f64, f64), steps: usize) -> Vec<(f64, f64)> {
    (0..=steps)
        .map(|i| {
            let t = i as f64 / steps as f64;
            let (u, v, w) = ((1.0 - t) * (1.0 - t), 2.0 * (1.0 - t) * t, t * t);
            (u * a.0 + v * c.0 + w * b.0, u * a.1 + v * c.1 + w * b.1)
        })
        .collect()
}

/// The point at distance `r` from `centre` towards `towards` (`centre` itself when they meet).
fn towards(centre: (f64, f64), towards: (f64, f64), r: f64) -> (f64, f64) {
    let (dx, dy) = (towards.0 - centre.0, towards.1 - centre.1);
    let length = dx.hypot(dy);
    if length < 1e-9 {
        centre
    } else {
        (centre.0 + dx / length * r, centre.1 + dy / length * r)
    }
}

fn pixel((x, y): (f64, f64)) -> (i32, i32) {
    (x.round() as i32, y.round() as i32)
}

/// The path of the edge from `a` to `b` (centres of nodes of radius `r`), a curve pulled
/// towards `control`, cut to the nodes' rims; and the point it arrives from, which gives an
/// arrowhead its direction.
fn edge_path(
    a: (f64, f64),
    b: (f64, f64),
    control: (f64, f64),
    r: f64,
) -> (Vec<(f64, f64)>, (f64, f64)) {
    let (mx, my) = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
    let apart = (b.0 - a.0).hypot(b.1 - a.1) > 2.0 * r;
    // A straight edge is two points: sampled, its pixel rounding would show as a wobble.
    if (control.0 - mx).hypot(control.1 - my) < 0.5 && apart {
        return (vec![towards(a, b, r), towards(b, a, r)], a);
    }
    let points = bezier(a, control, b, 16);
    // Keep the points outside both circles, then end exactly on the rims.
    let outside =
        |p: &(f64, f64)| (p.0 - a.0).hypot(p.1 - a.1) > r && (p.0 - b.0).hypot(p.1 - b.1) > r;
    let inner: Vec<(f64, f64)> = points.into_iter().filter(outside).collect();
    match (inner.first(), inner.last()) {
        (Some(&first), Some(&last)) => {
            let mut path = vec![towards(a, first, r)];
            path.extend(&inner);
            let end = towards(b, last, r);
            path.push(end);
            (path, last)
        }
        // The nodes overlap: a straight stroke between the centres.
        _ => (vec![a, b], a),
    }
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    scene: &Scene,
) -> Result<(), Box<dyn Error>>
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    draw_title_and_legend(root, scene)?;
    // The ground band under everything else, then the edges, so that the nodes cover their
    // ends, and the second lines last, over everything.
    let ground = scene
        .drawing
        .ground
        .filter(|&g| (g as usize) < scene.drawing.graph.node_count());
    if let Some(g) = ground {
        draw_ground(root, scene, g)?;
    }
    draw_edges(root, scene)?;
    draw_nodes(root, scene, ground)?;
    draw_labels(root, scene)
}

/// Text anchored at its centre.
fn centred() -> Pos {
    Pos::new(HPos::Center, VPos::Center)
}

/// The title, and the legend of the fills under it.
fn draw_title_and_legend<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    scene: &Scene,
) -> Result<(), Box<dyn Error>>
where
    DB::ErrorType: 'static,
{
    let (width, _) = scene.size;
    root.draw(&Text::new(
        scene.drawing.title.to_string(),
        (width as i32 / 2, 22),
        ("sans-serif", TITLE_FONT)
            .into_font()
            .color(&BLACK)
            .pos(centred()),
    ))?;
    let mut legend: Vec<(RGBColor, &str, bool)> = vec![
        (P_FILL, "P: the player to move loses", false),
        (N_FILL, "N: the player to move wins", false),
        (D_FILL, "D: draw", false),
    ];
    if scene.drawing.ground.is_some() {
        legend.push((GROUND_COLOUR, "ground", true));
    }
    let legend_font = ("sans-serif", LEGEND_FONT).into_font();
    let gap = 28.0;
    let entry_widths: Vec<f64> = legend
        .iter()
        .map(|&(_, text, _)| {
            let (w, _) = root
                .estimate_text_size(text, &legend_font.clone().into())
                .unwrap_or((text.len() as u32 * 8, 0));
            w as f64 + 22.0
        })
        .collect();
    let total = entry_widths.iter().sum::<f64>() + gap * (legend.len() as f64 - 1.0);
    let mut x = (width as f64 - total) / 2.0;
    let y = 58;
    for (&(colour, text, square), entry_width) in legend.iter().zip(&entry_widths) {
        let at = (x.round() as i32 + 7, y);
        if square {
            root.draw(&Rectangle::new(
                [(at.0 - 7, at.1 - 7), (at.0 + 7, at.1 + 7)],
                colour.filled(),
            ))?;
        } else {
            root.draw(&Circle::new(at, 7, colour.filled()))?;
            root.draw(&Circle::new(at, 7, INK.stroke_width(1)))?;
        }
        root.draw(&Text::new(
            text.to_string(),
            (at.0 + 15, y),
            legend_font
                .clone()
                .color(&BLACK)
                .pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
        x += entry_width + gap;
    }
    Ok(())
}

/// The ground band, through the centre of the ground `g`.
fn draw_ground<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    scene: &Scene,
    g: u32,
) -> Result<(), Box<dyn Error>>
where
    DB::ErrorType: 'static,
{
    let (width, _) = scene.size;
    let (_, gy) = scene.centre[g as usize];
    root.draw(&Rectangle::new(
        [
            (SIDE as i32 / 2, gy as i32),
            (
                width as i32 - SIDE as i32 / 2,
                gy as i32 + (scene.radius * 0.5).max(4.0) as i32,
            ),
        ],
        GROUND_COLOUR.mix(0.55).filled(),
    ))?;
    Ok(())
}

/// The edges, one polyline each: parallel edges bowed apart, detours around nodes in the
/// way, self-loops as small circles, and arrowheads unless the graph is undirected.
fn draw_edges<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    scene: &Scene,
) -> Result<(), Box<dyn Error>>
where
    DB::ErrorType: 'static,
{
    let graph = scene.drawing.graph;
    let r = scene.radius;
    let edge_style = EDGE_COLOUR.stroke_width(if r >= 8.0 { 2 } else { 1 });
    let mut parallel: HashMap<(u32, u32), usize> = HashMap::new();
    for (v, w) in graph.edges() {
        *parallel.entry((v.min(w), v.max(w))).or_insert(0) += 1;
    }
    let mut drawn: HashMap<(u32, u32), usize> = HashMap::new();
    let mut budget = DETOUR_BUDGET;
    for (v, w) in graph.edges() {
        let key = (v.min(w), v.max(w));
        let count = parallel[&key];
        let index = {
            let seen = drawn.entry(key).or_insert(0);
            *seen += 1;
            *seen - 1
        };
        let a = scene.centre[v as usize];
        if v == w {
            root.draw(&PathElement::new(self_loop(a, r, index), edge_style))?;
            continue;
        }
        let b = scene.centre[w as usize];
        // Bowed in the frame of the lower-numbered end, so that the two directions of a
        // 2-cycle land on opposite sides.
        let (from, to) = (scene.centre[key.0 as usize], scene.centre[key.1 as usize]);
        let (dx, dy) = (to.0 - from.0, to.1 - from.1);
        let length = dx.hypot(dy).max(1e-9);
        let normal = (-dy / length, dx / length);
        let offset = (index as f64 - (count as f64 - 1.0) / 2.0) * PARALLEL_GAP.min(r);
        let detour = scene.detour(v, w, &mut budget);
        // The control point of a quadratic curve is twice as far out as the curve's middle.
        let control = (
            (a.0 + b.0) / 2.0 + 2.0 * (normal.0 * offset + detour.0),
            (a.1 + b.1) / 2.0 + 2.0 * (normal.1 * offset + detour.1),
        );
        let (path, from_direction) = edge_path(a, b, control, r);
        let end = *path.last().unwrap_or(&b);
        root.draw(&PathElement::new(
            path.into_iter().map(pixel).collect::<Vec<_>>(),
            edge_style,
        ))?;
        if !scene.drawing.undirected {
            root.draw(&Polygon::new(
                arrowhead(end, from_direction, r),
                EDGE_COLOUR.filled(),
            ))?;
        }
    }
    Ok(())
}

/// The `index`-th self-loop of the node at `a` (radius `r`): a small circle on its rim, each
/// loop further round.
fn self_loop(a: (f64, f64), r: f64, index: usize) -> Vec<(i32, i32)> {
    let loop_r = (r * 0.6).max(3.0);
    let angle = -std::f64::consts::FRAC_PI_4 - index as f64 * 0.7;
    let distance = r + loop_r * 0.4;
    let c = (a.0 + distance * angle.cos(), a.1 + distance * angle.sin());
    (0..=32)
        .map(|i| {
            let t = i as f64 / 32.0 * std::f64::consts::TAU;
            pixel((c.0 + loop_r * t.cos(), c.1 + loop_r * t.sin()))
        })
        .collect()
}

/// The arrowhead of an edge ending at `end`, arriving from `from` (nodes of radius `r`).
fn arrowhead(end: (f64, f64), from: (f64, f64), r: f64) -> Vec<(i32, i32)> {
    let (ux, uy) = {
        let (dx, dy) = (end.0 - from.0, end.1 - from.1);
        let l = dx.hypot(dy).max(1e-9);
        (dx / l, dy / l)
    };
    let size = (r * 0.6).clamp(3.0, 10.0);
    let base = (end.0 - ux * size, end.1 - uy * size);
    vec![
        pixel(end),
        pixel((base.0 - uy * size * 0.5, base.1 + ux * size * 0.5)),
        pixel((base.0 + uy * size * 0.5, base.1 - ux * size * 0.5)),
    ]
}

/// The font of `size` pixels, shrunk only with nodes squeezed below their smallest natural
/// size.
fn scaled_font(scene: &Scene, size: u32) -> FontDesc<'static> {
    let scale = (scene.radius / MIN_RADIUS).min(1.0);
    ("sans-serif", ((size as f64 * scale) as u32).max(6)).into_font()
}

/// Nodes: a circle (the ground a square) in the outcome's colour, the name inside.
fn draw_nodes<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    scene: &Scene,
    ground: Option<u32>,
) -> Result<(), Box<dyn Error>>
where
    DB::ErrorType: 'static,
{
    let drawing = scene.drawing;
    let radius = scene.radius.round() as i32;
    let name_font = scaled_font(scene, NAME_FONT);
    for v in 0..drawing.graph.node_count() {
        let at = pixel(scene.centre[v]);
        let colour = fill(drawing.outcome.get(v).copied());
        if ground == Some(v as u32) {
            let corners = [
                (at.0 - radius, at.1 - radius),
                (at.0 + radius, at.1 + radius),
            ];
            root.draw(&Rectangle::new(corners, colour.filled()))?;
            root.draw(&Rectangle::new(corners, INK.stroke_width(3)))?;
        } else {
            root.draw(&Circle::new(at, radius, colour.filled()))?;
            root.draw(&Circle::new(at, radius, INK.stroke_width(1)))?;
        }
        root.draw(&Text::new(
            name(drawing, v),
            at,
            name_font.clone().color(&BLACK).pos(centred()),
        ))?;
    }
    Ok(())
}

/// The second lines under the nodes, on a pale backing so that the edges under them do not
/// hide them.
fn draw_labels<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    scene: &Scene,
) -> Result<(), Box<dyn Error>>
where
    DB::ErrorType: 'static,
{
    let radius = scene.radius.round() as i32;
    let label_font = scaled_font(scene, LABEL_FONT);
    for v in 0..scene.drawing.graph.node_count() {
        let text = label(scene.drawing, v);
        if text.is_empty() {
            continue;
        }
        let at = pixel(scene.centre[v]);
        let y = at.1 + radius + label_font.get_size() as i32 / 2 + 4;
        let (w, h) = root
            .estimate_text_size(text, &label_font.clone().into())
            .unwrap_or((text.len() as u32 * 7, LABEL_FONT));
        let (hw, hh) = (w as i32 / 2 + 2, h as i32 / 2 + 1);
        root.draw(&Rectangle::new(
            [(at.0 - hw, y - hh), (at.0 + hw, y + hh)],
            WHITE.mix(0.8).filled(),
        ))?;
        root.draw(&Text::new(
            text.to_string(),
            (at.0, y),
            label_font.clone().color(&INK).pos(centred()),
        ))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    /// The pieces of a drawing, owned.
    struct Fixture {
        graph: Graph,
        names: Vec<String>,
        outcome: Vec<Outcome>,
        labels: Vec<String>,
    }

    impl Fixture {
        fn new(edges: &[(u32, u32)], names: &[&str], outcome: &[Outcome], labels: &[&str]) -> Self {
            Fixture {
                graph: Graph::from_edges(names.len(), edges),
                names: strings(names),
                outcome: outcome.to_vec(),
                labels: strings(labels),
            }
        }

        fn drawing(&self) -> GraphDrawing<'_> {
            GraphDrawing {
                title: "test graph",
                graph: &self.graph,
                names: &self.names,
                outcome: &self.outcome,
                labels: &self.labels,
                undirected: false,
                ground: None,
            }
        }
    }

    /// The texts of an SVG document, trimmed (plotters writes each on a line of its own).
    fn texts(svg: &str) -> Vec<String> {
        svg.split("<text")
            .skip(1)
            .map(|text| {
                let body = &text[text.find('>').unwrap() + 1..text.find("</text>").unwrap()];
                body.trim().to_string()
            })
            .collect()
    }

    fn colour(c: RGBColor) -> String {
        format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
    }

    /// a → b → c (terminal), and the 2-cycle d ⇄ e with d → a: c is P, b N, a P, d and e D.
    fn cyclic() -> Fixture {
        use Outcome::*;
        Fixture::new(
            &[(0, 1), (1, 2), (3, 4), (4, 3), (3, 0)],
            &["alpha", "beta", "gamma", "delta", "eps"],
            &[P, N, P, D, D],
            &["0", "1", "0", "inf{0}", "inf{0}"],
        )
    }

    #[test]
    fn svg_holds_every_node_one_polyline_per_edge_and_the_outcome_colours() {
        let fixture = cyclic();
        let svg = render_graph_svg(&fixture.drawing()).unwrap();
        assert!(svg.starts_with("<svg"));
        let texts = texts(&svg);
        for text in fixture.names.iter().chain(&fixture.labels) {
            assert!(texts.contains(text), "no `{text}` in {texts:?}");
        }
        for text in [
            "test graph",
            "P: the player to move loses",
            "N: the player to move wins",
            "D: draw",
        ] {
            assert!(svg.contains(text), "no `{text}`");
        }
        assert_eq!(svg.matches("<polyline").count(), fixture.graph.edge_count());
        // One arrowhead per edge of a directed graph.
        assert_eq!(svg.matches("<polygon").count(), fixture.graph.edge_count());
        for fill in [P_FILL, N_FILL, D_FILL] {
            assert!(svg.contains(&colour(fill)), "no {}", colour(fill));
        }
        assert!(!svg.contains(&colour(UNKNOWN_FILL)));
    }

    #[test]
    fn directed_rows_put_terminal_nodes_at_the_bottom_and_options_below() {
        let fixture = cyclic();
        let rows = layers(&fixture.graph, false, None).row;
        assert_eq!(rows[2], 0, "the terminal node");
        assert_eq!((rows[1], rows[0]), (1, 2));
        // d's option a is below it; the edge e → d closes the cycle.
        assert!(rows[3] > rows[0]);
        assert!(rows[4] >= 1);
        let drawing = fixture.drawing();
        let scene = Scene::new(&drawing);
        let y = |v: usize| scene.centre[v].1;
        assert!(y(2) > y(1) && y(1) > y(0), "pixel y grows downwards");
        // Every row is on the picture.
        let (w, h) = scene.size;
        assert!(scene
            .centre
            .iter()
            .all(|&(x, y)| x > 0.0 && y > TOP && x < w as f64 && y < h as f64));
    }

    #[test]
    fn self_loops_multi_edges_isolated_nodes_and_tiny_graphs_render() {
        use Outcome::*;
        let fixtures = [
            // A self-loop (a draw), a double edge, a 2-cycle and an isolated node.
            Fixture::new(
                &[(0, 0), (1, 2), (1, 2), (2, 1), (0, 1)],
                &["x", "y", "z", "lonely"],
                &[D, N, P, P],
                &["", "", "", ""],
            ),
            Fixture::new(&[], &["only"], &[P], &["0"]),
            Fixture::new(&[(0, 0), (0, 0)], &["loop"], &[D], &["inf"]),
            Fixture::new(&[], &[], &[], &[]),
            // Slices shorter than the graph: names fall back to numbers, colours to grey.
            Fixture {
                names: Vec::new(),
                outcome: Vec::new(),
                labels: Vec::new(),
                ..Fixture::new(&[(0, 1), (1, 0)], &["a", "b"], &[], &[])
            },
        ];
        for fixture in &fixtures {
            let svg = render_graph_svg(&fixture.drawing()).unwrap();
            assert_eq!(svg.matches("<polyline").count(), fixture.graph.edge_count());
            let texts = texts(&svg);
            assert!(fixture.names.iter().all(|name| texts.contains(name)));
            for format in [ChartFormat::Png, ChartFormat::Svg] {
                assert!(!render_graph(&fixture.drawing(), format).unwrap().is_empty());
            }
        }
        let fallback = render_graph_svg(&fixtures[4].drawing()).unwrap();
        let fallback_texts = texts(&fallback);
        assert!(["0", "1"]
            .iter()
            .all(|n| fallback_texts.contains(&n.to_string())));
        assert!(fallback.contains(&colour(UNKNOWN_FILL)));
        // Parallel edges are bowed apart: the two y → z lines differ.
        let svg = render_graph_svg(&fixtures[0].drawing()).unwrap();
        let lines: Vec<&str> = svg
            .split("<polyline")
            .skip(1)
            .map(|line| line.split("points=\"").nth(1).unwrap())
            .collect();
        let distinct: std::collections::HashSet<_> = lines.iter().collect();
        assert_eq!(distinct.len(), lines.len(), "{lines:?}");
    }

    #[test]
    fn undirected_drawings_stand_on_the_ground_without_arrowheads() {
        use Outcome::*;
        // A triangle on the ground 0 with a stalk 2 – 3 – 4, and a fallen edge 5 – 6.
        let fixture = Fixture::new(
            &[(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (5, 6)],
            &["g", "a", "b", "c", "d", "e", "f"],
            &[N, N, N, N, N, P, P],
            &["", "", "", "", "", "", ""],
        );
        let drawing = GraphDrawing {
            undirected: true,
            ground: Some(0),
            ..fixture.drawing()
        };
        let svg = render_graph_svg(&drawing).unwrap();
        assert_eq!(svg.matches("<polygon").count(), 0);
        assert_eq!(svg.matches("<polyline").count(), 6);
        assert!(texts(&svg).contains(&"ground".to_string()));
        let rows = layers(&fixture.graph, true, Some(0)).row;
        assert_eq!(rows, [0, 1, 1, 2, 3, 1, 2]);
        let scene = Scene::new(&drawing);
        let y = |v: usize| scene.centre[v].1;
        assert!((1..7).all(|v| y(v) < y(0)), "the ground is lowest");
        assert!(y(4) < y(3) && y(3) < y(2));
    }

    #[test]
    fn layout_is_deterministic_and_untangles_a_tree() {
        use Outcome::*;
        // Two subtrees whose leaves are numbered crosswise: 0 → {1, 2}, 1 → {4, 6}, 2 → {3, 5}.
        let fixture = Fixture::new(
            &[(0, 1), (0, 2), (1, 4), (1, 6), (2, 3), (2, 5)],
            &["r", "a", "b", "a1", "b1", "a2", "b2"],
            &[P, N, N, P, P, P, P],
            &[],
        );
        let drawing = fixture.drawing();
        let scene = Scene::new(&drawing);
        let x = |v: usize| scene.centre[v].0;
        let left = x(1) < x(2);
        // Each parent's children sit together, on its side.
        let (near, far) = if left {
            ([4, 6], [3, 5])
        } else {
            ([3, 5], [4, 6])
        };
        assert!(near.iter().all(|&u| far.iter().all(|&w| x(u) < x(w))));
        assert_eq!(
            render_graph_svg(&drawing).unwrap(),
            render_graph_svg(&drawing).unwrap()
        );
    }

    #[test]
    fn png_images_are_drawn_and_large_graphs_refused() {
        let fixture = cyclic();
        let bytes = render_graph(&fixture.drawing(), ChartFormat::Png).unwrap();
        assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
        let image = image::load_from_memory(&bytes).unwrap().to_rgb8();
        for fill in [P_FILL, N_FILL, D_FILL] {
            assert!(image.pixels().any(|p| p.0 == [fill.0, fill.1, fill.2]));
        }

        let n = MAX_DRAWN_NODES + 1;
        let chain: Vec<(u32, u32)> = (1..n as u32).map(|v| (v - 1, v)).collect();
        let big = Fixture {
            graph: Graph::from_edges(n, &chain),
            ..cyclic()
        };
        let error = render_graph(&big.drawing(), ChartFormat::Png).unwrap_err();
        assert!(matches!(
            error,
            ExportError::GraphTooLarge { nodes, limit: MAX_DRAWN_NODES } if nodes == n
        ));
        let message = error.to_string();
        assert!(
            message.contains("2001") && error.hint() == Some(crate::engine::Hint::ValuesAsTable),
            "{message}"
        );
    }

    #[test]
    fn the_largest_drawn_graph_fits_the_size_bounds() {
        // A star of MAX_DRAWN_NODES nodes: one very wide row, squeezed into the widest image.
        let n = MAX_DRAWN_NODES;
        let star: Vec<(u32, u32)> = (1..n as u32).map(|v| (0, v)).collect();
        let big = Fixture {
            graph: Graph::from_edges(n, &star),
            ..cyclic()
        };
        let drawing = big.drawing();
        let scene = Scene::new(&drawing);
        let (w, h) = scene.size;
        assert!(w as f64 <= MAX_SIDE && h as f64 <= MAX_SIDE && w as f64 >= MIN_WIDTH);
        assert!(scene.centre.iter().all(|&(x, _)| x >= 0.0 && x <= w as f64));
        assert_eq!(
            render_graph_svg(&drawing)
                .unwrap()
                .matches("<polyline")
                .count(),
            n - 1
        );
        // A path of MAX_DRAWN_NODES nodes: as many rows, squeezed into the tallest image.
        let chain: Vec<(u32, u32)> = (1..n as u32).map(|v| (v - 1, v)).collect();
        let tall = Fixture {
            graph: Graph::from_edges(n, &chain),
            ..cyclic()
        };
        let drawing = tall.drawing();
        let scene = Scene::new(&drawing);
        assert!(scene.size.1 as f64 <= MAX_SIDE);
        assert_eq!(scene.rows.len(), n);
        assert!(render_graph_svg(&drawing).is_ok());
    }
}
