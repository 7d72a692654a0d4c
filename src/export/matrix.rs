//! A plain matrix: CSV with no header, one line per value of the leading coordinates (for two
//! coordinates: one line per value of the first), holding the values along the last; a
//! one-coordinate table is one line.

use std::io::{self, BufWriter, Write};

use super::csv::push_decimal;
use super::TableView;
use crate::engine::Table;
use crate::value::{TableKind, Valued};

/// Bytes buffered before each call to the underlying writer.
const BUFFER_BYTES: usize = 1 << 16;

/// Writes `table` as a plain CSV grid (see the module docs).
pub fn write_matrix(out: &mut dyn Write, table: &Table) -> io::Result<()> {
    let mut out = BufWriter::with_capacity(BUFFER_BYTES, out);
    let length = *table.extents().last().expect("a table has a coordinate") as usize + 1;
    let mut line = Vec::new();
    for (index, value) in table.iter().enumerate() {
        push_decimal(&mut line, u64::from(value));
        if (index + 1) % length == 0 {
            line.push(b'\n');
            out.write_all(&line)?;
            line.clear();
        } else {
            line.push(b',');
        }
    }
    out.flush()
}

/// The matrix exporter: a grid of the normal values of a position game's box; no other kind of
/// table is a grid.
pub struct Matrix;

impl super::TableFormat for Matrix {
    fn supports(&self, kind: TableKind) -> bool {
        kind == TableKind::Box
    }

    fn write(&self, out: &mut dyn Write, table: &Valued, _: &TableView<'_>) -> io::Result<()> {
        match table {
            Valued::Normal(table) => write_matrix(out, table),
            _ => Err(io::Error::other(
                "a matrix is a grid of a box's normal values",
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::BoxTable;
    use crate::export::Format;

    use crate::export::testing::{names, nim, render};
    #[test]
    fn matrix_is_one_line_per_row() {
        assert_eq!(
            render(&nim(2, 3), Format::Matrix),
            "0,1,2,3\n1,0,3,2\n2,3,0,1\n"
        );
        let line = BoxTable::from_fn(names(&["n"]), vec![3], |p| p[0] as u32);
        assert_eq!(render(&line, Format::Matrix), "0,1,2,3\n");
    }
}
