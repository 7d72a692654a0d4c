//! Heat maps of two-coordinate tables, as PNG or SVG, drawn with plotters and the embedded
//! DejaVu Sans font (registered by [`super::plot`]).
//!
//! The first coordinate runs along the horizontal axis and the second up the vertical one,
//! so `(x, y)` sits where a reader of a paper on Wythoff's game expects it. Each cell is
//! coloured by its value on the viridis scale (dark violet for small values, yellow for the
//! largest), which stays readable in grey and for colour-blind readers; a colour bar on the
//! right is the legend, and P-positions (value 0) carry a red dot.
//!
//! A box with more positions than the plot has pixels (or, for SVG, than
//! [`SVG_CELLS`] per axis, to keep the file small) is drawn downsampled: each cell covers a
//! block of positions, is coloured by their mean value, and gets a red dot when any of them is
//! a P-position; the caption says how many positions a cell covers.

use std::error::Error;

use plotters::coord::Shift;
use plotters::prelude::*;

use super::plot::{integer_label, render_image, Painter};
use super::{ChartFormat, ExportError};
use crate::engine::boxtable::BoxTable;

/// Colour of the P-position dots (the P-position red of [`super::plot`]).
const P_DOT: RGBColor = RGBColor(214, 39, 40);

/// The most cells per axis in an SVG heat map (every cell is one element of the file).
pub const SVG_CELLS: usize = 160;

/// Anchors of the viridis colour map (Smith and van der Walt, matplotlib 2015) at 0, ¼, ½, ¾, 1.
const VIRIDIS: [(u8, u8, u8); 5] = [
    (68, 1, 84),
    (59, 82, 139),
    (33, 145, 140),
    (94, 201, 98),
    (253, 231, 37),
];

/// Size and title of a heat map.
#[derive(Clone, Copy, Debug)]
pub struct HeatmapSpec<'a> {
    /// The title.
    pub game: &'a str,
    /// Image width in pixels (at least 300 are used).
    pub width: u32,
    /// Image height in pixels (at least 200 are used).
    pub height: u32,
}

impl<'a> HeatmapSpec<'a> {
    /// A 1000 × 800 heat map titled `game`.
    pub fn new(game: &'a str) -> Self {
        HeatmapSpec {
            game,
            width: 1000,
            height: 800,
        }
    }
}

/// Draws the heat map of a two-coordinate `table` and returns the encoded image.
pub fn render_heatmap(
    table: &BoxTable,
    spec: &HeatmapSpec,
    format: ChartFormat,
) -> Result<Vec<u8>, ExportError> {
    if table.dimension() != 2 {
        return Err(ExportError::NotTwoCoordinates {
            dimension: table.dimension(),
        });
    }
    let size = (spec.width.max(300), spec.height.max(200));
    let heatmap = Heatmap {
        table,
        spec,
        format,
    };
    render_image(format, size, &heatmap)
}

/// A heat map waiting to be drawn.
struct Heatmap<'a> {
    table: &'a BoxTable,
    spec: &'a HeatmapSpec<'a>,
    format: ChartFormat,
}

impl Painter for Heatmap<'_> {
    fn paint<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), Box<dyn Error>>
    where
        DB::ErrorType: 'static,
    {
        draw(root, self.table, self.spec, self.format)
    }
}

/// The viridis colour at `t ∈ [0, 1]`, interpolated linearly between the anchors.
fn viridis(t: f64) -> RGBColor {
    let scaled = t.clamp(0.0, 1.0) * (VIRIDIS.len() - 1) as f64;
    let low = (scaled.floor() as usize).min(VIRIDIS.len() - 2);
    let frac = scaled - low as f64;
    let (a, b) = (VIRIDIS[low], VIRIDIS[low + 1]);
    let mix = |u: u8, v: u8| (u as f64 + (v as f64 - u as f64) * frac).round() as u8;
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// The colour of `value` on a scale from 0 to `max`.
fn colour_of(value: f64, max: u32) -> RGBColor {
    viridis(if max == 0 { 0.0 } else { value / max as f64 })
}

/// A block of positions drawn as one cell: `x0..x1 × y0..y1`, its mean value, and whether it
/// holds a P-position.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Cell {
    x: (u64, u64),
    y: (u64, u64),
    mean: f64,
    has_zero: bool,
}

/// Splits `0..=extents[0] × 0..=extents[1]` into blocks of `step.0 × step.1` positions.
fn cells(table: &BoxTable, step: (u64, u64)) -> Vec<Cell> {
    let [width, height] = [table.extents()[0] + 1, table.extents()[1] + 1];
    let mut cells = Vec::new();
    for x0 in (0..width).step_by(step.0 as usize) {
        let x1 = (x0 + step.0).min(width);
        for y0 in (0..height).step_by(step.1 as usize) {
            let y1 = (y0 + step.1).min(height);
            let (mut sum, mut has_zero) = (0u64, false);
            for x in x0..x1 {
                let row = &table.values()[(x * height) as usize..][..height as usize];
                for &value in &row[y0 as usize..y1 as usize] {
                    sum += u64::from(value);
                    has_zero |= value == 0;
                }
            }
            cells.push(Cell {
                x: (x0, x1),
                y: (y0, y1),
                mean: sum as f64 / ((x1 - x0) * (y1 - y0)) as f64,
                has_zero,
            });
        }
    }
    cells
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    table: &BoxTable,
    spec: &HeatmapSpec,
    format: ChartFormat,
) -> Result<(), Box<dyn Error>>
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let (width, height) = root.dim_in_pixel();
    let (plot_area, legend_area) = root.split_horizontally(width.saturating_sub(150));
    let [x_name, y_name] = [&table.coordinates()[0], &table.coordinates()[1]];
    let [x_extent, y_extent] = [table.extents()[0], table.extents()[1]];
    let max = table.max_value();

    // The plot's pixel size decides the downsampling; a first estimate from the layout below.
    let plot_pixels = (
        (width.saturating_sub(150 + 2 * 16 + 60)).max(1) as u64,
        (height.saturating_sub(2 * 16 + 48 + 40)).max(1) as u64,
    );
    let limit = |pixels: u64| match format {
        ChartFormat::Png => pixels,
        ChartFormat::Svg => pixels.min(SVG_CELLS as u64),
    };
    let step = (
        (x_extent + 1).div_ceil(limit(plot_pixels.0)),
        (y_extent + 1).div_ceil(limit(plot_pixels.1)),
    );
    let mut caption = spec.game.to_string();
    if step != (1, 1) {
        caption.push_str(&format!(
            " (each cell: mean of {} × {} positions)",
            step.0, step.1
        ));
    }

    let mut chart = ChartBuilder::on(&plot_area)
        .caption(caption, ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(48)
        .y_label_area_size(60)
        .build_cartesian_2d(-0.5..x_extent as f64 + 0.5, -0.5..y_extent as f64 + 0.5)?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_desc(x_name.as_str())
        .y_desc(y_name.as_str())
        .x_label_formatter(&integer_label)
        .y_label_formatter(&integer_label)
        .label_style(("sans-serif", 15))
        .axis_desc_style(("sans-serif", 17))
        .draw()?;

    let cells = cells(table, step);
    let corner = |(x0, x1): (u64, u64), (y0, y1): (u64, u64)| {
        [
            (x0 as f64 - 0.5, y0 as f64 - 0.5),
            (x1 as f64 - 0.5, y1 as f64 - 0.5),
        ]
    };
    chart.draw_series(
        cells
            .iter()
            .map(|cell| Rectangle::new(corner(cell.x, cell.y), colour_of(cell.mean, max).filled())),
    )?;
    let pixels_per_cell = plot_pixels.0 as f64 / ((x_extent + 1) as f64 / step.0 as f64);
    let radius = ((pixels_per_cell / 4.0).round() as i32).clamp(1, 8);
    chart.draw_series(cells.iter().filter(|cell| cell.has_zero).map(|cell| {
        let centre = (
            (cell.x.0 + cell.x.1) as f64 / 2.0 - 0.5,
            (cell.y.0 + cell.y.1) as f64 / 2.0 - 0.5,
        );
        Circle::new(centre, radius, P_DOT.filled())
    }))?;

    draw_legend(&legend_area, max)
}

/// The colour bar with value ticks, and the P-position marker explained below it.
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    max: u32,
) -> Result<(), Box<dyn Error>>
where
    DB::ErrorType: 'static,
{
    let (_, height) = area.dim_in_pixel();
    let (bar_area, key_area) = area.split_vertically(height.saturating_sub(80));
    let top = max as f64 + 0.5;
    let mut bar = ChartBuilder::on(&bar_area)
        .caption("G (value)", ("sans-serif", 16))
        .margin_top(40)
        .margin_right(60)
        .margin_left(10)
        .y_label_area_size(0)
        .right_y_label_area_size(50)
        .build_cartesian_2d(0.0..1.0, -0.5..top)?;
    bar.configure_mesh()
        .disable_mesh()
        .disable_x_axis()
        .y_label_formatter(&integer_label)
        .y_labels(10)
        .label_style(("sans-serif", 14))
        .draw()?;
    // One band per value when there are few, else a smooth ramp of 100 bands.
    let bands = (max as usize + 1).min(100);
    let band = top.max(0.5) / bands as f64;
    bar.draw_series((0..bands).map(|i| {
        let low = -0.5 + i as f64 * (top + 0.5) / bands as f64;
        let high = low + (top + 0.5) / bands as f64;
        let value = if bands == max as usize + 1 {
            i as f64
        } else {
            (low + band / 2.0).max(0.0)
        };
        Rectangle::new([(0.0, low), (1.0, high)], colour_of(value, max).filled())
    }))?;

    key_area.draw(&Circle::new((18, 20), 6, P_DOT.filled()))?;
    key_area.draw(&Text::new(
        "P-position",
        (30, 12),
        ("sans-serif", 15).into_font().color(&BLACK),
    ))?;
    key_area.draw(&Text::new(
        "(G = 0)",
        (30, 32),
        ("sans-serif", 15).into_font().color(&BLACK),
    ))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::patterns::tests::wythoff;

    fn names() -> Vec<String> {
        vec!["x".to_string(), "y".to_string()]
    }

    fn count(image: &image::RgbImage, colour: RGBColor) -> usize {
        image
            .pixels()
            .filter(|p| p.0 == [colour.0, colour.1, colour.2])
            .count()
    }

    #[test]
    fn png_has_the_requested_size_cells_and_p_dots() {
        let spec = HeatmapSpec {
            width: 640,
            height: 480,
            ..HeatmapSpec::new("Wythoff")
        };
        let table = wythoff(30);
        let png = render_heatmap(&table, &spec, ChartFormat::Png).unwrap();
        let image = image::load_from_memory(&png).unwrap().to_rgb8();
        assert_eq!(image.dimensions(), (640, 480));
        assert!(count(&image, P_DOT) > 100, "P-position dots are drawn");
        // The largest value's colour (yellow) fills a cell and the colour bar's top band.
        assert!(
            count(
                &image,
                colour_of(table.max_value() as f64, table.max_value())
            ) > 50
        );
    }

    #[test]
    fn svg_has_the_axes_and_the_legend() {
        let table = BoxTable::from_fn(
            vec!["heap".to_string(), "limit".to_string()],
            vec![12, 9],
            |p| (p[0] ^ p[1]) as u32,
        );
        let svg = render_heatmap(&table, &HeatmapSpec::new("Nim"), ChartFormat::Svg).unwrap();
        let svg = String::from_utf8(svg).unwrap();
        for text in ["Nim", "heap", "limit", "G (value)", "P-position", "(G = 0)"] {
            assert!(svg.contains(text), "no `{text}`");
        }
        assert!(!svg.contains("mean of"), "a small box is not downsampled");
    }

    #[test]
    fn large_boxes_are_downsampled() {
        let table = BoxTable::from_fn(names(), vec![1999, 999], |p| ((p[0] + p[1]) % 7) as u32);
        let svg = render_heatmap(&table, &HeatmapSpec::new("big"), ChartFormat::Svg).unwrap();
        assert!(svg.len() < 5_000_000, "SVG is {} bytes", svg.len());
        let svg = String::from_utf8(svg).unwrap();
        assert!(
            svg.contains("(each cell: mean of 13 × 7 positions)"),
            "{}",
            &svg[..2000]
        );
        let png = render_heatmap(&table, &HeatmapSpec::new("big"), ChartFormat::Png).unwrap();
        let image = image::load_from_memory(&png).unwrap().to_rgb8();
        assert_eq!(image.dimensions(), (1000, 800));
        assert!(count(&image, P_DOT) > 1000);
    }

    #[test]
    fn thin_and_single_cell_boxes_draw() {
        for extents in [[0, 0], [0, 40], [40, 0], [1, 3000]] {
            let table = BoxTable::from_fn(names(), extents.to_vec(), |p| (p[0] + p[1]) as u32 % 3);
            for format in [ChartFormat::Png, ChartFormat::Svg] {
                let spec = HeatmapSpec {
                    width: 1,
                    height: 1,
                    ..HeatmapSpec::new("thin")
                };
                assert!(!render_heatmap(&table, &spec, format).unwrap().is_empty());
            }
        }
    }

    #[test]
    fn cells_cover_every_position_once() {
        let table = BoxTable::from_fn(names(), vec![4, 2], |p| (p[0] * 3 + p[1]) as u32);
        let cells = cells(&table, (2, 2));
        assert_eq!(cells.len(), 3 * 2);
        let covered: u64 = cells
            .iter()
            .map(|c| (c.x.1 - c.x.0) * (c.y.1 - c.y.0))
            .sum();
        assert_eq!(covered, table.size() as u64);
        // (0..2) × (0..2): values 0, 1, 3, 4.
        assert_eq!(cells[0].mean, 2.0);
        assert!(cells[0].has_zero && !cells[1].has_zero);
        // The last row of blocks is one position wide: (4, 2) alone.
        assert_eq!(
            cells[5],
            Cell {
                x: (4, 5),
                y: (2, 3),
                mean: 14.0,
                has_zero: false
            }
        );
    }

    #[test]
    fn viridis_runs_from_violet_to_yellow() {
        assert_eq!(viridis(0.0), RGBColor(68, 1, 84));
        assert_eq!(viridis(1.0), RGBColor(253, 231, 37));
        assert_eq!(viridis(0.5), RGBColor(33, 145, 140));
        assert_eq!(colour_of(3.0, 0), viridis(0.0));
    }

    #[test]
    fn both_formats_are_drawn_and_other_dimensions_refused() {
        let table = wythoff(10);
        for format in [ChartFormat::Png, ChartFormat::Svg] {
            let bytes = render_heatmap(&table, &HeatmapSpec::new("Wythoff"), format).unwrap();
            assert!(bytes.len() > 1000);
        }
        let line = BoxTable::from_fn(vec!["n".to_string()], vec![5], |p| p[0] as u32);
        let message = render_heatmap(&line, &HeatmapSpec::new("n"), ChartFormat::Png)
            .unwrap_err()
            .to_string();
        assert!(message.contains("exactly two coordinates"), "{message}");
    }
}
