//! A census's outputs: CSV, JSON lines, the Markdown report in the layout of the published
//! tables, and (for subtraction censuses) a chart of the distribution of periods.

use std::collections::BTreeMap;
use std::error::Error;
use std::fmt::Write as _;
use std::io::{self, Write};

use plotters::coord::Shift;
use plotters::prelude::*;

use super::plot::{render_image, ChartFormat, Painter};
use super::ExportError;
use crate::census::{Census, Family, Row};

/// The CSV header: the fields of [`Row`] in order.
pub const CSV_HEADER: &str = "code,status,preperiod,period,saltus,proved,values_computed,max_value,max_value_at,rare_mask,rare_count,last_rare,class,offset,seconds,cousin";

/// Writes the rows as CSV with [`CSV_HEADER`] (empty cells for absent values).
pub fn write_csv(out: &mut dyn Write, rows: &[Row]) -> io::Result<()> {
    let mut writer = ::csv::Writer::from_writer(out);
    for row in rows {
        writer.serialize(row).map_err(super::csv_io_error)?;
    }
    writer.flush()
}

/// Writes one JSON object per row and line (the fields of [`Row`]; `null` for absent values).
pub fn write_jsonl(out: &mut dyn Write, rows: &[Row]) -> io::Result<()> {
    for row in rows {
        serde_json::to_writer(&mut *out, row).map_err(io::Error::other)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// What a census reports first: how many codes are solved, seen periodic and unsolved, and
/// how many classes they fall in.
pub fn summary_line(census: &Census) -> String {
    let rows = census.rows();
    let count = |status: &str| rows.iter().filter(|r| r.status == status).count();
    let periodic = count("periodic");
    let periodic = if periodic > 0 {
        format!(", {periodic} periodic (not proved)")
    } else {
        String::new()
    };
    format!(
        "{} codes: {} solved{periodic}, {} unsolved; {} equivalence classes",
        rows.len(),
        count("solved"),
        count("unsolved"),
        census.class_count()
    )
}

fn family_title(family: &Family) -> String {
    match *family {
        Family::Octal { digits } => {
            format!("octal games 0.d1…d{digits} and 4.d1…d{digits} (every digit 0–7)")
        }
        Family::Subtraction { max_element } => format!(
            "subtraction games: every finite set and every all-but set of elements ≤ {max_element}"
        ),
    }
}

fn cell<T: ToString>(value: Option<T>) -> String {
    value.map_or_else(|| "-".to_string(), |v| v.to_string())
}

/// The Markdown report: the census's bounds and counts, the solved games (prefix, period,
/// largest value, rare statistics: the columns of Flammenkamp's and Czajka's tables), the
/// unsolved ones with their reach, and every equivalence class of two or more codes.
pub fn markdown(census: &Census) -> String {
    let rows = census.rows();
    let config = &census.config;
    let mut md = String::new();
    let _ = writeln!(md, "# Census of {}\n", family_title(&config.family));
    let _ = writeln!(
        md,
        "Every code was searched for a period up to n = {}, stopping at the first period the \
         periodicity theorem proves; a sparse code (at most {} rare positions, none in the \
         second half of its table) went on, doubling its bound while it stayed sparse, up to \
         n = {}. Codes are written in their shortest form (trailing zero digits dropped).\n",
        config.max,
        crate::census::SPARSE_RARE_LIMIT,
        config.sparse_max
    );
    let _ = writeln!(md, "**{}.**\n", summary_line(census));
    let solved: Vec<&Row> = rows.iter().filter(|r| r.period.is_some()).collect();
    let _ = writeln!(md, "## Solved games\n");
    let _ = writeln!(
        md,
        "\"prefix\" is the preperiod n0 (`G(n + p) = G(n) + s` for n ≥ n0); games solved \
         within the first 1000 values are the trivial ones of the published tables.\n"
    );
    let _ = writeln!(md, "game | prefix | period | saltus | proved | largest idx | largest | rare mask | num rare | last rare | class");
    let _ = writeln!(
        md,
        ":--- | ---: | ---: | ---: | :---: | ---: | ---: | ---: | ---: | ---: | ---:"
    );
    let mut by_length = solved.clone();
    // The long ones first, as the published tables do.
    by_length.sort_by_key(|r| std::cmp::Reverse(r.preperiod.unwrap_or(0) + r.period.unwrap_or(0)));
    for r in by_length {
        let _ = writeln!(
            md,
            "{} | {} | {} | {} | {} | {}",
            r.code,
            cell(r.preperiod),
            cell(r.period),
            r.saltus,
            if r.proved { "yes" } else { "no" },
            largest_and_rare_cells(r)
        );
    }
    let unsolved: Vec<&Row> = rows.iter().filter(|r| r.period.is_none()).collect();
    let _ = writeln!(md, "\n## Unsolved games\n");
    if unsolved.is_empty() {
        let _ = writeln!(md, "None.");
    } else {
        let _ = writeln!(md, "game | unsolved to n = | largest idx | largest | rare mask | num rare | last rare | class");
        let _ = writeln!(md, ":--- | ---: | ---: | ---: | ---: | ---: | ---: | ---:");
        for r in unsolved {
            let _ = writeln!(
                md,
                "{} | {} | {}",
                r.code,
                r.values_computed.saturating_sub(1),
                largest_and_rare_cells(r)
            );
        }
    }
    let mut classes: BTreeMap<usize, Vec<&Row>> = BTreeMap::new();
    for r in &rows {
        classes.entry(r.class).or_default().push(r);
    }
    let shared: Vec<&Vec<&Row>> = classes.values().filter(|m| m.len() > 1).collect();
    let class_of: BTreeMap<&str, usize> = rows.iter().map(|r| (r.code.as_str(), r.class)).collect();
    let in_class = |code: &str, class: usize| class_of.get(code) == Some(&class);
    let _ = writeln!(md, "\n## Equivalence classes\n");
    let _ = writeln!(
        md,
        "Codes whose sequences agree over the whole range known of both, up to a heap offset: \
         `code (+k)` means G_code(n + k) = G_base(n), the base being the class's first code \
         with offset 0. {} of the {} classes have two or more members.\n",
        shared.len(),
        classes.len()
    );
    if !shared.is_empty() {
        let _ = writeln!(md, "class | base | members");
        let _ = writeln!(md, "---: | :--- | :---");
        for members in shared {
            let base = members
                .iter()
                .find(|r| r.offset == 0)
                .unwrap_or(&members[0]);
            let list: Vec<String> = members
                .iter()
                .map(|r| {
                    let proved = r.cousin.as_ref().filter(|c| in_class(c, r.class));
                    match (r.offset, proved) {
                        (0, _) => r.code.clone(),
                        (k, None) => format!("{} (+{k})", r.code),
                        (k, Some(c)) => format!("{} (+{k}, first cousin {c})", r.code),
                    }
                })
                .collect();
            let _ = writeln!(md, "{} | {} | {}", base.class, base.code, list.join(", "));
        }
    }
    md.push_str(&cousin_note(census, &rows));
    if matches!(config.family, Family::Subtraction { .. }) {
        md.push_str(&subtraction_statistics(&rows));
    }
    md
}

/// The cells both game tables end with: largest value (where, what), rare mask, rare count,
/// last rare position and class.
fn largest_and_rare_cells(r: &Row) -> String {
    format!(
        "{} | {} | {} | {} | {} | {}",
        r.max_value_at,
        r.max_value,
        cell(r.rare_mask.clone()),
        cell(r.rare_count),
        cell(r.last_rare),
        r.class
    )
}

/// The first cousins (`crate::theory::cousin`): how many codes have one, which pairs the
/// census holds, and whether the classes found each pair (they must: it is a theorem).
fn cousin_note(census: &Census, rows: &[Row]) -> String {
    let with_cousin = rows.iter().filter(|r| r.cousin.is_some()).count();
    if with_cousin == 0 {
        return String::new();
    }
    let pairs = census.cousin_pairs();
    let disagree: Vec<String> = pairs
        .iter()
        .filter(|p| !p.agrees)
        .map(|p| format!("{} and {}", p.code, p.cousin))
        .collect();
    let mut md = String::from("\n## First cousins\n\n");
    let _ = write!(
        md,
        "{with_cousin} codes have a first cousin (column `cousin`): a game whose tree is theirs \
         with one token fewer per heap, so G_code(n + 1) = G_cousin(n) for every n, proved \
         (docs/census.md). {} of these cousins are in this census; ",
        pairs.len()
    );
    if disagree.is_empty() {
        md.push_str(
            "every such pair is in one class with offsets one apart, which for unsolved codes \
             turns their equivalence from observed into proved.\n",
        );
    } else {
        let _ = writeln!(
            md,
            "the classes disagree with the theorem for {} ({}): that is a bug, please report \
             it.",
            if disagree.len() == 1 {
                "1 pair".to_string()
            } else {
                format!("{} pairs", disagree.len())
            },
            disagree.join(", ")
        );
    }
    md
}

/// The subtraction census's statistics: the distribution of periods and the extremes.
fn subtraction_statistics(rows: &[Row]) -> String {
    let mut md = String::new();
    for (title, all_but) in [("finite subtraction sets", false), ("all-but sets", true)] {
        let group: Vec<&Row> = rows
            .iter()
            .filter(|r| r.code.starts_with("all-but") == all_but)
            .collect();
        let _ = writeln!(md, "\n## Periods of the {title}\n");
        let mut periods: BTreeMap<usize, usize> = BTreeMap::new();
        for r in &group {
            if let Some(p) = r.period {
                *periods.entry(p).or_default() += 1;
            }
        }
        let _ = writeln!(md, "period | games");
        let _ = writeln!(md, "---: | ---:");
        for (p, count) in &periods {
            let _ = writeln!(md, "{p} | {count}");
        }
        for (what, key) in [
            (
                "Longest preperiods",
                &(|r: &Row| r.preperiod.unwrap_or(0)) as &dyn Fn(&Row) -> usize,
            ),
            ("Longest periods", &|r: &Row| r.period.unwrap_or(0)),
        ] {
            let mut extremes = group.clone();
            extremes.sort_by_key(|r| std::cmp::Reverse(key(r)));
            let _ = writeln!(md, "\n{what} ({title}):\n");
            let _ = writeln!(md, "set | preperiod | period | saltus");
            let _ = writeln!(md, ":--- | ---: | ---: | ---:");
            for r in extremes.iter().take(10) {
                let _ = writeln!(
                    md,
                    "{} | {} | {} | {}",
                    r.code,
                    cell(r.preperiod),
                    cell(r.period),
                    r.saltus
                );
            }
        }
    }
    md
}

/// A bar chart of how many games have each period (finite sets and all-but sets side by side).
pub fn period_chart(census: &Census, format: ChartFormat) -> Result<Vec<u8>, ExportError> {
    let rows = census.rows();
    let mut counts: BTreeMap<usize, [usize; 2]> = BTreeMap::new();
    for r in &rows {
        if let Some(p) = r.period {
            counts.entry(p).or_default()[usize::from(r.code.starts_with("all-but"))] += 1;
        }
    }
    let title = format!("Periods: census of {}", census.config.family.slug());
    render_image(format, (1200, 600), &PeriodChart { counts, title })
}

struct PeriodChart {
    counts: BTreeMap<usize, [usize; 2]>,
    title: String,
}

impl Painter for PeriodChart {
    fn paint<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), Box<dyn Error>>
    where
        DB::ErrorType: 'static,
    {
        root.fill(&WHITE)?;
        let periods: Vec<usize> = self.counts.keys().copied().collect();
        let most = self
            .counts
            .values()
            .map(|c| c[0].max(c[1]))
            .max()
            .unwrap_or(1);
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, ("sans-serif", 22))
            .margin(16)
            .x_label_area_size(40)
            .y_label_area_size(56)
            .build_cartesian_2d(0f64..periods.len().max(1) as f64, 0..most + 1)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_desc("period (one bar pair per period seen)")
            .y_desc("games")
            .x_label_formatter(&|x| {
                let i = x.floor() as usize;
                periods.get(i).map_or(String::new(), |p| p.to_string())
            })
            .label_style(("sans-serif", 14))
            .draw()?;
        let colours = [RGBColor(31, 119, 180), RGBColor(255, 127, 14)];
        for (side, (label, colour)) in ["finite sets", "all-but sets"]
            .iter()
            .zip(colours)
            .enumerate()
        {
            chart
                .draw_series(self.counts.values().enumerate().map(|(i, c)| {
                    let left = i as f64 + 0.1 + 0.4 * side as f64;
                    Rectangle::new([(left, 0), (left + 0.4, c[side])], colour.filled())
                }))?
                .label(*label)
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 12, y + 5)], colour.filled())
                });
        }
        chart
            .configure_series_labels()
            .border_style(BLACK)
            .background_style(WHITE)
            .label_font(("sans-serif", 15))
            .draw()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::census::{run_code, Config};

    fn census(family: Family) -> Census {
        let config = Config {
            family,
            max: 2048,
            sparse_max: 2048,
        };
        let records = config
            .family
            .codes()
            .iter()
            .map(|c| run_code(&config, c).unwrap())
            .collect();
        Census::new(config, records).unwrap()
    }

    #[test]
    fn csv_and_jsonl_hold_one_row_per_code() {
        let census = census(Family::Octal { digits: 1 });
        let rows = census.rows();
        let mut csv = Vec::new();
        write_csv(&mut csv, &rows).unwrap();
        let csv = String::from_utf8(csv).unwrap();
        assert_eq!(csv.lines().next(), Some(CSV_HEADER));
        assert_eq!(csv.lines().count(), 17);
        let mut jsonl = Vec::new();
        write_jsonl(&mut jsonl, &rows).unwrap();
        let back: Vec<Row> = String::from_utf8(jsonl)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(back, rows);
        let md = markdown(&census);
        assert!(md.contains("## Equivalence classes"), "{md}");
    }

    #[test]
    fn the_subtraction_report_has_its_statistics_and_chart() {
        let census = census(Family::Subtraction { max_element: 3 });
        let md = markdown(&census);
        // {1, 2, 3}: G(n) = n mod 4, period 4 (Bash game).
        assert!(
            md.contains("## Periods of the finite subtraction sets"),
            "{md}"
        );
        assert!(md.contains("{1, 2, 3} | 0 | 4 | 0"), "{md}");
        let svg = period_chart(&census, ChartFormat::Svg).unwrap();
        assert!(String::from_utf8(svg).unwrap().contains("<svg"));
    }
}
