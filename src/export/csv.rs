//! CSV (RFC 4180): a header `<coordinate>,sg`, then one row `n,G(n)` per position.
//!
//! Rows are formatted by hand into a 64 KiB buffer that is handed to the writer when full, so
//! memory stays constant and 10^7 rows take well under a second in a release build: the row
//! numbers counted up digit by digit, short fields copied as fixed blocks.

use std::io::{self, Write};

use rayon::prelude::*;

use super::TableView;
use crate::engine::{BoxShape, BoxTable, SgTable, Table};
use crate::value::evaluate::ValueTable;
use crate::value::loopy::LoopyTable;
use crate::value::misere::MisereTable;
use crate::value::{HackenbushTable, Outcome, TableKind, Valued};

/// Bytes collected before each call to the underlying writer.
const BUFFER_BYTES: usize = 1 << 16;

/// Writes `table` as CSV with the header `<coordinate>,sg`.
pub fn write_csv(out: &mut dyn Write, table: &SgTable, coordinate: &str) -> io::Result<()> {
    let mut text = Text::new(out);
    text.field(quote_field(coordinate).as_bytes())?;
    text.field(b",sg\n")?;
    let mut n = Counter::default();
    for value in table.iter() {
        text.short(&n.digits, n.len)?;
        text.byte(b',');
        text.number(value as u64)?;
        text.byte(b'\n');
        n.increment();
    }
    text.finish()
}

/// Writes `table` as CSV: one column per coordinate, named as in the rules file, then `sg`;
/// one row per position, row-major.
pub fn write_table_csv(out: &mut dyn Write, table: &Table) -> io::Result<()> {
    match table {
        Table::Sequence { coordinate, values } => write_csv(out, values, &coordinate[0]),
        Table::Box(table) => write_box_csv(out, table),
    }
}

/// Writes `table` as CSV: the coordinates' names and `sg`, then one row per position.
pub fn write_box_csv(out: &mut dyn Write, table: &BoxTable) -> io::Result<()> {
    let mut header = Vec::new();
    for name in table.coordinates() {
        header.extend_from_slice(quote_field(name).as_bytes());
        header.push(b',');
    }
    header.extend_from_slice(b"sg\n");
    out.write_all(&header)?;
    if table.shape().extents().is_empty() {
        // No coordinates: the one position's value.
        let mut text = Text::new(out);
        for &value in table.values() {
            text.number(u64::from(value))?;
            text.byte(b'\n');
        }
        return text.finish();
    }
    write_box_lines(out, table.shape(), &|text, _: &mut (), index| {
        text.number(u64::from(table.values()[index]))?;
        text.byte(b'\n');
        Ok(())
    })
}

/// The positions of a box's row a thread formats at most at a time ([`write_box_lines`]): a
/// long row (a heap game's only one) is cut in pieces.
const PIECE: usize = LINES_PER_BLOCK;

/// A line for every position of `shape` (of one coordinate or more), in row-major order: its
/// coordinates and a comma ([`RowStart`]), then what `rest(text, scratch, index)` writes for the
/// position of that index (the rest of the line, its line break included). Formatted a piece of
/// a row of the box at a time, in blocks on every thread ([`write_rows`]).
fn write_box_lines<S: Default + Send>(
    out: &mut dyn Write,
    shape: &BoxShape,
    rest: &(dyn Fn(&mut Text, &mut S, usize) -> io::Result<()> + Sync),
) -> io::Result<()> {
    let row_len = shape.extents().last().map_or(1, |&e| e as usize + 1);
    let piece = row_len.min(PIECE);
    let pieces_per_row = row_len.div_ceil(piece);
    let pieces = shape.len() / row_len * pieces_per_row;
    write_rows(
        out,
        pieces,
        (4 * LINES_PER_BLOCK / piece).max(1),
        &|text, (start, scratch): &mut (RowStart, S), p| {
            let (r, k) = (p / pieces_per_row, p % pieces_per_row);
            let first = r * row_len + k * piece;
            start.at(shape, first);
            for index in first..(first + piece).min((r + 1) * row_len) {
                start.write(text)?;
                rest(text, scratch, index)?;
            }
            Ok(())
        },
    )
}

/// What the lines of a row of a box start with: the row's coordinates but the last, the same
/// for the whole row (made once, with their commas), then the last one counted up (a carry now
/// and then instead of a conversion), and a comma.
#[derive(Default)]
struct RowStart {
    position: Vec<u64>,
    prefix: Vec<u8>,
    /// The prefix in a block for [`Text::short`], when it fits.
    short: Option<[u8; SHORT]>,
    last: Counter,
}

impl RowStart {
    /// Starts at the position of table index `index` of `shape` (lines for the positions after
    /// it in its row follow).
    fn at(&mut self, shape: &BoxShape, index: usize) {
        shape.write_position(index, &mut self.position);
        let (&last, prefix) = self.position.split_last().expect("a coordinate");
        self.prefix.clear();
        for &c in prefix {
            push_decimal(&mut self.prefix, c);
            self.prefix.push(b',');
        }
        self.short = (self.prefix.len() <= SHORT).then(|| {
            let mut block = [0u8; SHORT];
            block[..self.prefix.len()].copy_from_slice(&self.prefix);
            block
        });
        self.last = Counter::of(last);
    }

    /// The next line's start: the coordinates and a comma.
    #[inline]
    fn write(&mut self, text: &mut Text) -> io::Result<()> {
        match &self.short {
            Some(block) => text.short(block, self.prefix.len())?,
            None => text.field(&self.prefix)?,
        }
        text.short(&self.last.digits, self.last.len)?;
        text.byte(b',');
        self.last.increment();
        Ok(())
    }
}

/// The lines of text a thread formats at a time ([`write_rows`]).
const LINES_PER_BLOCK: usize = 1 << 15;

/// The longest field [`Text::short`] copies.
const SHORT: usize = 32;

/// Text gathered in a buffer of [`BUFFER_BYTES`] and handed to the writer when full. A short
/// field is copied as a whole block of [`SHORT`] bytes (the next field overwrites the bytes
/// past its end), where a copy of its own length is a call to `memcpy`: most of the time of
/// a large table's rows of a few bytes each.
struct Text<'w> {
    out: &'w mut dyn Write,
    bytes: Vec<u8>,
    len: usize,
}

impl<'w> Text<'w> {
    fn new(out: &'w mut dyn Write) -> Self {
        Text {
            out,
            bytes: vec![0; BUFFER_BYTES + 2 * SHORT],
            len: 0,
        }
    }

    /// Hands the text to the writer once it is [`BUFFER_BYTES`] long.
    #[inline]
    fn make_room(&mut self) -> io::Result<()> {
        if self.len > BUFFER_BYTES {
            self.out.write_all(&self.bytes[..self.len])?;
            self.len = 0;
        }
        Ok(())
    }

    /// The first `len <= SHORT` bytes of `block`.
    #[inline]
    fn short(&mut self, block: &[u8; SHORT], len: usize) -> io::Result<()> {
        self.make_room()?;
        self.bytes[self.len..self.len + SHORT].copy_from_slice(block);
        self.len += len;
        Ok(())
    }

    /// One byte: after a field there is room for a few ([`Text::make_room`] leaves twice
    /// [`SHORT`] bytes before each field, which takes at most `SHORT` of them).
    #[inline]
    fn byte(&mut self, byte: u8) {
        self.bytes[self.len] = byte;
        self.len += 1;
    }

    /// A field of any length.
    fn field(&mut self, field: &[u8]) -> io::Result<()> {
        self.make_room()?;
        if self.len + field.len() + SHORT > self.bytes.len() {
            self.out.write_all(&self.bytes[..self.len])?;
            self.len = 0;
            if field.len() + SHORT > self.bytes.len() {
                return self.out.write_all(field);
            }
        }
        self.bytes[self.len..self.len + field.len()].copy_from_slice(field);
        self.len += field.len();
        Ok(())
    }

    /// The decimal digits of `value` (at most 20: room enough), written in place from the
    /// last.
    #[inline]
    fn number(&mut self, mut value: u64) -> io::Result<()> {
        self.make_room()?;
        let digits = value.checked_ilog10().unwrap_or(0) as usize + 1;
        let end = self.len + digits;
        for digit in self.bytes[self.len..end].iter_mut().rev() {
            *digit = b'0' + (value % 10) as u8;
            value /= 10;
        }
        self.len = end;
        Ok(())
    }

    fn finish(self) -> io::Result<()> {
        self.out.write_all(&self.bytes[..self.len])?;
        self.out.flush()
    }
}

/// A number's decimal digits, counted up one at a time: a row's number costs a carry now and
/// then instead of a conversion.
#[derive(Clone, Debug)]
struct Counter {
    /// The digits, `digits[..len]`, in a block for [`Text::short`].
    digits: [u8; SHORT],
    len: usize,
}

impl Default for Counter {
    /// Zero.
    fn default() -> Self {
        let mut digits = [0; SHORT];
        digits[0] = b'0';
        Counter { digits, len: 1 }
    }
}

impl Counter {
    /// The digits of `n`.
    fn of(n: u64) -> Self {
        let mut digits = [0; SHORT];
        let mut text = Vec::new();
        push_decimal(&mut text, n);
        digits[..text.len()].copy_from_slice(&text);
        Counter {
            digits,
            len: text.len(),
        }
    }

    /// Adds one (a `u64` count has at most 20 digits: the block has room).
    #[inline]
    fn increment(&mut self) {
        for i in (0..self.len).rev() {
            if self.digits[i] < b'9' {
                self.digits[i] += 1;
                return;
            }
            self.digits[i] = b'0';
        }
        // All nines: one more digit, `10…0`.
        self.digits[0] = b'1';
        self.digits[self.len] = b'0';
        self.len += 1;
    }
}

/// Quotes a header field if it holds a comma, quote or line break (RFC 4180, section 2).
pub(super) fn quote_field(field: &str) -> String {
    if field.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_string()
    }
}

/// Appends the decimal digits of `value` (much faster than `write!` per row; shared with JSON).
#[inline]
pub(super) fn push_decimal(buffer: &mut Vec<u8>, value: u64) {
    buffer.extend_from_slice(itoa::Buffer::new().format(value).as_bytes());
}

/// The CSV exporter (RFC 4180): the coordinates' names, then one column per value the table
/// holds, one row per position.
pub struct Csv;

impl super::TableFormat for Csv {
    fn supports(&self, _: TableKind) -> bool {
        true
    }

    fn write(&self, out: &mut dyn Write, table: &Valued, _: &TableView<'_>) -> io::Result<()> {
        match table {
            Valued::Normal(table) => write_table_csv(out, table),
            Valued::Misere(table) => misere_csv(out, table),
            Valued::Loopy(table) => loopy_csv(out, table),
            Valued::Hackenbush(table) => hackenbush_csv(out, table),
            Valued::Rule(table) => rule_csv(out, table),
        }
    }
}

/// A value rule's table: the coordinates (a graph's node names), `value` when the rule gives
/// values, and `outcome`.
fn rule_csv(out: &mut dyn Write, table: &ValueTable) -> io::Result<()> {
    let mut writer = csv::Writer::from_writer(out);
    let mut header: Vec<&str> = table.coordinates().iter().map(String::as_str).collect();
    // Asked once: it looks at every cell.
    let values = table.has_values();
    if values {
        header.push("value");
    }
    header.push("outcome");
    writer.write_record(&header).map_err(super::csv_io_error)?;
    for (index, (value, outcome)) in table.cells().iter().enumerate() {
        let mut record: Vec<String> = match table.names().get(index) {
            Some(name) => vec![name.clone()],
            None => table
                .position_of(index)
                .iter()
                .map(u64::to_string)
                .collect(),
        };
        if values {
            record.push(value.clone());
        }
        record.push(outcome.to_string());
        writer.write_record(&record).map_err(super::csv_io_error)?;
    }
    writer.flush()
}

/// A Hackenbush picture: `node,value` (`value` empty for a node cut off from the ground).
fn hackenbush_csv(out: &mut dyn Write, table: &HackenbushTable) -> io::Result<()> {
    let mut writer = csv::Writer::from_writer(out);
    writer
        .write_record(["node", "value"])
        .map_err(super::csv_io_error)?;
    for (name, value) in table.names.iter().zip(table.picture.node_values()) {
        let value = value.map_or_else(String::new, |v| v.to_string());
        writer
            .write_record([name, &value])
            .map_err(super::csv_io_error)?;
    }
    writer.flush()
}

fn misere_csv(out: &mut dyn Write, table: &MisereTable) -> io::Result<()> {
    let mut out = io::BufWriter::new(out);
    writeln!(out, "{},sg,misere_sg,genus", table.coordinates.join(","))?;
    for (index, cell) in table.cells.iter().enumerate() {
        let position = table.position_of(index);
        let genus = cell.genus.to_string();
        let genus = if genus.contains(',') {
            format!("\"{genus}\"")
        } else {
            genus
        };
        let coordinates: Vec<String> = position.iter().map(u64::to_string).collect();
        writeln!(
            out,
            "{},{},{},{genus}",
            coordinates.join(","),
            cell.normal(),
            cell.misere()
        )?;
    }
    out.flush()
}

/// A loopy table: the coordinates (a graph file's node names), `outcome`, `remoteness` (empty
/// for a draw) and `value` (`3`, `inf{0,2}`, quoted when it holds a comma). Formatted by hand
/// into the buffer like [`write_csv`]: a table of 3·10⁶ positions spent more in the csv crate's
/// records of `String`s than in its analysis (issue 27).
fn loopy_csv(out: &mut dyn Write, table: &LoopyTable) -> io::Result<()> {
    let mut header = Vec::new();
    for name in &table.coordinates {
        header.extend_from_slice(quote_field(name).as_bytes());
        header.push(b',');
    }
    header.extend_from_slice(b"outcome,remoteness,value\n");
    out.write_all(&header)?;
    let cells = |text: &mut Text, cells: &mut LoopyCells, v: usize| -> io::Result<()> {
        text.byte(match table.outcome[v] {
            Outcome::P => b'P',
            Outcome::N => b'N',
            Outcome::D => b'D',
        });
        text.byte(b',');
        if let Some(r) = table.remoteness(v) {
            text.number(u64::from(r))?;
        }
        text.byte(b',');
        if let Some(finite) = table.finite_value(v) {
            text.number(u64::from(finite))?;
        } else {
            cells.write_infinite(text, table, v)?;
        }
        text.byte(b'\n');
        Ok(())
    };
    match table.box_shape() {
        // A box's lines as the box CSV's.
        Some(shape) if shape.dimension() > 0 => write_box_lines(out, shape, &cells),
        _ => write_rows(
            out,
            table.rows,
            LINES_PER_BLOCK,
            &|text, (position, scratch): &mut (Vec<u64>, LoopyCells), v| {
                if table.write_position(v, position) {
                    for &x in position.iter() {
                        text.number(x)?;
                        text.byte(b',');
                    }
                } else {
                    text.field(quote_field(&table.name(v)).as_bytes())?;
                    text.byte(b',');
                }
                cells(text, scratch, v)
            },
        ),
    }
}

/// The text of a loopy table's value not finite, `∞(K)`, as a CSV field (quoted when `K` has
/// two or more members), kept from row to row: the same `K` (`inf{}`, `inf{0}`) comes again and
/// again, and its text is made once (told by `K`'s bit mask when its members are below 64).
#[derive(Default)]
struct LoopyCells {
    /// The field's text, in a block for [`Text::short`] when it fits, and the `K` it is for.
    text: Vec<u8>,
    block: Option<[u8; SHORT]>,
    of: Option<u64>,
    /// The row's text before quoting, and its `K`: working memory.
    value: Vec<u8>,
    k: Vec<u32>,
}

impl LoopyCells {
    /// Writes the field of node `v`'s value, not finite.
    fn write_infinite(&mut self, text: &mut Text, table: &LoopyTable, v: usize) -> io::Result<()> {
        let mask = table.infinite_mask(v);
        if mask.is_none() || mask != self.of {
            self.of = mask;
            self.value.clear();
            table.push_value(v, &mut self.value, &mut self.k);
            self.text.clear();
            if self.value.contains(&b',') {
                self.text.push(b'"');
                self.text.extend_from_slice(&self.value);
                self.text.push(b'"');
            } else {
                self.text.extend_from_slice(&self.value);
            }
            self.block = (self.text.len() <= SHORT).then(|| {
                let mut block = [0u8; SHORT];
                block[..self.text.len()].copy_from_slice(&self.text);
                block
            });
        }
        match &self.block {
            Some(block) => text.short(block, self.text.len()),
            None => text.field(&self.text),
        }
    }
}

/// Rows `0..rows` of a table's text (`row(text, scratch, r)` writes row `r`, with working
/// memory of its own), in order: formatted a block of `rows_per_block` rows a thread at a
/// time when there are many, each round's blocks then written in turn while the pool formats
/// the next round's (writing a file is a copy into the page cache: a sixth of the time, which
/// the formatting threads would otherwise wait out).
fn write_rows<S: Default + Send>(
    out: &mut dyn Write,
    rows: usize,
    rows_per_block: usize,
    row: &(dyn Fn(&mut Text, &mut S, usize) -> io::Result<()> + Sync),
) -> io::Result<()> {
    let threads = rayon::current_num_threads();
    if threads < 2 || rows < 2 * rows_per_block {
        let (mut text, mut scratch) = (Text::new(out), S::default());
        for r in 0..rows {
            row(&mut text, &mut scratch, r)?;
        }
        return text.finish();
    }
    let format = |blocks: &mut [Vec<u8>], first: usize| {
        blocks
            .par_iter_mut()
            .enumerate()
            .try_for_each(|(i, block)| {
                // Made by the thread that uses it: working memory made up front, side by side
                // in one thread's heap, shared cache lines between the threads (a row's
                // coordinates written there cost a third of the whole CSV).
                let scratch = &mut S::default();
                block.clear();
                let from = (first + i * rows_per_block).min(rows);
                let mut text = Text::new(block);
                for r in from..(from + rows_per_block).min(rows) {
                    row(&mut text, scratch, r)?;
                }
                text.finish()
            })
    };
    let round = threads * rows_per_block;
    let mut formatted: Vec<Vec<u8>> = vec![Vec::new(); threads];
    let mut next: Vec<Vec<u8>> = vec![Vec::new(); threads];
    format(&mut formatted, 0)?;
    for first in (round..rows + round).step_by(round) {
        // This round's blocks written here while the pool formats the next round's (none
        // past the last).
        let mut formatting = Ok(());
        let mut written = Ok(());
        rayon::in_place_scope(|scope| {
            if first < rows {
                scope.spawn(|_| formatting = format(&mut next, first));
            }
            written = formatted.iter().try_for_each(|block| out.write_all(block));
        });
        written?;
        formatting?;
        std::mem::swap(&mut formatted, &mut next);
    }
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(values: &[u32], coordinate: &str) -> String {
        let mut out = Vec::new();
        write_csv(&mut out, &SgTable::from_values(values), coordinate).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn header_and_rows() {
        assert_eq!(render(&[0, 1, 70_000], "n"), "n,sg\n0,0\n1,1\n2,70000\n");
        assert_eq!(render(&[], "heap"), "heap,sg\n");
    }

    /// Rows past many buffers, numbers of every length (the counted row numbers, values of
    /// one digit and more), a header longer than a buffer: the text `format!` writes.
    #[test]
    fn long_tables_are_written_as_format_writes_them() {
        let values: Vec<u32> = (0..300_000u32).map(|n| n % 13 * (n % 7).pow(4)).collect();
        let coordinate = "n".repeat(3 * BUFFER_BYTES);
        let mut want = format!("{coordinate},sg\n");
        for (n, v) in values.iter().enumerate() {
            want += &format!("{n},{v}\n");
        }
        assert!(render(&values, &coordinate) == want);
        let mut counter = Counter::default();
        for n in 0..2_000_000u64 {
            assert_eq!(&counter.digits[..counter.len], n.to_string().as_bytes());
            counter.increment();
        }
    }

    /// A box's CSV formatted a run of rows a thread at a time (three coordinates, more rows
    /// than two blocks) is the text position by position, formatted plainly.
    #[test]
    fn box_rows_formatted_in_blocks_are_the_plain_text() {
        // Short rows; rows cut in pieces; one row (a heap game's), cut in pieces.
        for extents in [vec![300, 2, 400], vec![2, 80_000], vec![250_000]] {
            let shape = crate::engine::BoxShape::new(&extents);
            let values: Vec<u32> = (0..shape.len() as u32).map(|i| i % 7 + i / 1000).collect();
            let names: Vec<String> = ["a", "b", "c"][..extents.len()]
                .iter()
                .map(|n| n.to_string())
                .collect();
            let table = BoxTable::new(names.clone(), extents.to_vec(), values.clone());
            let mut out = Vec::new();
            write_box_csv(&mut out, &table).unwrap();
            let mut want = names.join(",") + ",sg\n";
            for (index, value) in values.iter().enumerate() {
                for c in shape.position(index) {
                    want += &format!("{c},");
                }
                want += &format!("{value}\n");
            }
            assert!(out == want.as_bytes(), "{extents:?}");
        }
    }

    /// A loopy table's CSV, each line as the table's accessors give it plainly (coordinates,
    /// outcome, remoteness, the value's `Display`, quoted when it holds a comma): a box of one
    /// coordinate and one of two, with more rows than a thread's block, values `∞(K)` whose
    /// `K` has members past 64 and several members, and the same `K` over long runs.
    #[test]
    fn loopy_tables_are_their_plain_text() {
        // Nim heaps `(x, 0)`; `(x, 1)` moves to itself (so its value is ∞(K)) and to
        // `(x, 0)` and `(x - 1, 0)`: `K = {x - 1, x}`, past 63 for the large heaps.
        let nim = "position (x, y)\n\
                   move t in 1..=x => (x - t, y)\n\
                   move if y == 1 => (x, 1)\n\
                   move if y == 1 => (x, 0)\n\
                   move if y == 1 && x > 0 => (x - 1, 0)\n";
        // Take 1-3 or put 2 back, on three boards: `inf{}` and `inf{0}` over long runs.
        let heap = "position (a, n)\n\
                    move x in 1..=3 if x <= n => (a, n - x)\n\
                    move if n % 5 == 1 && n + 2 <= 200000 => (a, n + 2)\n\
                    move if a > 0 => (a - 1, n)\n";
        let load =
            |text| crate::rules::load(crate::rules::SourceFile::new("l.sg", text), &[]).unwrap();
        let (nim, heap) = (load(nim), load(heap));
        let mut big_sets = 0;
        for (game, extents) in [
            (&nim, vec![90, 1]),
            (&heap, vec![2, 200_000]),
            (&heap, vec![0, 100_000]),
        ] {
            let table = LoopyTable::of_box(game, &extents).unwrap();
            let mut out = Vec::new();
            loopy_csv(&mut out, &table).unwrap();
            let mut want = format!("{},outcome,remoteness,value\n", table.coordinates.join(","));
            for v in 0..table.rows {
                for c in table.position(v).unwrap() {
                    want += &format!("{c},");
                }
                let value = table.value(v).to_string();
                big_sets += usize::from(
                    table.finite_value(v).is_none() && table.infinite_mask(v).is_none(),
                );
                let value = match value.contains(',') {
                    true => format!("\"{value}\""),
                    false => value,
                };
                let remoteness = table.remoteness(v).map_or(String::new(), |r| r.to_string());
                want += &format!("{},{remoteness},{value}\n", table.outcome[v]);
            }
            assert!(out == want.as_bytes(), "{extents:?}");
        }
        assert!(big_sets > 20, "some K has a member past 63");
    }

    /// Rows formatted in blocks on every thread come out in order, whole, with each block's
    /// working memory its own (a row's text built in it first).
    #[test]
    fn rows_formatted_in_blocks_come_out_in_order() {
        for (rows, per_block) in [(0, 1), (1, 7), (70_000, LINES_PER_BLOCK), (300_001, 5000)] {
            let mut out = Vec::new();
            write_rows(
                &mut out,
                rows,
                per_block,
                &|text, scratch: &mut Vec<u8>, r| {
                    scratch.clear();
                    scratch.extend_from_slice(format!("x{}", r % 1000).as_bytes());
                    text.number(r as u64)?;
                    text.byte(b',');
                    text.field(scratch)?;
                    text.byte(b'\n');
                    Ok(())
                },
            )
            .unwrap();
            let want: String = (0..rows).map(|r| format!("{r},x{}\n", r % 1000)).collect();
            assert!(out == want.as_bytes(), "{rows} rows");
        }
    }

    #[test]
    fn decimals_are_those_of_to_string() {
        let mut tens: Vec<u64> = (0..20).map(|k| 10u64.pow(k)).collect();
        tens.extend(tens.clone().iter().flat_map(|&t| [t - 1, t + 1]));
        tens.extend([0, 7, u64::MAX, u64::MAX - 1, 12_345_678_901_234_567_890]);
        let mut buffer = b"x".to_vec();
        let mut want = String::from("x");
        for &v in &tens {
            push_decimal(&mut buffer, v);
            buffer.push(b',');
            want.push_str(&format!("{v},"));
        }
        assert_eq!(String::from_utf8(buffer).unwrap(), want);
    }

    #[test]
    fn awkward_coordinate_names_are_quoted() {
        assert_eq!(render(&[3], "a,\"b\""), "\"a,\"\"b\"\"\",sg\n0,3\n");
    }

    #[test]
    fn large_tables_stream_through_the_buffer_and_parse_back() {
        let values: Vec<u32> = (0..100_000u32).map(|n| n % 1000 * 7).collect();
        let text = render(&values, "n");
        let mut reader = ::csv::Reader::from_reader(text.as_bytes());
        assert_eq!(reader.headers().unwrap(), vec!["n", "sg"]);
        let mut rows = 0;
        for (n, record) in reader.records().enumerate() {
            let record = record.unwrap();
            assert_eq!(record[0].parse::<usize>().unwrap(), n);
            assert_eq!(record[1].parse::<u32>().unwrap(), values[n]);
            rows += 1;
        }
        assert_eq!(rows, values.len());
    }

    mod boxes {
        use super::super::*;
        use crate::export::Format;

        use crate::export::testing::{names, nim, render};
        #[test]
        fn csv_has_one_column_per_coordinate_and_parses_back() {
            let table = nim(3, 5);
            let csv = render(&table, Format::Csv);
            assert!(csv.starts_with("x,y,sg\n0,0,0\n0,1,1\n"));
            let mut reader = ::csv::Reader::from_reader(csv.as_bytes());
            assert_eq!(reader.headers().unwrap(), vec!["x", "y", "sg"]);
            let mut rows = 0;
            for record in reader.records() {
                let record = record.unwrap();
                let field = |i: usize| record[i].parse::<u64>().unwrap();
                assert_eq!(table.get(&[field(0), field(1)]), Some(field(2) as u32));
                rows += 1;
            }
            assert_eq!(rows, table.size());
            let odd = BoxTable::from_fn(names(&["a,b", "c"]), vec![0, 0], |_| 7);
            assert_eq!(render(&odd, Format::Csv), "\"a,b\",c,sg\n0,0,7\n");
        }
    }
}
