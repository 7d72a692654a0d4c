//! Hostile input to `census`: forged and endless shard files, published tables and census rows,
//! a slicing past the census's size, two runs on one shard file, a torn header, and a published
//! period too large to recompute.

use std::path::{Path, PathBuf};

use super::case;

/// FNV-1a, 64 bits: the checksum of a shard line's JSON text (as `census::journal` writes it).
fn fnv64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// A shard file's header line (with its checksum) for slice `index` of `count` of the 1-digit
/// octal census, claiming `codes` codes.
fn header_line(index: u64, count: u64, codes: u64) -> String {
    let json = format!(
        r#"{{"sgscope_census":2,"config":{{"family":"octal","digits":1,"max":65536,"sparse_max":2097152}},"shard":{{"index":{index},"count":{count}}},"codes":{codes}}}"#
    );
    format!("{json} {:016x}\n", fnv64(json.as_bytes()))
}

/// Writes a shard file holding only `header` in `dir`.
fn shard_file(dir: &Path, name: &str, header: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, header).unwrap();
    path
}

fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// A shard index at or past the count, or a count of 0, once panicked indexing the list of
/// slices (exit 101); a count of 10^8 or 10^11 aborted allocating it (4 GB, 2.4 TB).
#[test]
fn a_forged_shard_header_is_a_located_error() {
    let dir = tempfile::tempdir().unwrap();
    for (name, index, count, codes) in [
        ("past.jsonl", 5, 2, 8),
        ("zero.jsonl", 0, 0, 8),
        ("e8.jsonl", 0, 100_000_000, 1),
        ("e11.jsonl", 0, 100_000_000_000, 1),
    ] {
        let path = shard_file(dir.path(), name, &header_line(index, count, codes));
        case(&["census", "merge", text(&path), "-o", "/dev/null"])
            .timeout(30)
            .run()
            .refused(
                1,
                &[
                    &format!("{name}:1:"),
                    "the header claims shard",
                    "delete it",
                ],
            );
    }
    // A header whose code count is not its slice's: records past it would be taken on trust.
    let path = shard_file(dir.path(), "codes.jsonl", &header_line(0, 2, 5));
    case(&["census", "merge", text(&path)])
        .run()
        .refused(1, &["codes.jsonl:1:", "claims 5 codes", "holds 8"]);
}

/// `census merge /dev/zero` read one endless line and aborted; now the first line is read with
/// a cap.
#[test]
fn an_endless_shard_file_is_refused_at_its_first_line() {
    case(&["census", "merge", "/dev/zero"])
        .timeout(30)
        .address_space(1 << 30)
        .run()
        .refused(1, &["/dev/zero:1:", "not a header"]);
}

/// `census compare /dev/zero` and `--census /dev/zero` ran out of memory reading them whole.
#[test]
fn an_endless_table_or_census_is_refused() {
    case(&["census", "compare", "/dev/zero"])
        .timeout(30)
        .address_space(1 << 30)
        .run()
        .refused(1, &["/dev/zero", "larger than 16 MiB"]);
    case(&[
        "census",
        "compare",
        "tests/data/census/winning-ways.txt",
        "--census",
        "/dev/zero",
    ])
    .timeout(30)
    .address_space(1 << 30)
    .run()
    .refused(1, &["/dev/zero:1:", "longer than 65536 bytes"]);
}

/// `--shard 1/99999999999` was accepted: a census has at most as many slices as codes.
#[test]
fn a_slicing_past_the_census_is_refused() {
    case(&[
        "census",
        "octal",
        "--digits",
        "1",
        "--shard",
        "1/99999999999",
    ])
    .timeout(30)
    .run()
    .refused(2, &["--shard 1/99999999999", "16 codes", "N ≤ 16"]);
}

/// Two runs on one shard file interleaved their records; the file is now locked while a run
/// appends, and a second run refuses it, naming the file.
#[test]
fn a_shard_file_in_use_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.jsonl");
    let holder = std::fs::File::create(&path).unwrap();
    holder.lock().unwrap();
    shard_one_of_two(&path).refused(
        1,
        &["s.jsonl", "in use by another run", "another --shard-file"],
    );
    assert_eq!(
        std::fs::read(&path).unwrap(),
        b"",
        "the file was left alone"
    );
    drop(holder);
}

/// A run killed while it wrote the header leaves a torn first line: the message says to delete
/// the file (nothing is lost: no code had finished).
#[test]
fn a_torn_header_says_to_delete_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let line = header_line(0, 2, 8);
    let path = shard_file(dir.path(), "torn.jsonl", &line[..40]);
    shard_one_of_two(&path).refused(1, &["torn.jsonl:1:", "cut short", "delete the file"]);
}

/// Without `--census`, one published period too large to recompute failed the whole
/// comparison; docs/census.md promises a check up to a cap, the rest said to be unchecked.
#[test]
fn a_huge_published_period_is_checked_up_to_the_cap() {
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("published.txt");
    std::fs::write(&table, "0.07 53 34\n0.07 0 100000000000\n").unwrap();
    let run = case(&["census", "compare", text(&table)]).timeout(60).run();
    run.answered();
    assert!(
        run.stdout.contains("unchecked") && run.stdout.contains("0.07 53 34"),
        "{}",
        run.stdout
    );
}

/// `census octal --digits 1 --shard 1/2 --shard-file PATH`, bounded.
fn shard_one_of_two(path: &std::path::Path) -> super::Bounded {
    case(&[
        "census",
        "octal",
        "--digits",
        "1",
        "--shard",
        "1/2",
        "--shard-file",
        text(path),
    ])
    .timeout(60)
    .run()
}
