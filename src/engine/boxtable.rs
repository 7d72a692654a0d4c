//! Tables of values: [`Table`], the one type every consumer (exporters, analysis, solve) takes,
//! is either the sequence `G(0..=N)` of a heap game (in the narrow storage of [`SgTable`]) or a
//! [`BoxTable`] of multi-coordinate positions (Wythoff's `(x, y)`, Fibonacci Nim's
//! `(n, limit)`, a row of cells as one mask coordinate).
//!
//! A box is `0..=extents[0] × 0..=extents[1] × …`, stored row-major (the last coordinate
//! varies fastest), so a 2-D table is a list of rows, one per value of the first coordinate.
//! A heap game's sequence is a one-coordinate box to every consumer: [`Table::coordinates`],
//! [`Table::extents`], [`Table::get`] and [`Table::value_at`] answer alike for both.

use super::{BoxShape, SgTable};

/// The values of a game over its table: a heap game's sequence or a position game's box.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Table {
    /// `G(0..=N)` of a heap game; `coordinate` names the heap (`n` unless the file says so).
    Sequence {
        /// The heap's name.
        coordinate: [String; 1],
        /// The values.
        values: SgTable,
    },
    /// A position game's box.
    Box(BoxTable),
}

impl Table {
    /// The sequence `values` of a heap game whose heap is called `coordinate`.
    pub fn sequence(coordinate: &str, values: SgTable) -> Self {
        Table::Sequence {
            coordinate: [coordinate.to_string()],
            values,
        }
    }

    /// Whether this is a heap game's sequence (exporters lay those out as sequences).
    pub fn is_sequence(&self) -> bool {
        matches!(self, Table::Sequence { .. })
    }

    /// The coordinates' names.
    pub fn coordinates(&self) -> &[String] {
        match self {
            Table::Sequence { coordinate, .. } => coordinate,
            Table::Box(table) => table.coordinates(),
        }
    }

    /// The largest value of each coordinate (`[N]` for `G(0..=N)`; `[0]` for an empty one).
    pub fn extents(&self) -> Vec<u64> {
        match self {
            Table::Sequence { values, .. } => vec![values.len().saturating_sub(1) as u64],
            Table::Box(table) => table.extents().to_vec(),
        }
    }

    /// Number of positions.
    pub fn size(&self) -> usize {
        match self {
            Table::Sequence { values, .. } => values.len(),
            Table::Box(table) => table.size(),
        }
    }

    /// The value at row-major `index`.
    pub fn value_at(&self, index: usize) -> u32 {
        match self {
            Table::Sequence { values, .. } => values.get(index),
            Table::Box(table) => table.values()[index],
        }
    }

    /// `G(position)`, or `None` outside the table.
    pub fn get(&self, position: &[u64]) -> Option<u32> {
        match self {
            Table::Sequence { values, .. } => match position {
                [n] if (*n as usize) < values.len() => Some(values.get(*n as usize)),
                _ => None,
            },
            Table::Box(table) => table.get(position),
        }
    }

    /// The largest value.
    pub fn max_value(&self) -> u32 {
        match self {
            Table::Sequence { values, .. } => values.max_value(),
            Table::Box(table) => table.max_value(),
        }
    }

    /// Every value, row-major.
    pub fn iter(&self) -> Box<dyn Iterator<Item = u32> + '_> {
        match self {
            Table::Sequence { values, .. } => Box::new(values.iter()),
            Table::Box(table) => Box::new(table.values().iter().copied()),
        }
    }

    /// The sequence of a heap game (or of a one-coordinate box, copied into narrow storage).
    pub fn to_sequence(&self) -> Option<std::borrow::Cow<'_, SgTable>> {
        match self {
            Table::Sequence { values, .. } => Some(std::borrow::Cow::Borrowed(values)),
            Table::Box(table) if table.dimension() == 1 => Some(std::borrow::Cow::Owned(
                SgTable::from_values(table.values()),
            )),
            Table::Box(_) => None,
        }
    }
}

/// SG values `G(p)` for every position `p` of a box, with the coordinates' names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoxTable {
    coordinates: Vec<String>,
    shape: BoxShape,
    values: Vec<u32>,
}

impl BoxTable {
    /// A table from its values in row-major order.
    ///
    /// # Panics
    /// If the names and extents differ in number, there are none, or `values` does not hold
    /// exactly one value per position of the box.
    pub fn new(coordinates: Vec<String>, extents: Vec<u64>, values: Vec<u32>) -> Self {
        assert_eq!(
            coordinates.len(),
            extents.len(),
            "one extent per coordinate"
        );
        assert!(!extents.is_empty(), "a box has at least one coordinate");
        let shape = BoxShape::new(&extents);
        assert_eq!(values.len(), shape.len(), "one value per position");
        BoxTable {
            coordinates,
            shape,
            values,
        }
    }

    /// The table of `value(p)` for every position `p` of the box, in row-major order.
    pub fn from_fn(
        coordinates: Vec<String>,
        extents: Vec<u64>,
        mut value: impl FnMut(&[u64]) -> u32,
    ) -> Self {
        let shape = BoxShape::new(&extents);
        let mut values = Vec::with_capacity(shape.len());
        let mut position = vec![0u64; extents.len()];
        for _ in 0..shape.len() {
            values.push(value(&position));
            shape.step(&mut position);
        }
        BoxTable::new(coordinates, extents, values)
    }

    /// The coordinates' names, as in the rules file.
    pub fn coordinates(&self) -> &[String] {
        &self.coordinates
    }

    /// The largest value of each coordinate in the box.
    pub fn extents(&self) -> &[u64] {
        self.shape.extents()
    }

    /// The box's row-major layout.
    pub fn shape(&self) -> &BoxShape {
        &self.shape
    }

    /// Number of coordinates.
    pub fn dimension(&self) -> usize {
        self.shape.dimension()
    }

    /// Number of positions in the box.
    pub fn size(&self) -> usize {
        self.shape.len()
    }

    /// All values, row-major.
    pub fn values(&self) -> &[u32] {
        &self.values
    }

    /// The index of `position` in [`BoxTable::values`], or `None` outside the box.
    pub fn index_of(&self, position: &[u64]) -> Option<usize> {
        self.shape.index(position)
    }

    /// The position stored at `index` of [`BoxTable::values`].
    pub fn position_of(&self, index: usize) -> Vec<u64> {
        self.shape.position(index)
    }

    /// `G(position)`, or `None` outside the box.
    pub fn get(&self, position: &[u64]) -> Option<u32> {
        self.index_of(position).map(|i| self.values[i])
    }

    /// Every position with its value, row-major.
    pub fn iter(&self) -> impl Iterator<Item = (Vec<u64>, u32)> + '_ {
        self.shape.positions().zip(self.values.iter().copied())
    }

    /// The largest value in the box.
    pub fn max_value(&self) -> u32 {
        self.values.iter().copied().max().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn row_major_indexing_round_trips() {
        let table = BoxTable::from_fn(names(&["x", "y"]), vec![2, 3], |p| {
            (p[0] * 10 + p[1]) as u32
        });
        assert_eq!(table.size(), 12);
        assert_eq!(&table.values()[..5], &[0, 1, 2, 3, 10]);
        for i in 0..table.size() {
            assert_eq!(table.index_of(&table.position_of(i)), Some(i));
        }
        assert_eq!(table.get(&[2, 3]), Some(23));
        assert_eq!(table.get(&[3, 0]), None);
        assert_eq!(table.get(&[1]), None);
        assert_eq!(table.max_value(), 23);
    }

    #[test]
    fn nim_on_two_heaps_is_the_xor() {
        // Two-heap Nim: G(x, y) = x ⊕ y (Bouton 1901), P-positions on the diagonal.
        let table = BoxTable::from_fn(names(&["x", "y"]), vec![7, 7], |p| (p[0] ^ p[1]) as u32);
        let p_positions: Vec<_> = table.iter().filter(|(_, v)| *v == 0).collect();
        assert_eq!(p_positions.len(), 8);
        assert!(p_positions.iter().all(|(p, _)| p[0] == p[1]));
    }
}
