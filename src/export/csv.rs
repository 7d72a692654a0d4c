//! CSV (RFC 4180): a header `<coordinate>,sg`, then one row `n,G(n)` per position.
//!
//! Rows are formatted by hand into a 64 KiB buffer that is handed to the writer when full, so
//! memory stays constant and 10^7 rows take well under a second in a release build.

use std::io::{self, BufWriter, Write};

use crate::engine::{BoxTable, SgTable, Table};

/// Bytes collected before each call to the underlying writer.
const BUFFER_BYTES: usize = 1 << 16;

/// Writes `table` as CSV with the header `<coordinate>,sg`.
pub fn write_csv(out: &mut dyn Write, table: &SgTable, coordinate: &str) -> io::Result<()> {
    let mut buffer = Vec::with_capacity(BUFFER_BYTES + 64);
    buffer.extend_from_slice(quote_field(coordinate).as_bytes());
    buffer.extend_from_slice(b",sg\n");
    for (n, value) in table.iter().enumerate() {
        push_decimal(&mut buffer, n as u64);
        buffer.push(b',');
        push_decimal(&mut buffer, value as u64);
        buffer.push(b'\n');
        if buffer.len() >= BUFFER_BYTES {
            out.write_all(&buffer)?;
            buffer.clear();
        }
    }
    out.write_all(&buffer)?;
    out.flush()
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
    let mut out = BufWriter::with_capacity(BUFFER_BYTES, out);
    let mut line = Vec::new();
    for name in table.coordinates() {
        line.extend_from_slice(quote_field(name).as_bytes());
        line.push(b',');
    }
    line.extend_from_slice(b"sg\n");
    out.write_all(&line)?;
    let mut position = vec![0u64; table.dimension()];
    for &value in table.values() {
        line.clear();
        for &c in &position {
            push_decimal(&mut line, c);
            line.push(b',');
        }
        push_decimal(&mut line, u64::from(value));
        line.push(b'\n');
        out.write_all(&line)?;
        table.shape().step(&mut position);
    }
    out.flush()
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
pub(super) fn push_decimal(buffer: &mut Vec<u8>, mut value: u64) {
    let mut digits = [0u8; 20];
    let mut start = digits.len();
    loop {
        start -= 1;
        digits[start] = b'0' + (value % 10) as u8;
        value /= 10;
        if value == 0 {
            break;
        }
    }
    buffer.extend_from_slice(&digits[start..]);
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
