//! `sg(n, k, …)` for a sweep ([`crate::sweep`]): one lookup function with the swept
//! parameters as arguments, valid on the swept instances only.
//!
//! * The instances the fitted formula of `G` covers ([`Quantity::G`]) are computed by it, in
//!   exact 64-bit integer arithmetic: `n % (k + 1)`, `(n / d) % m`, its pieces chosen by their
//!   conditions (`L < R`, `b` an odd multiple of `a`, `k ≡ 1 (mod 2)`), in the order the fit
//!   gives them (the first whose condition holds).
//! * Every other instance is looked up in the table `T`: `G(0..n0 + p)` and its period when
//!   that period is proved (exact for every `n`), else the values computed `G(0..=N)` and a
//!   refusal past `N`; an instance with no result is refused.
//! * Parameters outside the swept instances are refused: the guard re-checks the ranges, each
//!   bound (affine in the parameters before it) in the order they were given, so the values
//!   it accepts are exactly the instances swept. Nothing is extrapolated in the parameters.
//!
//! The header says what is observed (the formula, on the swept instances and every value
//! computed there) and what is proved (each covered instance's formula for every `n`, when
//! its period is proved by the periodicity theorem and the check covers a common period).
//!
//! Arithmetic: the parameters accepted are at most 2^31 in absolute value and every affine
//! coefficient is small (both checked before writing), so every bound, constant and modulus
//! stays far below 2^62; `n` itself (below 2^63) only meets `%` and `/` by a positive constant.

use std::fmt::Write as _;

use super::boxed::RESERVED;
use super::{docstring, one_line, preamble, Lang, Stored};
use crate::export::ExportError;
use crate::sweep::ranges::{Bound, Values};
use crate::sweep::shapes::{self, kind};
use crate::sweep::{Affine, Condition, Fit, ParamRange, Quantity, SweepReport};

/// The largest absolute value of a swept parameter the code accepts.
pub const PARAM_LIMIT: i64 = 1 << 31;

/// What the snippet of a sweep is written from.
pub struct SweepCode<'a> {
    /// The finished sweep.
    pub report: &'a SweepReport,
    /// Its ranges, as parsed (the guard re-checks them).
    pub ranges: &'a [ParamRange],
    /// The values computed, `G(0..=N)`, of each instance [`tables_needed`] names (by index
    /// into the report's instances).
    pub computed: &'a [(usize, Vec<u32>)],
}

/// The instances (indices) whose snippet needs the values computed: not covered by the
/// formula of `G`, with a result but no proved period to tabulate from.
pub fn tables_needed(report: &SweepReport) -> Vec<usize> {
    let covered = covered_by_formula(report);
    (0..report.instances.len())
        .filter(|i| !covered.contains(i))
        .filter(|&i| match &report.instances[i].result {
            Ok(summary) => summary.proved_values.is_none() && summary.report.values_computed > 0,
            Err(_) => false,
        })
        .collect()
}

/// The instances the snippet computes by the formula of `G` (the fit's covered instances,
/// when every piece of it is one the code writes).
pub fn covered_by_formula(report: &SweepReport) -> Vec<usize> {
    let g = report.formula(Quantity::G);
    match &g.fit {
        Some(fit) if writable(fit) => g.covered.clone(),
        _ => Vec::new(),
    }
}

/// Whether every piece of `fit` is a kind the code writes, with coefficients small enough.
fn writable(fit: &Fit) -> bool {
    fit.pieces.iter().all(|piece| {
        let kind_ok = matches!(
            (piece.kind, piece.constants.len()),
            (kind::CONSTANT, 1)
                | (kind::IDENTITY, 0)
                | (kind::MOD, 1)
                | (kind::DIV, 1)
                | (kind::DIV_MOD, 2)
        );
        kind_ok
            && piece
                .constants
                .iter()
                .all(|a| small(a.constant, &a.coefficients))
            && condition_small(&piece.condition)
    })
}

/// `|c₀| + Σ |cᵢ|·2^31 < 2^62`: the affine value and every partial sum fit in 64 bits.
fn small(constant: i64, coefficients: &[i64]) -> bool {
    let total: i128 = i128::from(constant).abs()
        + coefficients
            .iter()
            .map(|c| i128::from(*c).abs() * i128::from(PARAM_LIMIT))
            .sum::<i128>();
    total < 1i128 << 62
}

fn condition_small(condition: &Condition) -> bool {
    match condition {
        Condition::Multiple { modulus, .. } => small(0, &[*modulus, 1]),
        Condition::Residue { modulus, .. } => *modulus > 0 && small(*modulus, &[]),
        Condition::Not { condition: inner } => condition_small(inner),
        _ => true,
    }
}

/// How the code finds one instance not covered by the formula.
enum Fallback {
    /// `T[offset..offset + pre + period]`: `G(0..pre + period)`, the period proved.
    Periodic {
        offset: usize,
        pre: usize,
        period: usize,
    },
    /// `T[offset..offset + len]`: the values computed; nothing past them.
    Computed { offset: usize, len: usize },
    /// No result: refused.
    Refused,
}

/// The snippet, decided: names, the table, the pieces and the fallbacks.
struct Plan<'a> {
    /// The parameters' names in the code (the rules' names, or `p0`, `p1`, … when one is not
    /// an identifier in every language).
    names: Vec<String>,
    ranges: &'a [ParamRange],
    pieces: Vec<&'a crate::sweep::Piece>,
    fallbacks: Vec<(&'a [i64], Fallback)>,
    stored: Stored,
    /// The ranges as written, `k=1..=50, …`, in the code's names.
    swept: String,
}

/// The lookup snippet of a sweep (see the module docs). Fails when a parameter or a bound is
/// past the 64-bit arithmetic's limits, when the formula contradicts an instance's own
/// shape, or when the values of an instance [`tables_needed`] names are missing.
pub fn generate_sweep(lang: Lang, code: &SweepCode) -> Result<String, ExportError> {
    let plan = Plan::new(code)?;
    let mut out = String::new();
    if plan.stored.values.is_empty() {
        header_only(&mut out, lang, &plan.stored);
    } else {
        preamble(&mut out, lang, &plan.stored);
    }
    plan.write_sg(&mut out, lang);
    Ok(out)
}

fn invalid(message: String) -> ExportError {
    ExportError::SweepCode { message }
}

/// The header and what opens the code when there is no table.
fn header_only(out: &mut String, lang: Lang, stored: &Stored) {
    let marker = if lang == Lang::Python { "#" } else { "//" };
    for line in &stored.header {
        let _ = writeln!(out, "{marker} {line}");
    }
    match lang {
        Lang::Cpp => {
            out.push_str("#include <cstdint>\n#include <stdexcept>\n#include <string>\n\n")
        }
        Lang::Java => out.push_str("final class Sg {\n    private Sg() {}\n"),
        Lang::Python | Lang::Rust => out.push('\n'),
    }
}

/// `k=3` or `a=1, b=2`: one instance, in `names`.
fn instance_text(names: &[String], params: &[i64]) -> String {
    names
        .iter()
        .zip(params)
        .map(|(name, value)| format!("{name}={value}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `items` joined by `separator` into lines of at most about 92 characters, the first
/// starting with `lead`.
fn wrap_list(lead: &str, items: &[String], separator: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = lead.to_string();
    for (i, item) in items.iter().enumerate() {
        let piece = if i + 1 < items.len() {
            format!("{item}{separator}")
        } else {
            format!("{item}.")
        };
        if line.len() + piece.len() > 92 && line != lead {
            lines.push(line.trim_end().to_string());
            line = "  ".to_string();
        }
        line.push_str(&piece);
    }
    lines.push(line.trim_end().to_string());
    lines
}

/// The names the code gives the parameters.
fn code_names(names: &[String]) -> Vec<String> {
    let usable = |name: &str| {
        let mut chars = name.chars();
        chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !RESERVED.contains(&name)
            && !["n", "sg", "sg_rem", "Sg", "Math", "std", "abs"].contains(&name)
    };
    let distinct = names
        .iter()
        .enumerate()
        .all(|(i, n)| !names[..i].contains(n));
    if distinct && names.iter().all(|n| usable(n)) {
        names.to_vec()
    } else {
        (0..names.len()).map(|i| format!("p{i}")).collect()
    }
}

impl<'a> Plan<'a> {
    fn new(code: &SweepCode<'a>) -> Result<Self, ExportError> {
        let report = code.report;
        if code.ranges.len() != report.names.len()
            || code
                .ranges
                .iter()
                .zip(&report.names)
                .any(|(r, n)| &r.name != n)
        {
            return Err(invalid(
                "the ranges given are not the sweep's own".to_string(),
            ));
        }
        for instance in &report.instances {
            if let Some(p) = instance.params.iter().find(|p| p.abs() > PARAM_LIMIT) {
                return Err(invalid(format!(
                    "a swept value {p} is past ±2^31, beyond what the lookup code's 64-bit arithmetic is written for"
                )));
            }
        }
        for range in code.ranges {
            let bounds: Vec<&Bound> = match &range.values {
                Values::Span { lo, hi, .. } => vec![lo, hi],
                Values::List(list) => list.iter().collect(),
            };
            for bound in bounds {
                let coefficients: Vec<i64> = bound.terms.iter().map(|(c, _)| *c).collect();
                if !small(bound.constant, &coefficients) {
                    return Err(invalid(format!(
                        "the bound {bound} of {} is too large for the lookup code's 64-bit arithmetic",
                        range.name
                    )));
                }
            }
        }
        let names = code_names(&report.names);
        let math = &report.names;
        let g = report.formula(Quantity::G);
        let covered = covered_by_formula(report);
        let fit = g.fit.as_ref().filter(|_| !covered.is_empty());
        // Each covered instance: its piece's constants at its parameters are its own shape.
        if let Some(fit) = fit {
            for &i in &covered {
                let instance = &report.instances[i];
                let own = instance
                    .result
                    .as_ref()
                    .ok()
                    .and_then(|s| s.g_form.as_ref())
                    .map(|f| &f.shape);
                let piece = fit.piece(&instance.params);
                let agrees = match (own, piece) {
                    (Some(own), Some(piece)) => {
                        piece.kind == own.kind
                            && piece
                                .constants
                                .iter()
                                .map(|a| a.eval(&instance.params))
                                .collect::<Vec<_>>()
                                == own.constants.iter().map(|c| Some(*c)).collect::<Vec<_>>()
                    }
                    _ => false,
                };
                if !agrees {
                    return Err(invalid(format!(
                        "the formula of G contradicts the instance {}",
                        instance_text(math, &instance.params)
                    )));
                }
            }
        }
        let mut values: Vec<u32> = Vec::new();
        let mut fallbacks = Vec::new();
        let (mut periodic, mut computed, mut refused) = (Vec::new(), Vec::new(), Vec::new());
        for (i, instance) in report.instances.iter().enumerate() {
            if covered.contains(&i) {
                continue;
            }
            let text = instance_text(math, &instance.params);
            let fallback = match &instance.result {
                Err(error) => {
                    refused.push(format!("{text} ({})", one_line(&error.to_string())));
                    Fallback::Refused
                }
                Ok(summary) => match (
                    &summary.proved_values,
                    summary.report.preperiod,
                    summary.report.period,
                ) {
                    (Some(t), Some(pre), Some(period)) if t.len() == pre + period => {
                        let offset = values.len();
                        values.extend(t);
                        periodic.push(format!("{text} (period {period} from n = {pre})"));
                        Fallback::Periodic {
                            offset,
                            pre,
                            period,
                        }
                    }
                    _ if summary.report.values_computed == 0 => {
                        refused.push(format!("{text} (no value computed)"));
                        Fallback::Refused
                    }
                    _ => {
                        let t = code
                            .computed
                            .iter()
                            .find(|(j, _)| *j == i)
                            .map(|(_, t)| t)
                            .filter(|t| !t.is_empty())
                            .ok_or_else(|| {
                                invalid(format!(
                                    "the values computed of the instance {text} are missing"
                                ))
                            })?;
                        let offset = values.len();
                        values.extend(t);
                        computed.push(format!("{text} (G(0..={}))", t.len() - 1));
                        Fallback::Computed {
                            offset,
                            len: t.len(),
                        }
                    }
                },
            };
            fallbacks.push((instance.params.as_slice(), fallback));
        }
        let swept = code
            .ranges
            .iter()
            .map(ParamRange::describe)
            .collect::<Vec<_>>()
            .join(", ");
        let count = report.instances.len();
        let mut about = Vec::new();
        match fit {
            Some(fit) => {
                let form = |piece: &crate::sweep::Piece| {
                    format!(
                        "G(n) = {}",
                        shapes::render(piece.kind, &piece.constants, math)
                    )
                };
                if fit.pieces.len() == 1 && fit.pieces[0].condition == Condition::Always {
                    let on = if covered.len() == count {
                        format!("all {count} instances")
                    } else {
                        format!("{} of the {count} instances", covered.len())
                    };
                    about.push(format!("{} on {on}.", form(&fit.pieces[0])));
                } else {
                    about.push(format!(
                        "On {} of the {count} instances, in pieces (the first whose condition holds):",
                        covered.len()
                    ));
                    for piece in &fit.pieces {
                        about.push(format!(
                            "  {} if {}",
                            form(piece),
                            piece.condition.render(math)
                        ));
                    }
                }
                about.push(format!(
                    "Observed on the swept instances, checked on every value computed (at least G(0..={}) on each);",
                    report.max
                ));
                about.push("NOT proved for other parameter values.".to_string());
                let observed_only: Vec<String> = covered
                    .iter()
                    .filter(|&&i| {
                        !report.instances[i]
                            .result
                            .as_ref()
                            .ok()
                            .and_then(|s| s.g_form.as_ref())
                            .is_some_and(|f| f.every_n)
                    })
                    .map(|&i| instance_text(math, &report.instances[i].params))
                    .collect();
                if observed_only.is_empty() {
                    about.push(
                        "Proved for every n on each instance it covers: each one's period is proved by the"
                            .to_string(),
                    );
                    about.push(
                        "periodicity theorem and the check covers a common period of it and the formula."
                            .to_string(),
                    );
                } else {
                    about.push(format!(
                        "Proved for every n on {} of the instances it covers (period proved by the periodicity",
                        covered.len() - observed_only.len()
                    ));
                    about.push(
                        "theorem, the check covering a common period); NOT proved past the values computed,"
                            .to_string(),
                    );
                    about.extend(wrap_list(
                        "where sg extrapolates the formula, on: ",
                        &observed_only,
                        "; ",
                    ));
                }
            }
            None => about.push(format!(
                "No formula of G(n) in the parameters covers these {count} instances: each is looked up in T."
            )),
        }
        if !periodic.is_empty() {
            about.extend(wrap_list(
                "In T with its proved period (exact for every n): ",
                &periodic,
                "; ",
            ));
        }
        if !computed.is_empty() {
            about.extend(wrap_list(
                "In T as computed, period NOT proved (sg fails past the table): ",
                &computed,
                "; ",
            ));
        }
        if !refused.is_empty() {
            about.extend(wrap_list("No result, refused by sg: ", &refused, "; "));
        }
        about.push(format!(
            "sg refuses parameters outside the swept instances ({swept}): nothing is extrapolated to them."
        ));
        let domain = format!(
            ", swept over {} ({count} instances)",
            report.ranges.join(", ")
        );
        let stored = Stored::new(values, &report.game, "n", &domain, about);
        Ok(Plan {
            names,
            ranges: code.ranges,
            pieces: fit.map(|f| f.pieces.iter().collect()).unwrap_or_default(),
            fallbacks,
            stored,
            swept: code
                .ranges
                .iter()
                .zip(code_names(&report.names))
                .map(|(range, name)| {
                    let text = range.describe();
                    let (_, values) = text.split_once('=').expect("NAME=VALUES");
                    format!("{name}={values}")
                })
                .collect::<Vec<_>>()
                .join(", "),
        })
    }

    fn write_sg(&self, out: &mut String, lang: Lang) {
        let s = Syntax::of(lang);
        let game = &self.stored.game;
        let params = self.names.join(", ");
        let ind = s.indent;
        let uses_rem = lang == Lang::Cpp && self.pieces.iter().any(|p| needs_rem(&p.condition));
        if uses_rem {
            out.push_str(
                "// x mod |m|, in [0, |m|): the conditions of sg reduce by it.\n\
                 inline std::int64_t sg_rem(std::int64_t x, std::int64_t m) {\n    \
                 const std::int64_t r = x % m;\n    return r < 0 ? r + (m < 0 ? -m : m) : r;\n}\n\n",
            );
        }
        let doc = format!("G(n) of {game} for the swept parameters {params}; fails outside them.");
        let signature = match lang {
            Lang::Cpp => {
                let args: Vec<String> = std::iter::once("n")
                    .chain(self.names.iter().map(String::as_str))
                    .map(|a| format!("std::int64_t {a}"))
                    .collect();
                format!("// {doc}\ninline std::int64_t sg({}) {{\n", args.join(", "))
            }
            Lang::Java => {
                let args: Vec<String> = std::iter::once("n")
                    .chain(self.names.iter().map(String::as_str))
                    .map(|a| format!("long {a}"))
                    .collect();
                format!(
                    "\n    /** {} */\n    static long sg({}) {{\n",
                    doc.replace("*/", "* /"),
                    args.join(", ")
                )
            }
            Lang::Rust => {
                let args: Vec<String> = std::iter::once("n")
                    .chain(self.names.iter().map(String::as_str))
                    .map(|a| format!("{a}: i64"))
                    .collect();
                format!("/// {doc}\npub fn sg({}) -> i64 {{\n", args.join(", "))
            }
            Lang::Python => {
                let args: Vec<String> = std::iter::once("n")
                    .chain(self.names.iter().map(String::as_str))
                    .map(|a| format!("{a}: int"))
                    .collect();
                format!(
                    "def sg({}) -> int:\n    \"\"\"{}\"\"\"\n",
                    args.join(", "),
                    docstring(&doc)
                )
            }
        };
        out.push_str(&signature);
        s.fail_if(out, ind, "n < 0", s.negative, "sg: n = {n} is negative");
        // The ranges, in order: the values accepted are exactly the instances swept.
        let all: Vec<String> = self.names.iter().map(|n| format!("{n}={{{n}}}")).collect();
        let outside = format!(
            "sg: {} is not a swept instance ({})",
            all.join(", "),
            self.swept
        );
        for (range, name) in self.ranges.iter().zip(&self.names) {
            let inside = match &range.values {
                Values::Span { lo, hi, inclusive } => {
                    let lt = if *inclusive { "<=" } else { "<" };
                    format!(
                        "{} <= {name} {} {name} {lt} {}",
                        self.bound(lo, lang),
                        s.and,
                        self.bound(hi, lang)
                    )
                }
                Values::List(list) => list
                    .iter()
                    .map(|b| format!("{name} == {}", self.bound(b, lang)))
                    .collect::<Vec<_>>()
                    .join(&format!(" {} ", s.or)),
            };
            let cond = format!("{}({inside})", s.not);
            s.fail_if(out, ind, &cond, s.outside, &outside);
        }
        for (params, fallback) in &self.fallbacks {
            let matches = self
                .names
                .iter()
                .zip(params.iter())
                .map(|(name, v)| format!("{name} == {}", s.literal(*v)))
                .collect::<Vec<_>>()
                .join(&format!(" {} ", s.and));
            let text = instance_text(&self.names, params);
            match fallback {
                Fallback::Refused => {
                    let message = format!("sg: {text} has no result in the sweep (see the header)");
                    s.fail_if(out, ind, &matches, s.outside, &message);
                }
                Fallback::Periodic {
                    offset,
                    pre,
                    period,
                } => {
                    s.open_if(out, ind, &matches);
                    let inner = s.inner(ind);
                    let head = pre + period;
                    s.return_if(
                        out,
                        &inner,
                        &format!("n < {head}"),
                        &s.lookup(&plus(*offset, "n")),
                    );
                    let cycle = if *pre == 0 {
                        format!("n % {period}")
                    } else {
                        format!("(n - {pre}) % {period}")
                    };
                    let _ = writeln!(
                        out,
                        "{inner}{}{}{}",
                        s.ret,
                        s.lookup(&plus(offset + pre, &cycle)),
                        s.end
                    );
                    s.close_if(out, ind);
                }
                Fallback::Computed { offset, len } => {
                    s.open_if(out, ind, &matches);
                    let inner = s.inner(ind);
                    s.return_if(
                        out,
                        &inner,
                        &format!("n < {len}"),
                        &s.lookup(&plus(*offset, "n")),
                    );
                    let message = format!(
                        "sg: n = {{n}} is beyond the table of {text} (0..={}) and its period is not proved",
                        len - 1
                    );
                    s.fail(out, &inner, s.outside, &message);
                    s.close_if(out, ind);
                }
            }
        }
        let mut ended = false;
        for piece in &self.pieces {
            let value = self.shape_expr(piece.kind, &piece.constants, lang);
            if piece.condition == Condition::Always {
                if lang == Lang::Rust {
                    let _ = writeln!(out, "{ind}{value}");
                } else {
                    let _ = writeln!(out, "{ind}{}{value}{}", s.ret, s.end);
                }
                ended = true;
                break;
            }
            let cond = self.condition(&piece.condition, lang);
            s.return_if(out, ind, &cond, &value);
        }
        if !ended {
            let message = format!(
                "sg: {} is covered by no formula or table (see the header)",
                all.join(", ")
            );
            s.fail(out, ind, s.outside, &message);
        }
        out.push_str(s.close);
    }

    /// A bound in the code: `c₀ + Σ cᵢ·pᵢ`, in the order [`Bound`]'s own evaluation sums.
    fn bound(&self, bound: &Bound, lang: Lang) -> String {
        let s = Syntax::of(lang);
        let mut text = s.literal(bound.constant);
        if bound.terms.is_empty() {
            return text;
        }
        let index = |name: &str| {
            self.ranges
                .iter()
                .position(|r| r.name == name)
                .expect("a bound names a parameter swept before")
        };
        let mut first = bound.constant == 0;
        if first {
            text.clear();
        }
        for (c, name) in &bound.terms {
            let name = &self.names[index(name)];
            let term = match c.unsigned_abs() {
                1 => name.clone(),
                m => format!("{} * {name}", s.literal(m as i64)),
            };
            if first {
                text = if *c < 0 { format!("-{term}") } else { term };
                first = false;
            } else {
                let sign = if *c < 0 { "-" } else { "+" };
                text = format!("{text} {sign} {term}");
            }
        }
        text
    }

    /// An affine function of the parameters in the code.
    fn affine(&self, a: &Affine, lang: Lang) -> String {
        let s = Syntax::of(lang);
        let mut text = String::new();
        for (c, name) in a.coefficients.iter().zip(&self.names) {
            if *c == 0 {
                continue;
            }
            let term = match c.unsigned_abs() {
                1 => name.clone(),
                m => format!("{} * {name}", s.literal(m as i64)),
            };
            text = match (text.is_empty(), *c < 0) {
                (true, false) => term,
                (true, true) => format!("-{term}"),
                (false, false) => format!("{text} + {term}"),
                (false, true) => format!("{text} - {term}"),
            };
        }
        match (text.is_empty(), a.constant) {
            (true, c) => s.literal(c),
            (false, 0) => text,
            (false, c) if c < 0 => format!("{text} - {}", s.literal(c.saturating_neg())),
            (false, c) => format!("{text} + {}", s.literal(c)),
        }
    }

    /// An affine function as an operand: in parentheses unless a single name or literal.
    fn operand(&self, a: &Affine, lang: Lang) -> String {
        let text = self.affine(a, lang);
        let terms = a.coefficients.iter().filter(|&&c| c != 0).count();
        let single = (terms == 0 && a.constant >= 0)
            || (terms == 1 && a.constant == 0 && a.coefficients.iter().all(|&c| c == 0 || c == 1));
        if single {
            text
        } else {
            format!("({text})")
        }
    }

    /// `G(n)` of a piece.
    fn shape_expr(&self, kind: &str, constants: &[Affine], lang: Lang) -> String {
        let div = if lang == Lang::Python { "//" } else { "/" };
        match (kind, constants) {
            (kind::CONSTANT, [c]) => self.affine(c, lang),
            (kind::IDENTITY, _) => "n".to_string(),
            (kind::MOD, [m]) => format!("n % {}", self.operand(m, lang)),
            (kind::DIV, [d]) => format!("n {div} {}", self.operand(d, lang)),
            (kind::DIV_MOD, [d, m]) => {
                format!(
                    "(n {div} {}) % {}",
                    self.operand(d, lang),
                    self.operand(m, lang)
                )
            }
            _ => unreachable!("only writable kinds are written"),
        }
    }

    /// A condition on the parameters, as [`Condition::holds`] decides it.
    fn condition(&self, condition: &Condition, lang: Lang) -> String {
        let s = Syntax::of(lang);
        let name = |i: &usize| self.names[*i].clone();
        match condition {
            Condition::Always => s.truth.to_string(),
            Condition::Less { left, right } => format!("{} < {}", name(left), name(right)),
            Condition::Equal { left, right } => format!("{} == {}", name(left), name(right)),
            Condition::Is { param, value } => format!("{} == {}", name(param), s.literal(*value)),
            Condition::Residue {
                param,
                modulus,
                residue,
            } => format!(
                "{} == {}",
                s.rem_positive(&name(param), &s.literal(*modulus)),
                s.literal(*residue)
            ),
            Condition::Multiple {
                base,
                multiple,
                modulus,
                residue,
            } => {
                let b = name(base);
                let m = if *modulus == 1 {
                    b.clone()
                } else {
                    format!("{} * {b}", s.literal(*modulus))
                };
                let right = match residue {
                    0 => "0".to_string(),
                    1 => s.rem(&b, &m),
                    r => format!("{} * ({})", s.literal(*r), s.rem(&b, &m)),
                };
                format!(
                    "{b} != 0 {} {} == {right}",
                    s.and,
                    s.rem(&name(multiple), &m)
                )
            }
            Condition::Not { condition: inner } => {
                format!("{}({})", s.not, self.condition(inner, lang))
            }
        }
    }
}

fn needs_rem(condition: &Condition) -> bool {
    match condition {
        Condition::Residue { .. } | Condition::Multiple { .. } => true,
        Condition::Not { condition: inner } => needs_rem(inner),
        _ => false,
    }
}

/// `offset + expr`, or `expr` alone when the offset is 0.
fn plus(offset: usize, expr: &str) -> String {
    if offset == 0 {
        expr.to_string()
    } else {
        format!("{offset} + {expr}")
    }
}

/// How each language spells the statements of `sg`.
struct Syntax {
    lang: Lang,
    indent: &'static str,
    and: &'static str,
    or: &'static str,
    not: &'static str,
    truth: &'static str,
    ret: &'static str,
    end: &'static str,
    negative: &'static str,
    outside: &'static str,
    close: &'static str,
}

impl Syntax {
    fn of(lang: Lang) -> Syntax {
        let c = Syntax {
            lang,
            indent: "    ",
            and: "&&",
            or: "||",
            not: "!",
            truth: "true",
            ret: "return ",
            end: ";",
            negative: "std::invalid_argument",
            outside: "std::out_of_range",
            close: "}\n",
        };
        match lang {
            Lang::Cpp => c,
            Lang::Java => Syntax {
                indent: "        ",
                negative: "IllegalArgumentException",
                outside: "IndexOutOfBoundsException",
                close: "    }\n}\n",
                ..c
            },
            Lang::Rust => Syntax {
                negative: "",
                outside: "",
                ..c
            },
            Lang::Python => Syntax {
                and: "and",
                or: "or",
                not: "not ",
                truth: "True",
                end: "",
                negative: "ValueError",
                outside: "IndexError",
                close: "",
                ..c
            },
        }
    }

    fn inner(&self, indent: &str) -> String {
        format!("{indent}    ")
    }

    /// An integer literal (Java marks those past `int` with `L`).
    fn literal(&self, value: i64) -> String {
        if self.lang == Lang::Java && i32::try_from(value).is_err() {
            format!("{value}L")
        } else {
            value.to_string()
        }
    }

    /// `x mod |m|` in `[0, |m|)`.
    fn rem(&self, x: &str, m: &str) -> String {
        match self.lang {
            Lang::Cpp => format!("sg_rem({x}, {m})"),
            Lang::Java => format!("Math.floorMod({x}, Math.abs({m}))"),
            Lang::Rust => format!("{x}.rem_euclid({m})"),
            Lang::Python => format!("{x} % abs({m})"),
        }
    }

    /// `x mod m` in `[0, m)` for a positive literal `m`.
    fn rem_positive(&self, x: &str, m: &str) -> String {
        match self.lang {
            Lang::Java => format!("Math.floorMod({x}, {m})"),
            Lang::Python => format!("{x} % {m}"),
            _ => self.rem(x, m),
        }
    }

    /// The table entry at `index`, as an `i64` / `long` / `int`.
    fn lookup(&self, index: &str) -> String {
        let atom = index.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        match self.lang {
            Lang::Rust if atom => format!("i64::from(SG_TABLE[{index} as usize])"),
            lang => lang.lookup(index),
        }
    }

    fn open_if(&self, out: &mut String, indent: &str, cond: &str) {
        let _ = match self.lang {
            Lang::Python => writeln!(out, "{indent}if {cond}:"),
            Lang::Rust => writeln!(out, "{indent}if {cond} {{"),
            Lang::Cpp | Lang::Java => writeln!(out, "{indent}if ({cond}) {{"),
        };
    }

    fn close_if(&self, out: &mut String, indent: &str) {
        if self.lang != Lang::Python {
            let _ = writeln!(out, "{indent}}}");
        }
    }

    fn return_if(&self, out: &mut String, indent: &str, cond: &str, value: &str) {
        let _ = match self.lang {
            Lang::Python => writeln!(out, "{indent}if {cond}:\n{indent}    return {value}"),
            Lang::Rust => writeln!(
                out,
                "{indent}if {cond} {{\n{indent}    return {value};\n{indent}}}"
            ),
            Lang::Cpp | Lang::Java => writeln!(out, "{indent}if ({cond}) return {value};"),
        };
    }

    /// Fails with `message` (a template of [`Lang::message`]).
    fn fail(&self, out: &mut String, indent: &str, exception: &str, message: &str) {
        let text = self.lang.message(message);
        let _ = match self.lang {
            Lang::Python => writeln!(out, "{indent}raise {exception}({text})"),
            Lang::Rust => writeln!(out, "{indent}panic!({text});"),
            Lang::Cpp => writeln!(out, "{indent}throw {exception}({text});"),
            Lang::Java => writeln!(out, "{indent}throw new {exception}({text});"),
        };
    }

    fn fail_if(&self, out: &mut String, indent: &str, cond: &str, exception: &str, message: &str) {
        let text = self.lang.message(message);
        let _ = match self.lang {
            Lang::Python => writeln!(
                out,
                "{indent}if {cond}:\n{indent}    raise {exception}({text})"
            ),
            Lang::Rust => writeln!(
                out,
                "{indent}if {cond} {{\n{indent}    panic!({text});\n{indent}}}"
            ),
            Lang::Cpp => writeln!(out, "{indent}if ({cond}) throw {exception}({text});"),
            Lang::Java => writeln!(out, "{indent}if ({cond}) throw new {exception}({text});"),
        };
    }
}

#[cfg(test)]
mod tests {
    //! A synthetic sweep whose formula has pieces under every kind of condition (`a = b`, an
    //! odd multiple, a divisor, a residue), with instances left to a proved period, to the
    //! values computed and to an error: the code is compiled and run in every language and
    //! must give each instance's own values, refuse past a table, refuse the instance with no
    //! result, and refuse parameters outside the ranges.

    use super::super::tests::{assert_no_main, run};
    use super::super::{test_each_language, Lang};
    use super::*;
    use crate::analysis::report_for_table;
    use crate::engine::SgTable;
    use crate::sweep::{Found, Instance, InstanceError, Piece, QuantityFit, Shape, Summary};

    fn affine(constant: i64, a: i64, b: i64) -> Affine {
        Affine {
            constant,
            coefficients: vec![a, b],
        }
    }

    /// The pieces, first match: `a = b`: `G = a`; `b` an odd multiple of `a`: `n mod 2a`;
    /// `a` does not divide `b`: `⌊n/a⌋ mod (b + 10)`; `b ≡ 2 (mod 3)`: `⌊n/(b + 5)⌋`.
    fn fit() -> Fit {
        let piece = |condition, kind, constants| Piece {
            condition,
            kind,
            constants,
            instances: 3,
        };
        let multiple = |modulus, residue| Condition::Multiple {
            base: 0,
            multiple: 1,
            modulus,
            residue,
        };
        Fit {
            pieces: vec![
                piece(
                    Condition::Equal { left: 0, right: 1 },
                    kind::CONSTANT,
                    vec![affine(0, 1, 0)],
                ),
                piece(multiple(2, 1), kind::MOD, vec![affine(0, 2, 0)]),
                piece(
                    Condition::Not {
                        condition: Box::new(multiple(1, 0)),
                    },
                    kind::DIV_MOD,
                    vec![affine(0, 1, 0), affine(10, 0, 1)],
                ),
                piece(
                    Condition::Residue {
                        param: 1,
                        modulus: 3,
                        residue: 2,
                    },
                    kind::DIV,
                    vec![affine(5, 0, 1)],
                ),
            ],
            uncovered: Vec::new(),
        }
    }

    /// What an instance is in the synthetic sweep.
    enum Case {
        Formula(Shape),
        Periodic(Vec<u32>),
        Computed(Vec<u32>),
        Error,
    }

    fn cases() -> (Vec<ParamRange>, Vec<(Vec<i64>, Case)>) {
        let ranges =
            ParamRange::parse_all(&["a=1..=4".to_string(), "b=a-3..=7".to_string()]).unwrap();
        let instances = crate::sweep::ranges::instances(&ranges).unwrap();
        let fit = fit();
        let mut left = 0;
        let cases = instances
            .into_iter()
            .map(|params| {
                let case = match fit.piece(&params) {
                    Some(piece) => Case::Formula(Shape {
                        kind: piece.kind,
                        constants: piece
                            .constants
                            .iter()
                            .map(|a| a.eval(&params).unwrap())
                            .collect(),
                    }),
                    None => {
                        left += 1;
                        let seed = (params[0] * 7 + params[1] * 3).unsigned_abs() as u32;
                        match left % 3 {
                            0 => Case::Error,
                            1 => {
                                Case::Periodic((0..seed % 5 + 3).map(|i| (i * seed) % 4).collect())
                            }
                            _ => Case::Computed((0..40).map(|i| (i + seed) % 6).collect()),
                        }
                    }
                };
                (params, case)
            })
            .collect();
        (ranges, cases)
    }

    /// `sg(n, params)` as the sweep says, `None` where the code must refuse.
    fn expected(cases: &[(Vec<i64>, Case)], n: u64, params: &[i64]) -> Option<u64> {
        let (_, case) = cases.iter().find(|(p, _)| p == params)?;
        match case {
            Case::Formula(shape) => shapes::eval(shape.kind, &shape.constants, n),
            // Purely periodic: the whole table is one period from 0.
            Case::Periodic(t) => Some(u64::from(t[(n % t.len() as u64) as usize])),
            Case::Computed(t) => t.get(n as usize).map(|&v| u64::from(v)),
            Case::Error => None,
        }
    }

    fn synthetic(cases: &[(Vec<i64>, Case)]) -> (SweepReport, Vec<(usize, Vec<u32>)>) {
        let mut computed = Vec::new();
        let mut covered = Vec::new();
        let mut missing = Vec::new();
        let instances = cases
            .iter()
            .enumerate()
            .map(|(i, (params, case))| {
                let table = SgTable::from_values(&[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
                let mut summary =
                    crate::sweep::summarize(&table, report_for_table("t", None, &table));
                summary.g_form = None;
                summary.proved_values = None;
                let result = match case {
                    Case::Formula(shape) => {
                        covered.push(i);
                        summary.g_form = Some(Found {
                            shape: shape.clone(),
                            every_n: i % 5 != 0,
                        });
                        Ok(summary)
                    }
                    Case::Periodic(t) => {
                        missing.push(i);
                        summary.proved_values = Some(t.clone());
                        summary.report.preperiod = Some(0);
                        summary.report.period = Some(t.len());
                        Ok(summary)
                    }
                    Case::Computed(t) => {
                        missing.push(i);
                        summary.report.values_computed = t.len();
                        computed.push((i, t.clone()));
                        Ok(summary)
                    }
                    Case::Error => {
                        missing.push(i);
                        Err(InstanceError::NotAHeapGame)
                    }
                };
                let result: Result<Summary, InstanceError> = result;
                Instance {
                    params: params.clone(),
                    result,
                }
            })
            .collect();
        let g = QuantityFit {
            quantity: Quantity::G,
            fit: Some(fit()),
            missing,
            covered,
            every_n: false,
        };
        let report = SweepReport {
            positions: Vec::new(),
            game: "synthetic".to_string(),
            names: vec!["a".to_string(), "b".to_string()],
            ranges: vec!["a=1..=4".to_string(), "b=a-3..=7".to_string()],
            instances,
            formulas: vec![g],
            max: 9,
        };
        (report, computed)
    }

    fn harness(lang: Lang, snippet: &str, tuples: &[Vec<i64>], ns: &[i64]) -> String {
        let list = |open: &str, close: &str, suffix: &str| {
            tuples
                .iter()
                .map(|t| format!("{open}{}{suffix}, {}{suffix}{close}", t[0], t[1]))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let ns_list = |suffix: &str| {
            ns.iter()
                .map(|n| format!("{n}{suffix}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match lang {
            Lang::Cpp => format!(
                "{snippet}\n#include <cstdio>\nint sg_run() {{\n    static const long long T[][2] = {{{}}};\n    static const long long N[] = {{{}}};\n    for (const auto& t : T) for (long long n : N) {{\n        try {{ std::printf(\"%lld\\n\", (long long) sg(n, t[0], t[1])); }}\n        catch (const std::out_of_range&) {{ std::puts(\"refused\"); }}\n    }}\n    return 0;\n}}\nint main() {{ return sg_run(); }}\n",
                list("{", "}", "LL"),
                ns_list("LL")
            ),
            Lang::Python => format!(
                "{snippet}\nfor t in [{}]:\n    for n in [{}]:\n        try:\n            print(sg(n, *t))\n        except IndexError:\n            print('refused')\n",
                list("(", ")", ""),
                ns_list("")
            ),
            Lang::Rust => format!(
                "{snippet}\nfn main() {{\n    std::panic::set_hook(Box::new(|_| {{}}));\n    for t in [{}] {{\n        for n in [{}] {{\n            match std::panic::catch_unwind(|| sg(n, t[0], t[1])) {{\n                Ok(v) => println!(\"{{v}}\"),\n                Err(_) => println!(\"refused\"),\n            }}\n        }}\n    }}\n}}\n",
                list("[", "]", "i64"),
                ns_list("i64")
            ),
            Lang::Java => format!(
                "public class Main {{\n    public static void main(String[] args) {{\n        long[][] ts = {{{}}};\n        long[] ns = {{{}}};\n        StringBuilder out = new StringBuilder();\n        for (long[] t : ts) for (long n : ns) {{\n            try {{ out.append(Sg.sg(n, t[0], t[1])).append('\\n'); }}\n            catch (IndexOutOfBoundsException e) {{ out.append(\"refused\\n\"); }}\n        }}\n        System.out.print(out);\n    }}\n}}\n\n{snippet}",
                list("{", "}", "L"),
                ns_list("L")
            ),
        }
    }

    fn check_language(lang: Lang) {
        let (ranges, cases) = cases();
        // Every kind of case is there.
        for wanted in 0..4 {
            assert!(cases.iter().any(|(_, c)| matches!(
                (wanted, c),
                (0, Case::Formula(_))
                    | (1, Case::Periodic(_))
                    | (2, Case::Computed(_))
                    | (3, Case::Error)
            )));
        }
        let (report, computed) = synthetic(&cases);
        assert_eq!(
            tables_needed(&report),
            computed.iter().map(|(i, _)| *i).collect::<Vec<_>>()
        );
        let code = SweepCode {
            report: &report,
            ranges: &ranges,
            computed: &computed,
        };
        let snippet = generate_sweep(lang, &code).unwrap();
        assert_no_main(lang, &snippet);
        for line in [
            "NOT proved for other parameter values.",
            "G(n) = a if a = b",
            "G(n) = n mod (2·a) if b is an odd multiple of a",
            "G(n) = ⌊n/a⌋ mod (b + 10) if a does not divide b",
            "G(n) = ⌊n/(b + 5)⌋ if b ≡ 2 (mod 3)",
            "NOT proved past the values computed",
            "In T with its proved period (exact for every n): ",
            "In T as computed, period NOT proved (sg fails past the table): ",
            "No result, refused by sg: ",
        ] {
            assert!(
                snippet.contains(line),
                "{lang}: `{line}` missing:\n{snippet}"
            );
        }
        let mut tuples: Vec<Vec<i64>> = cases.iter().map(|(p, _)| p.clone()).collect();
        // Outside the ranges: a before its range, b below and above its bounds in a.
        tuples.extend([vec![0, 0], vec![5, 5], vec![1, -3], vec![4, 0], vec![2, 8]]);
        let mut ns: Vec<i64> = (0..=45).collect();
        ns.extend([1_000_000_000_000_000_000, i64::MAX]);
        let dir = tempfile::tempdir().unwrap();
        let Some(output) = run(lang, dir.path(), &harness(lang, &snippet, &tuples, &ns)) else {
            return;
        };
        assert!(
            output.status.success(),
            "{lang}: {}\n{snippet}",
            String::from_utf8_lossy(&output.stderr)
        );
        let stdout = String::from_utf8_lossy(&output.stdout);
        let mut lines = stdout.lines();
        for t in &tuples {
            for &n in &ns {
                let want =
                    expected(&cases, n as u64, t).map_or("refused".to_string(), |v| v.to_string());
                assert_eq!(
                    lines.next(),
                    Some(want.as_str()),
                    "{lang}: sg({n}, {t:?})\n{snippet}"
                );
            }
        }
    }

    test_each_language!(check_language:
        generated_cpp_sweep_gives_each_instance_its_values => Cpp,
        generated_python_sweep_gives_each_instance_its_values => Python,
        generated_rust_sweep_gives_each_instance_its_values => Rust,
        generated_java_sweep_gives_each_instance_its_values => Java,
    );

    #[test]
    fn a_formula_contradicting_an_instance_or_huge_values_are_refused() {
        let (ranges, cases) = cases();
        let (mut report, computed) = synthetic(&cases);
        let i = report.formulas[0].covered[0];
        if let Ok(summary) = &mut report.instances[i].result {
            summary.g_form.as_mut().unwrap().shape.constants[0] += 1;
        }
        let code = SweepCode {
            report: &report,
            ranges: &ranges,
            computed: &computed,
        };
        assert!(matches!(
            generate_sweep(Lang::Cpp, &code),
            Err(ExportError::SweepCode { message }) if message.contains("contradicts")
        ));
        let (mut report, _) = synthetic(&cases);
        report.instances[0].params[0] = PARAM_LIMIT + 1;
        let code = SweepCode {
            report: &report,
            ranges: &ranges,
            computed: &[],
        };
        assert!(generate_sweep(Lang::Cpp, &code).is_err());
    }
}
