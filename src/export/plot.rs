//! Charts of `G(n)` against `n`, as PNG or SVG, drawn with plotters and the embedded DejaVu Sans
//! font (no system font libraries needed).
//!
//! Every value is a point; P-positions (value 0) are red triangles, so the losing positions
//! for the player to move stand out. When a [`Periodicity`] is given, a vertical line marks
//! the preperiod `n0` and the first full period `n0 ≤ n < n0 + p` is shaded and labelled
//! "period p" (and "saltus s" when `s ≠ 0`): by definition of the preperiod, every later
//! stretch of `p` values repeats the shaded one (shifted up by `s`).
//!
//! A table with more values than the plot has pixel columns is drawn binned: each column is a
//! bar from the smallest to the largest value among the positions it covers (with a red mark
//! when one of them is a P-position), which shows the same envelope as every point would,
//! while the file stays small and fast to draw for 10^6 values.
//!
//! With a rare mask ([`ChartSpec::rare`], see [`crate::analysis::rare`]) the rare positions
//! are drawn distinctly: a green ring around each, or, binned, a green bar (three columns
//! wide, so that a lone one shows) over the range of the rare values in each column that
//! holds one; the legend gives the mask, how many rare
//! positions there are and the last one.

use std::error::Error;

use image::ImageEncoder;
use std::path::Path;
use std::sync::Once;

use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::{register_font, FontStyle};

use super::ExportError;
use crate::analysis::{rare, Periodicity};
use crate::engine::sparse::Mask;
use crate::engine::SgTable;

/// Colour of ordinary values (not P-positions).
const VALUE_COLOUR: RGBColor = RGBColor(31, 119, 180);
/// Colour of P-positions.
const P_COLOUR: RGBColor = RGBColor(214, 39, 40);
/// Colour of the shaded first period.
const PERIOD_COLOUR: RGBColor = RGBColor(255, 127, 14);
/// Colour of the preperiod line.
const PREPERIOD_COLOUR: RGBColor = RGBColor(80, 80, 80);
/// Colour of rare positions.
const RARE_COLOUR: RGBColor = RGBColor(44, 160, 44);

/// The image format of a chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChartFormat {
    /// A PNG bitmap.
    Png,
    /// An SVG vector image.
    Svg,
}

impl ChartFormat {
    /// The format named by the extension of `path` (`.png` or `.svg`, any case).
    pub fn from_path(path: &Path) -> Result<Self, ExportError> {
        let extension = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match extension.as_deref() {
            Some("png") => Ok(ChartFormat::Png),
            Some("svg") => Ok(ChartFormat::Svg),
            _ => Err(ExportError::UnknownChartFormat {
                path: path.to_path_buf(),
            }),
        }
    }
}

/// What to draw besides the values.
#[derive(Clone, Copy, Debug)]
pub struct ChartSpec<'a> {
    /// The title.
    pub game: &'a str,
    /// The name of the position, for the axis labels (e.g. `n`).
    pub coordinate: &'a str,
    /// Marks the preperiod and the first period when given.
    pub periodicity: Option<Periodicity>,
    /// Connects consecutive points with a thin line (ignored when binned).
    pub line: bool,
    /// Marks the rare positions `x ≥ 1` under this mask when given.
    pub rare: Option<Mask>,
    /// Image width in pixels (at least 200 are used).
    pub width: u32,
    /// Image height in pixels (at least 150 are used).
    pub height: u32,
}

impl<'a> ChartSpec<'a> {
    /// A 1200 × 600 chart titled `game`, without a periodicity or line.
    pub fn new(game: &'a str, coordinate: &'a str) -> Self {
        ChartSpec {
            game,
            coordinate,
            periodicity: None,
            line: false,
            rare: None,
            width: 1200,
            height: 600,
        }
    }
}

/// Draws `table` and returns the encoded image.
pub fn render_chart(
    table: &SgTable,
    spec: &ChartSpec,
    format: ChartFormat,
) -> Result<Vec<u8>, ExportError> {
    if table.is_empty() {
        return Err(ExportError::EmptyTable);
    }
    let size = (spec.width.max(200), spec.height.max(150));
    render_image(format, size, &Chart { table, spec })
}

/// A chart of a 1-D table waiting to be drawn.
struct Chart<'a> {
    table: &'a SgTable,
    spec: &'a ChartSpec<'a>,
}

impl Painter for Chart<'_> {
    fn paint<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), Box<dyn Error>>
    where
        DB::ErrorType: 'static,
    {
        draw(root, self.table, self.spec)
    }
}

/// Something that draws on a plotters area of any backend, for [`render_image`] (a closure
/// cannot be generic over the backend).
pub(crate) trait Painter {
    /// Draws on `root`.
    fn paint<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
    ) -> Result<(), Box<dyn Error>>
    where
        DB::ErrorType: 'static;
}

/// Encodes what `painter` draws as an SVG document or a PNG image of `(width, height)` pixels.
pub(crate) fn render_image(
    format: ChartFormat,
    (width, height): (u32, u32),
    painter: &impl Painter,
) -> Result<Vec<u8>, ExportError> {
    register_fonts();
    let chart_error = |e: Box<dyn Error>| ExportError::Chart {
        message: e.to_string(),
    };
    match format {
        ChartFormat::Svg => {
            let mut svg = String::new();
            {
                let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
                painter.paint(&root).map_err(chart_error)?;
                root.present().map_err(|e| chart_error(e.into()))?;
            }
            Ok(svg.into_bytes())
        }
        ChartFormat::Png => {
            let mut rgb = vec![0u8; width as usize * height as usize * 3];
            {
                let root =
                    BitMapBackend::with_buffer(&mut rgb, (width, height)).into_drawing_area();
                painter.paint(&root).map_err(chart_error)?;
                root.present().map_err(|e| chart_error(e.into()))?;
            }
            let mut png = Vec::new();
            image::codecs::png::PngEncoder::new(&mut png)
                .write_image(&rgb, width, height, image::ColorType::Rgb8)
                .map_err(|e| chart_error(e.into()))?;
            Ok(png)
        }
    }
}

/// Registers the embedded DejaVu Sans as plotters' `sans-serif`, once per process.
pub(crate) fn register_fonts() {
    static REGISTER: Once = Once::new();
    REGISTER.call_once(|| {
        // The font is compiled in and valid; a failure would only mean plain text is missing,
        // which drawing then reports as an error.
        let _ = register_font("sans-serif", FontStyle::Normal, dejavu::sans::regular());
        let _ = register_font("sans-serif", FontStyle::Bold, dejavu::sans::bold());
    });
}

/// The smallest and largest value among some positions, whether any is a P-position, and
/// the smallest and largest value at a rare position among them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Bin {
    first: usize,
    end: usize,
    min: u32,
    max: u32,
    has_zero: bool,
    rare: Option<(u32, u32)>,
}

/// Splits `0..table.len()` into `columns` consecutive bins of nearly equal size; rare values
/// are those of positions `x ≥ 1` rare under `rare`.
fn bins(table: &SgTable, columns: usize, rare: Option<Mask>) -> Vec<Bin> {
    let len = table.len();
    let columns = columns.clamp(1, len);
    (0..columns)
        .map(|c| {
            let first = c * len / columns;
            let end = (c + 1) * len / columns;
            let (mut min, mut max) = (u32::MAX, 0);
            let mut rare_range: Option<(u32, u32)> = None;
            for n in first..end {
                let value = table.get(n);
                min = min.min(value);
                max = max.max(value);
                if is_rare(rare, n, value) {
                    let (low, high) = rare_range.unwrap_or((value, value));
                    rare_range = Some((low.min(value), high.max(value)));
                }
            }
            Bin {
                first,
                end,
                min,
                max,
                has_zero: min == 0,
                rare: rare_range,
            }
        })
        .collect()
}

/// True when position `n ≥ 1` is rare under `mask` (never without a mask).
fn is_rare(mask: Option<Mask>, n: usize, value: u32) -> bool {
    mask.is_some_and(|mask| n >= 1 && mask.is_rare(n, value))
}

/// The legend entry of the rare positions: the mask, their number and the last one.
fn rare_label(table: &SgTable, mask: Mask, coordinate: &str) -> String {
    let stats = rare::stats_under(table, mask);
    let parity = if mask.parity { " + heap parity" } else { "" };
    let mut label = format!(
        "rare positions (mask {}{parity}): {}",
        mask.values, stats.rare_count
    );
    if let Some(last) = stats.last_rare {
        label.push_str(&format!(", the last at {coordinate} = {last}"));
    }
    label
}

/// Shows integral tick values only (the axes are continuous, so ticks may fall between).
pub(crate) fn integer_label(value: &f64) -> String {
    if *value >= 0.0 && (value - value.round()).abs() < 1e-9 {
        format!("{value:.0}")
    } else {
        String::new()
    }
}

/// The chart's plotting area, in positions and values.
type Axes<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// The ranges of the axes: the last position, and the values at the bottom and the top.
#[derive(Clone, Copy)]
struct Frame {
    last: f64,
    y_bottom: f64,
    y_top: f64,
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    table: &SgTable,
    spec: &ChartSpec,
) -> Result<(), Box<dyn Error>>
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let last = (table.len() - 1) as f64;
    // Headroom above the largest value keeps the legend and labels off the points.
    let y_top = table.max_value() as f64 * 1.3 + 1.5;
    let frame = Frame {
        last,
        y_bottom: -(y_top * 0.04).max(0.3),
        y_top,
    };
    let mut chart = axes(root, spec, frame)?;
    if let Some(periodicity) = spec.periodicity {
        draw_periodicity(&mut chart, periodicity, frame)?;
    }
    let columns = chart.plotting_area().dim_in_pixel().0 as usize;
    if table.len() > columns {
        draw_bins(&mut chart, table, spec, frame, columns)?;
    } else {
        draw_points(&mut chart, table, spec)?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(RGBColor(160, 160, 160))
        .label_font(("sans-serif", 15))
        .draw()?;
    Ok(())
}

/// The title, the axes and their grid.
fn axes<'a, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, Shift>,
    spec: &ChartSpec,
    frame: Frame,
) -> Result<Axes<'a, DB>, Box<dyn Error>>
where
    DB::ErrorType: 'static,
{
    let Frame {
        last,
        y_bottom,
        y_top,
    } = frame;
    let x_pad = (last * 0.01).max(0.5);
    let coordinate = spec.coordinate;
    let mut chart = ChartBuilder::on(root)
        .caption(spec.game, ("sans-serif", 26))
        .margin(16)
        .x_label_area_size(48)
        .y_label_area_size(60)
        .build_cartesian_2d(-x_pad..last + x_pad, y_bottom..y_top)?;
    chart
        .configure_mesh()
        .x_desc(coordinate)
        .y_desc(format!("G({coordinate})"))
        .x_label_formatter(&integer_label)
        .y_label_formatter(&integer_label)
        .x_labels(12)
        .y_labels(10)
        .light_line_style(WHITE)
        .bold_line_style(RGBColor(225, 225, 225))
        .label_style(("sans-serif", 15))
        .axis_desc_style(("sans-serif", 17))
        .draw()?;
    Ok(chart)
}

/// The shaded first period, the preperiod line and the period's label.
fn draw_periodicity<DB: DrawingBackend>(
    chart: &mut Axes<'_, DB>,
    periodicity: Periodicity,
    frame: Frame,
) -> Result<(), Box<dyn Error>>
where
    DB::ErrorType: 'static,
{
    let Periodicity {
        preperiod,
        period,
        saltus,
    } = periodicity;
    let Frame {
        last,
        y_bottom,
        y_top,
    } = frame;
    let start = (preperiod as f64 - 0.5).min(last);
    let end = ((preperiod + period) as f64 - 0.5).min(last + 0.5);
    let mut label = format!("period {period}");
    if saltus != 0 {
        label.push_str(&format!(", saltus {saltus}"));
    }
    chart
        .draw_series(std::iter::once(Rectangle::new(
            [(start, y_bottom), (end, y_top)],
            PERIOD_COLOUR.mix(0.18).filled(),
        )))?
        .label(format!("first full period ({label})"))
        .legend(|(x, y)| {
            Rectangle::new(
                [(x, y - 6), (x + 18, y + 6)],
                PERIOD_COLOUR.mix(0.35).filled(),
            )
        });
    chart
        .draw_series(std::iter::once(PathElement::new(
            vec![(start, y_bottom), (start, y_top)],
            PREPERIOD_COLOUR.stroke_width(2),
        )))?
        .label(format!("preperiod {preperiod}"))
        .legend(|(x, y)| {
            PathElement::new(vec![(x, y), (x + 18, y)], PREPERIOD_COLOUR.stroke_width(2))
        });
    // Anchored at the top of the band, a few pixels right of the preperiod line.
    chart.draw_series(std::iter::once(
        EmptyElement::at((start, y_top))
            + Text::new(label, (6, 6), ("sans-serif", 16).into_font().color(&BLACK)),
    ))?;
    Ok(())
}

/// A table wider than the plot: one bar per pixel column from its smallest to its largest
/// value, a rug of the columns that hold a P-position, and the rare values' bars.
fn draw_bins<DB: DrawingBackend>(
    chart: &mut Axes<'_, DB>,
    table: &SgTable,
    spec: &ChartSpec,
    frame: Frame,
    columns: usize,
) -> Result<(), Box<dyn Error>>
where
    DB::ErrorType: 'static,
{
    let Frame {
        y_bottom, y_top, ..
    } = frame;
    let coordinate = spec.coordinate;
    let bins = bins(table, columns, spec.rare);
    // Flat bins are stretched a little so that they stay visible.
    let half = (y_top - y_bottom) * 0.003;
    chart
        .draw_series(bins.iter().map(|bin| {
            Rectangle::new(
                [
                    (bin.first as f64 - 0.5, bin.min as f64 - half),
                    (bin.end as f64 - 0.5, bin.max as f64 + half),
                ],
                VALUE_COLOUR.filled(),
            )
        }))?
        .label(format!("G({coordinate}): min to max per pixel column"))
        .legend(|(x, y)| Rectangle::new([(x + 7, y - 6), (x + 11, y + 6)], VALUE_COLOUR.filled()));
    // A rug under the axis: red where a column holds a P-position.
    chart
        .draw_series(bins.iter().filter(|bin| bin.has_zero).map(|bin| {
            Rectangle::new(
                [
                    (bin.first as f64 - 0.5, y_bottom),
                    (bin.end as f64 - 0.5, y_bottom * 0.4),
                ],
                P_COLOUR.filled(),
            )
        }))?
        .label("column holds a P-position (G = 0)")
        .legend(|(x, y)| Rectangle::new([(x + 3, y - 2), (x + 15, y + 2)], P_COLOUR.filled()));
    if let Some(mask) = spec.rare {
        // One column wider on each side, so that a lone rare position stays visible.
        let column = table.len() as f64 / bins.len() as f64;
        chart
            .draw_series(bins.iter().filter_map(|bin| {
                let (low, high) = bin.rare?;
                Some(Rectangle::new(
                    [
                        (bin.first as f64 - 0.5 - column, low as f64 - 2.0 * half),
                        (bin.end as f64 - 0.5 + column, high as f64 + 2.0 * half),
                    ],
                    RARE_COLOUR.filled(),
                ))
            }))?
            .label(rare_label(table, mask, coordinate))
            .legend(|(x, y)| {
                Rectangle::new([(x + 7, y - 6), (x + 11, y + 6)], RARE_COLOUR.filled())
            });
    }
    Ok(())
}

/// A table the plot can show whole: a point per value (P-positions as triangles), the line
/// through them when asked, and rings around the rare positions.
fn draw_points<DB: DrawingBackend>(
    chart: &mut Axes<'_, DB>,
    table: &SgTable,
    spec: &ChartSpec,
) -> Result<(), Box<dyn Error>>
where
    DB::ErrorType: 'static,
{
    let size = if table.len() <= 150 { 4 } else { 2 };
    if spec.line {
        chart.draw_series(LineSeries::new(
            table.iter().enumerate().map(|(n, v)| (n as f64, v as f64)),
            VALUE_COLOUR.mix(0.35).stroke_width(1),
        ))?;
    }
    chart
        .draw_series(
            table
                .iter()
                .enumerate()
                .filter(|&(_, v)| v != 0)
                .map(|(n, v)| Circle::new((n as f64, v as f64), size, VALUE_COLOUR.filled())),
        )?
        .label(format!("G({})", spec.coordinate))
        .legend(|(x, y)| Circle::new((x + 9, y), 4, VALUE_COLOUR.filled()));
    chart
        .draw_series(
            table
                .iter()
                .enumerate()
                .filter(|&(_, v)| v == 0)
                .map(|(n, _)| TriangleMarker::new((n as f64, 0.0), size + 1, P_COLOUR.filled())),
        )?
        .label("P-position (G = 0)")
        .legend(|(x, y)| TriangleMarker::new((x + 9, y), 5, P_COLOUR.filled()));
    if let Some(mask) = spec.rare {
        chart
            .draw_series(
                table
                    .iter()
                    .enumerate()
                    .filter(|&(n, v)| is_rare(spec.rare, n, v))
                    .map(|(n, v)| {
                        Circle::new((n as f64, v as f64), size + 3, RARE_COLOUR.stroke_width(2))
                    }),
            )?
            .label(rare_label(table, mask, spec.coordinate))
            .legend(|(x, y)| Circle::new((x + 9, y), 6, RARE_COLOUR.stroke_width(2)));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Dawson's Kayles G(0..200) (OEIS A002187), computed naively: period 34 from n = 53.
    fn dawsons_kayles(len: usize) -> SgTable {
        let mut values: Vec<u32> = Vec::new();
        for n in 0..len {
            let options = (0..n.saturating_sub(1)).map(|a| values[a] ^ values[n - 2 - a]);
            values.push(crate::engine::mex::mex_of(options));
        }
        SgTable::from_values(&values)
    }

    fn spec(periodicity: Option<Periodicity>) -> ChartSpec<'static> {
        ChartSpec {
            periodicity,
            ..ChartSpec::new("Dawson's Kayles (0.07)", "n")
        }
    }

    #[test]
    fn format_comes_from_the_extension() {
        assert_eq!(
            ChartFormat::from_path(Path::new("a/b.PNG")).unwrap(),
            ChartFormat::Png
        );
        assert_eq!(
            ChartFormat::from_path(Path::new("b.svg")).unwrap(),
            ChartFormat::Svg
        );
        let error = ChartFormat::from_path(Path::new("chart.jpg")).unwrap_err();
        let message = error.to_string();
        assert!(
            message.contains("chart.jpg")
                && error.hint() == Some(crate::engine::Hint::ChartExtension),
            "{message}"
        );
    }

    #[test]
    fn svg_has_the_title_labels_and_legend() {
        let periodicity = Periodicity {
            preperiod: 53,
            period: 34,
            saltus: 0,
        };
        let svg = render_chart(
            &dawsons_kayles(200),
            &spec(Some(periodicity)),
            ChartFormat::Svg,
        )
        .unwrap();
        let svg = String::from_utf8(svg).unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..100]);
        for text in [
            "Dawson&apos;s Kayles (0.07)",
            "period 34",
            "preperiod 53",
            "P-position",
        ] {
            assert!(
                svg.contains(text) || svg.contains(&text.replace("&apos;", "'")),
                "no `{text}`"
            );
        }
        assert!(!svg.contains("saltus"), "saltus 0 is not mentioned");
    }

    #[test]
    fn png_decodes_to_the_requested_size_with_both_colours() {
        let table = SgTable::from_values(&(0..60).map(|n| n % 7).collect::<Vec<u32>>());
        let periodicity = Periodicity {
            preperiod: 0,
            period: 7,
            saltus: 0,
        };
        let spec = ChartSpec {
            width: 640,
            height: 360,
            line: true,
            ..spec(Some(periodicity))
        };
        let png = render_chart(&table, &spec, ChartFormat::Png).unwrap();
        let image = image::load_from_memory(&png).unwrap().to_rgb8();
        assert_eq!(image.dimensions(), (640, 360));
        let has = |colour: RGBColor| {
            image
                .pixels()
                .any(|p| p.0 == [colour.0, colour.1, colour.2])
        };
        assert!(has(VALUE_COLOUR) && has(P_COLOUR));
    }

    #[test]
    fn large_tables_are_binned_per_pixel_column() {
        let values: Vec<u32> = (0..1_000_000u32).map(|n| n % 97).collect();
        let table = SgTable::from_values(&values);
        let svg = render_chart(&table, &spec(None), ChartFormat::Svg).unwrap();
        assert!(svg.len() < 1_000_000, "binned SVG is {} bytes", svg.len());
        assert!(String::from_utf8(svg).unwrap().contains("per pixel column"));
        let png = render_chart(&table, &spec(None), ChartFormat::Png).unwrap();
        let image = image::load_from_memory(&png).unwrap().to_rgb8();
        let count = |colour: RGBColor| {
            image
                .pixels()
                .filter(|p| p.0 == [colour.0, colour.1, colour.2])
                .count()
        };
        // The bars fill most of the plot; the P-position rug is a thin strip.
        assert!(
            count(VALUE_COLOUR) > 100_000,
            "{} bar pixels",
            count(VALUE_COLOUR)
        );
        assert!(count(P_COLOUR) > 1000);
    }

    #[test]
    fn tiny_tables_and_periods_beyond_the_table_still_draw() {
        let beyond = Periodicity {
            preperiod: 10,
            period: 3,
            saltus: 2,
        };
        for values in [&[0][..], &[7], &[0, 0, 0]] {
            for periodicity in [None, Some(beyond)] {
                let spec = ChartSpec {
                    width: 10,
                    height: 10,
                    ..spec(periodicity)
                };
                let table = SgTable::from_values(values);
                for format in [ChartFormat::Png, ChartFormat::Svg] {
                    assert!(!render_chart(&table, &spec, format).unwrap().is_empty());
                }
            }
        }
    }

    #[test]
    fn bins_cover_every_position_once_with_their_extremes() {
        let table = SgTable::from_values(&[3, 0, 5, 2, 2, 9, 1]);
        let bins = bins(&table, 3, None);
        assert_eq!(bins.first().unwrap().first, 0);
        assert_eq!(bins.last().unwrap().end, 7);
        assert!(bins.windows(2).all(|w| w[0].end == w[1].first));
        assert_eq!((bins[0].min, bins[0].max, bins[0].has_zero), (0, 3, true));
        assert_eq!((bins[2].min, bins[2].max, bins[2].has_zero), (1, 9, false));
        assert!(bins.iter().all(|bin| bin.rare.is_none()));
        // Mask 1: even values are rare.
        let mask = Some(Mask {
            values: 1,
            parity: false,
            parity_offset: 0,
        });
        let rare: Vec<_> = super::bins(&table, 3, mask)
            .iter()
            .map(|b| b.rare)
            .collect();
        assert_eq!(rare, [Some((0, 0)), Some((2, 2)), Some((2, 2))]);
    }

    #[test]
    fn rare_positions_are_marked_with_the_mask_in_the_legend() {
        // Dawson's Kayles under mask 6 + heap parity (its best mask, see analysis::rare).
        let mask = Mask {
            values: 6,
            parity: true,
            parity_offset: 0,
        };
        let table = dawsons_kayles(200);
        let rare = (1..200)
            .filter(|&n| mask.is_rare(n, table.get(n)))
            .collect::<Vec<_>>();
        let spec = ChartSpec {
            rare: Some(mask),
            ..spec(None)
        };
        let svg =
            String::from_utf8(render_chart(&table, &spec, ChartFormat::Svg).unwrap()).unwrap();
        let legend = format!(
            "rare positions (mask 6 + heap parity): {}, the last at n = {}",
            rare.len(),
            rare.last().unwrap()
        );
        assert!(svg.contains(&legend), "no `{legend}`");
        let png = render_chart(&table, &spec, ChartFormat::Png).unwrap();
        let image = image::load_from_memory(&png).unwrap().to_rgb8();
        let green = |image: &image::RgbImage| {
            image
                .pixels()
                .filter(|p| p.0 == [RARE_COLOUR.0, RARE_COLOUR.1, RARE_COLOUR.2])
                .count()
        };
        assert!(green(&image) > 100, "{} rare pixels", green(&image));
        // Binned: a column's rare bar spans its rare values only.
        let values: Vec<u32> = (0..100_000u32)
            .map(|n| if n % 1000 == 0 { 0 } else { 1 + n % 2 })
            .collect();
        let table = SgTable::from_values(&values);
        let one = Mask {
            values: 1,
            parity: false,
            parity_offset: 0,
        };
        let binned = bins(&table, 100, Some(one));
        // Position 0 (value 0) is never counted as rare.
        assert_eq!(binned[0].rare, Some((2, 2)));
        assert!(
            binned[1..].iter().all(|bin| bin.rare == Some((0, 2))),
            "{:?}",
            binned[1]
        );
        let spec = ChartSpec {
            rare: Some(one),
            ..spec
        };
        let png = render_chart(&table, &spec, ChartFormat::Png).unwrap();
        let image = image::load_from_memory(&png).unwrap().to_rgb8();
        assert!(green(&image) > 1000, "{} rare pixels", green(&image));
    }

    #[test]
    fn charts_of_both_formats_and_empty_tables_refused() {
        let table = dawsons_kayles(100);
        let periodicity = Periodicity {
            preperiod: 0,
            period: 1,
            saltus: 1,
        };
        for format in [ChartFormat::Png, ChartFormat::Svg] {
            let bytes = render_chart(&table, &spec(Some(periodicity)), format).unwrap();
            assert!(bytes.len() > 1000);
        }
        let svg = render_chart(&table, &spec(Some(periodicity)), ChartFormat::Svg).unwrap();
        assert!(String::from_utf8(svg).unwrap().contains("saltus 1"));
        assert!(matches!(
            render_chart(&SgTable::new(), &spec(None), ChartFormat::Png),
            Err(ExportError::EmptyTable)
        ));
    }
}
