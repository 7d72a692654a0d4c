//! Integration tests, one binary with modules by theme. They run the `sgscope` binary the way a
//! user would, and check the library against published values.

mod api;
mod architecture;
mod budget;
mod census;
mod census_compare;
mod checkpoint;
mod cli;
mod codegen;
mod codegen_criteria;
mod codegen_sweep;
mod compiled;
mod deploy;
mod errors;
mod examples;
mod explain;
mod graph_files;
mod hackenbush;
mod hostile;
mod known_values;
mod loopy;
mod loopy_cli;
mod many_coordinates;
mod misere;
mod misere_check;
mod misere_contest;
mod multi;
mod play;
mod readme;
mod solve_misere;
mod solve_moves;
mod solve_sums;
mod support;
mod sweep;
mod value_rules;
