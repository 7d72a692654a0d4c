//! Move rules compiled to machine code: one native function per program that values a
//! position whose options are all known, at the speed of a hand-written loop.
//!
//! [`Kernel::heap_value`] and [`Kernel::box_value`] run the rules of a position as nested
//! native loops (ranges, `bits(m)` inline, the other sets listed by the program's sieve
//! through a call), evaluate the condition and the components with the language's checked
//! arithmetic, read each component's value straight from the table, XOR a sum's values
//! (Sprague–Grundy theorem) and mark them in a stamped array; the mex is the first unmarked
//! value. Rule steps are counted exactly as [`Program::for_each_option`] counts them (one per
//! binder value, leaf and loop, a pinned last binder as one, a line once its condition
//! holds), so the running meter spends the same budget.
//!
//! **Bail-outs.** The compiled code handles only the common path. Anything else — an
//! arithmetic fault, a range of more than 2^32 values, a heap or coordinate outside the
//! table, an option not computed yet, the budget running out, more distinct values than its
//! mark array holds — returns [`Valued::Bail`] *before* any value is claimed, and the caller
//! values the position with the interpreter, which reports the located error, reaches
//! outside the box or stops on the budget exactly as before. So a compiled value is always
//! the interpreter's value, and every error is the interpreter's error.
//!
//! Codegen is Cranelift's (pure Rust). Every rule form compiles; a host Cranelift does not
//! support leaves [`Kernel::compile_heap`] and [`Kernel::compile_box`] returning `None`, and
//! the interpreter runs alone.

use std::sync::Arc;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{
    types, AbiParam, Block, BlockArg, FuncRef, InstBuilder, MemFlagsData, Signature, Value,
};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Variable};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{Linkage, Module};

use crate::rules::arith::Function;
use crate::rules::ast::BinaryOp;
use crate::rules::checked::{CExpr, CExprKind, CheckedMove, CheckedValues};
use crate::rules::interval::{self, Interval};
use crate::rules::program::{GuardedLine, PiecewiseLine};
use crate::rules::sieve::{NumberCache, SetFn};
use crate::rules::Program;

/// A value at or above this in a table is not known yet (the box solver's marks).
pub const NOT_KNOWN: u32 = u32::MAX - 1;

/// The steps one compiled call may take before it hands the position to the interpreter,
/// whose progress ticks say which position runs long (about a second of compiled work).
const MAX_STEPS_PER_CALL: u64 = 1 << 30;

/// What the generated code returns when it gives the position back to the interpreter.
const BAIL: u32 = u32::MAX;
/// What it returns when its mark array is too short for the mex.
const BAIL_MARKS: u32 = u32::MAX - 1;

/// What one compiled call found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Valued {
    /// The position's value, having spent this many rule steps.
    Value(u32, u64),
    /// Value it with the interpreter (module docs).
    Bail,
}

/// A box's largest coordinates and strides as the code's constants (`None` past `i64`).
fn box_layout(extents: &[u64], strides: &[usize]) -> Option<(Vec<i64>, Vec<i64>)> {
    let extents = extents.iter().map(|&e| i64::try_from(e).ok());
    let strides = strides.iter().map(|&s| i64::try_from(s).ok());
    Some((
        extents.collect::<Option<_>>()?,
        strides.collect::<Option<_>>()?,
    ))
}

/// The layout the generated code reads (`repr(C)`: the offsets below are its fields').
#[repr(C)]
struct Frame {
    position: *const i64,
    values: *const u32,
    marks: *mut u32,
    marks_len: u64,
    stamp: u64,
    budget: u64,
    steps: u64,
    /// The set binders' lists ([`set_values`]).
    lists: *mut Vec<i64>,
    numbers: *const NumberCache,
    /// A heap game's last occurrences ([`Window`]; null in a box).
    window: *const Window,
    /// The lowest start of a window of options `a..n` met in this call (`i64::MAX`: none).
    window_from: i64,
    /// A run's table indices ([`Kernel::box_run`]); null: `run_first + k·run_step`.
    run: *const usize,
    run_len: u64,
    run_first: i64,
    run_step: i64,
    /// The positions of the run valued so far (where the code resumes).
    done: u64,
    /// Where the run's values go, `out[k]` for its position `k`; null: into the table.
    out: *mut u32,
}

/// The marks a call starts with (a power of two, as every length they grow to).
const MARKS_MIN: usize = 256;
/// Slots past the marks: the sink of the values past them ([`Gen::mark`]), and a guard
/// never marked (stamps start at 1) that ends the mex's scan ([`Gen::finish`]).
const MARKS_PAST: usize = 2;
/// How much the marks grow when a position needs more.
const MARKS_GROWTH: usize = 4;
/// The largest marks: past them a position is the interpreter's.
const MAX_MARKS: usize = 1 << 28;

/// Marks for `slots` values (and the slots past them, [`MARKS_PAST`]), none marked.
fn new_marks(slots: usize) -> Vec<u32> {
    vec![0; slots + MARKS_PAST]
}

/// The values `marks` has slots for ([`new_marks`]).
fn mark_slots(marks: &[u32]) -> usize {
    marks.len() - MARKS_PAST
}

const POSITION: i32 = 0;
const VALUES: i32 = 8;
const MARKS: i32 = 16;
const MARKS_LEN: i32 = 24;
const STAMP: i32 = 32;
const BUDGET: i32 = 40;
const STEPS: i32 = 48;
const WINDOW_FROM: i32 = 80;
const RUN: i32 = 88;
const RUN_LEN: i32 = 96;
const RUN_FIRST: i32 = 104;
const RUN_STEP: i32 = 112;
const DONE: i32 = 120;
const OUT: i32 = 128;

type Entry = unsafe extern "C" fn(*mut Frame) -> u32;

/// What a compiled function does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Values one position.
    Value,
    /// Lists one position's options ([`Kernel::compile_box_lister`]).
    List,
    /// Values a run of positions ([`Kernel::compile_box_runs`]).
    Run,
}

/// A box's values, swept in place by several threads at once ([`Kernel::box_sweep_shared`]):
/// where they start and how many there are.
#[derive(Clone, Copy, Debug)]
pub struct SharedTable {
    values: *mut u32,
    len: usize,
}

// SAFETY: a pointer to a table the threads write disjoint parts of (the contract of
// `Kernel::box_sweep_shared`).
unsafe impl Send for SharedTable {}
unsafe impl Sync for SharedTable {}

impl SharedTable {
    /// The table `values` (the pointer is only used while the borrow's owner lends it).
    pub fn new(values: &mut [u32]) -> Self {
        SharedTable {
            values: values.as_mut_ptr(),
            len: values.len(),
        }
    }

    /// The table of `len` values at `values`, as [`SharedTable::as_ptr`] and
    /// [`SharedTable::len`] gave them (to hand it to another thread through atomics).
    pub fn from_raw(values: *mut u32, len: usize) -> Self {
        SharedTable { values, len }
    }

    /// Where the values start.
    pub fn as_ptr(&self) -> *mut u32 {
        self.values
    }

    /// How many values there are.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True for a table of no values.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// What [`Kernel::box_run`] did: the positions valued, the rule steps they spent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ran {
    /// Positions `0..done` of the run are valued; position `done`, when there is one, is
    /// the interpreter's (module docs: bail-outs).
    pub done: usize,
    /// The rule steps those positions spent.
    pub steps: u64,
}

/// A program compiled to machine code, and what its calls need.
pub struct Kernel {
    entry: Entry,
    /// Owns the code `entry` points into (freed on drop).
    module: Option<JITModule>,
    /// How many set binders need a list ([`Scratch::lists`]).
    lists: usize,
    numbers: Arc<NumberCache>,
    heap: bool,
    /// The number of values of the box compiled for (0 for a heap game).
    box_len: usize,
    /// True when some rule's options are a window `a..n` of the heap table ([`Window`]).
    windows: bool,
    /// Compiled for runs of positions ([`Kernel::compile_box_runs`]).
    runs: bool,
}

// SAFETY: the generated code is immutable once finalized and only reads the frame it is
// given; the module is touched only when the kernel is dropped.
unsafe impl Send for Kernel {}
unsafe impl Sync for Kernel {}

impl Drop for Kernel {
    fn drop(&mut self) {
        if let Some(module) = self.module.take() {
            // SAFETY: no call can be running: the kernel is borrowed by every call.
            unsafe { module.free_memory() };
        }
    }
}

/// One thread's working memory for [`Kernel::heap_value`] and [`Kernel::box_value`].
#[derive(Debug, Default)]
pub struct Scratch {
    marks: Vec<u32>,
    stamp: u32,
    lists: Vec<Vec<i64>>,
}

impl Kernel {
    /// Compiles the rules of a heap game, or `None` when the host or a rule's form is not
    /// supported (the interpreter then runs alone).
    pub fn compile_heap(program: &Program) -> Option<Kernel> {
        if program.is_position_game() {
            return None;
        }
        Kernel::compile(program, None, Mode::Value)
    }

    /// Compiles the rules of a position game for the box `0..=extents[i]` with row-major
    /// `strides` (constants of the code), or `None` as [`Kernel::compile_heap`].
    pub fn compile_box(program: &Program, extents: &[u64], strides: &[usize]) -> Option<Kernel> {
        Kernel::compile_for_box(program, extents, strides, Mode::Value)
    }

    fn compile_for_box(
        program: &Program,
        extents: &[u64],
        strides: &[usize],
        mode: Mode,
    ) -> Option<Kernel> {
        if !program.is_position_game() || extents.len() != program.coordinates().len() {
            return None;
        }
        Kernel::compile(program, Some(box_layout(extents, strides)?), mode)
    }

    /// Compiles the rules of a position game for the box `0..=extents[i]` into code that
    /// values a *run* of its positions in one call ([`Kernel::box_run`]): a box's waves and
    /// sweeps of cheap positions (a knight's four moves) spend less in the calls than in the
    /// moves. `None` as [`Kernel::compile_box`].
    pub fn compile_box_runs(
        program: &Program,
        extents: &[u64],
        strides: &[usize],
    ) -> Option<Kernel> {
        Kernel::compile_for_box(program, extents, strides, Mode::Run)
    }

    /// Compiles the rules of a position game for the box `0..=extents[i]` into a *lister*:
    /// code that writes the flat index of every option of a position ([`Kernel::box_options`]),
    /// in the order the interpreter enumerates them, for a game whose moves may cycle (its
    /// graph). `None` as [`Kernel::compile_box`], and when a rule moves to a sum of positions
    /// or to nothing (the interpreter lists those).
    pub fn compile_box_lister(
        program: &Program,
        extents: &[u64],
        strides: &[usize],
    ) -> Option<Kernel> {
        let arity = program.coordinates().len();
        if !program.is_position_game()
            || extents.len() != arity
            || program
                .checked_moves()
                .iter()
                .any(|m| m.result.len() != arity)
        {
            return None;
        }
        Kernel::compile(program, Some(box_layout(extents, strides)?), Mode::List)
    }

    fn compile(
        program: &Program,
        layout: Option<(Vec<i64>, Vec<i64>)>,
        mode: Mode,
    ) -> Option<Kernel> {
        let moves = program.checked_moves();
        let arity = program.coordinates().len();
        let box_len = layout.as_ref().map_or(0, |(extents, strides)| {
            ((extents[0] + 1) * strides[0]) as usize
        });
        let mut flags = settings::builder();
        flags.set("opt_level", "speed").ok()?;
        flags.set("use_colocated_libcalls", "false").ok()?;
        flags.set("is_pic", "false").ok()?;
        // Cranelift's check of the generated IR, in the tests' (debug) builds: in a release
        // build it took a tenth of the compile, itself a tenth of a small table's time.
        let verify = if cfg!(debug_assertions) {
            "true"
        } else {
            "false"
        };
        flags.set("enable_verifier", verify).ok()?;
        let isa = cranelift_native::builder()
            .ok()?
            .finish(settings::Flags::new(flags))
            .ok()?;
        let mut builder = JITBuilder::with_isa(isa, cranelift_module::default_libcall_names());
        builder.symbol("sg_arith", arith_call as *const u8);
        builder.symbol("sg_set", set_values as *const u8);
        builder.symbol("sg_window_mex", window_mex as *const u8);
        let mut module = JITModule::new(builder);
        let pointer = module.target_config().pointer_type();

        let mut arith_sig = module.make_signature();
        arith_sig.params.extend([
            AbiParam::new(types::I64),
            AbiParam::new(types::I64),
            AbiParam::new(types::I64),
            AbiParam::new(pointer),
        ]);
        arith_sig.returns.push(AbiParam::new(types::I64));
        let mut set_sig = module.make_signature();
        set_sig.params.extend([
            AbiParam::new(pointer),
            AbiParam::new(types::I64),
            AbiParam::new(types::I64),
            AbiParam::new(types::I64),
            AbiParam::new(types::I64),
            AbiParam::new(pointer),
        ]);
        set_sig.returns.push(AbiParam::new(types::I64));
        let arith_id = module
            .declare_function("sg_arith", Linkage::Import, &arith_sig)
            .ok()?;
        let set_id = module
            .declare_function("sg_set", Linkage::Import, &set_sig)
            .ok()?;
        let mut mex_sig = module.make_signature();
        mex_sig.params.push(AbiParam::new(pointer));
        mex_sig.returns.push(AbiParam::new(types::I32));
        // Only a heap game's lines can be windows of its table.
        let mex_id = match layout {
            None => Some(
                module
                    .declare_function("sg_window_mex", Linkage::Import, &mex_sig)
                    .ok()?,
            ),
            Some(_) => None,
        };

        let mut context = module.make_context();
        let mut signature = Signature::new(module.isa().default_call_conv());
        signature.params.push(AbiParam::new(pointer));
        signature.returns.push(AbiParam::new(types::I32));
        context.func.signature = signature;
        let id = module
            .declare_function("sg_kernel", Linkage::Local, &context.func.signature)
            .ok()?;
        let mut function_context = FunctionBuilderContext::new();
        let (lists, windows);
        {
            let mut b = FunctionBuilder::new(&mut context.func, &mut function_context);
            let arith = module.declare_func_in_func(arith_id, b.func);
            let set = module.declare_func_in_func(set_id, b.func);
            let mex = mex_id.map(|id| module.declare_func_in_func(id, b.func));
            let mut g = Gen::start(&mut b, pointer, arity, layout, arith, set, mode);
            g.rules(moves);
            g.finish(mex);
            lists = g.lists;
            windows = g.windows;
            b.seal_all_blocks();
            b.finalize(module.target_config());
        }
        module.define_function(id, &mut context).ok()?;
        module.clear_context(&mut context);
        module.finalize_definitions().ok()?;
        let code = module.get_finalized_function(id);
        // SAFETY: the function was defined with the signature of `Entry`.
        let entry = unsafe { std::mem::transmute::<*const u8, Entry>(code) };
        Some(Kernel {
            entry,
            module: Some(module),
            lists,
            numbers: Arc::clone(program.numbers()),
            heap: !program.is_position_game(),
            box_len,
            windows,
            runs: mode == Mode::Run,
        })
    }

    /// True when some rule's options are read as a window of the table: the caller keeps a
    /// [`Window`] of the values for [`Kernel::heap_value`].
    pub fn uses_window(&self) -> bool {
        self.windows
    }

    /// The value of heap `n` of a heap game from `values = G(0..n)` (and `window`, their
    /// last occurrences, when [`Kernel::uses_window`]), spending at most `budget` rule steps.
    pub fn heap_value(
        &self,
        n: u64,
        values: &[u32],
        window: &Window,
        budget: u64,
        scratch: &mut Scratch,
    ) -> Valued {
        debug_assert!(self.heap && values.len() as u64 >= n);
        debug_assert!(!self.windows || window.len == n as usize);
        let Ok(n) = i64::try_from(n) else {
            return Valued::Bail;
        };
        self.call(&[n], values, window, budget, scratch)
    }

    /// The flat indices of the options of `position`, in the interpreter's order, by a lister
    /// ([`Kernel::compile_box_lister`]), and the rule steps spent (at most `budget`); `None`:
    /// ask the interpreter (an option outside the box, a fault, the budget). The indices are
    /// written where a value's marks would be: a lister's scratch must be its own.
    pub fn box_options<'s>(
        &self,
        position: &[u64],
        budget: u64,
        scratch: &'s mut Scratch,
    ) -> Option<(&'s [u32], u64)> {
        let mut coordinates = [0i64; 8];
        if position.len() > coordinates.len() {
            return None;
        }
        for (c, &p) in coordinates.iter_mut().zip(position) {
            *c = i64::try_from(p).ok()?;
        }
        let position = &coordinates[..position.len()];
        match self.call(position, &[], std::ptr::null(), budget, scratch) {
            Valued::Value(count, steps) => Some((&scratch.marks[..count as usize], steps)),
            Valued::Bail => None,
        }
    }

    /// The value of `position` in the box it was compiled for (`values` row-major; a value of
    /// [`NOT_KNOWN`] or more is not computed yet), spending at most `budget` rule steps.
    pub fn box_value(
        &self,
        position: &[u64],
        values: &[u32],
        budget: u64,
        scratch: &mut Scratch,
    ) -> Valued {
        debug_assert!(!self.heap && values.len() == self.box_len);
        let mut coordinates = [0i64; 8];
        if position.len() > coordinates.len() {
            return Valued::Bail;
        }
        for (c, &p) in coordinates.iter_mut().zip(position) {
            let Ok(p) = i64::try_from(p) else {
                return Valued::Bail;
            };
            *c = p;
        }
        let position = &coordinates[..position.len()];
        self.call(position, values, std::ptr::null(), budget, scratch)
    }

    /// Values the positions of `run` (table indices of the box compiled for, in the order
    /// given) from `values`, writing position `k`'s value to `out[k]`, spending at most
    /// `budget` rule steps in all; stops at the first position the interpreter must value
    /// ([`Ran::done`]). The positions of one call must not be options of each other (a wave).
    pub fn box_run(
        &self,
        run: &[usize],
        values: &[u32],
        out: &mut [u32],
        budget: u64,
        scratch: &mut Scratch,
    ) -> Ran {
        assert!(self.runs && out.len() >= run.len() && values.len() == self.box_len);
        debug_assert!(run.iter().all(|&i| i < self.box_len));
        let place = RunPlace {
            run: run.as_ptr(),
            len: run.len(),
            first: 0,
            step: 0,
            out: out.as_mut_ptr(),
        };
        self.run(place, values.as_ptr(), budget, scratch)
    }

    /// Values the positions `first, first + step, …` (`len` of them, table indices) in
    /// place, in that order, each seeing the values of those before: a sweep whose moves lead
    /// to positions swept earlier. A position already valued (below [`NOT_KNOWN`]) is
    /// skipped. Stops as [`Kernel::box_run`].
    pub fn box_sweep(
        &self,
        first: usize,
        step: isize,
        len: usize,
        values: &mut [u32],
        budget: u64,
        scratch: &mut Scratch,
    ) -> Ran {
        // SAFETY: `values` is borrowed exclusively for the call.
        unsafe {
            self.box_sweep_shared(first, step, len, SharedTable::new(values), budget, scratch)
        }
    }

    /// [`Kernel::box_sweep`] on a table that other threads sweep other positions of at the
    /// same time (the two halves of a wave).
    ///
    /// # Safety
    /// The table behind `table` lives through the call, and while it runs no other thread
    /// reads or writes the positions this call values, nor writes any position it reads
    /// (their options: valued before the wave).
    pub unsafe fn box_sweep_shared(
        &self,
        first: usize,
        step: isize,
        len: usize,
        table: SharedTable,
        budget: u64,
        scratch: &mut Scratch,
    ) -> Ran {
        assert!(self.runs && table.len == self.box_len);
        if len > 0 {
            let last = first as i128 + (len as i128 - 1) * step as i128;
            assert!(first < self.box_len && (0..self.box_len as i128).contains(&last));
        }
        let place = RunPlace {
            run: std::ptr::null(),
            len,
            first: first as i64,
            step: step as i64,
            out: std::ptr::null_mut(),
        };
        self.run(place, table.values, budget, scratch)
    }

    fn run(&self, place: RunPlace, values: *const u32, budget: u64, scratch: &mut Scratch) -> Ran {
        if scratch.marks.is_empty() {
            scratch.marks = new_marks(MARKS_MIN);
        }
        scratch.lists.resize_with(self.lists, Vec::new);
        let mut ran = Ran { done: 0, steps: 0 };
        while ran.done < place.len {
            // One stamp a position: start afresh when they could wrap.
            if u64::from(scratch.stamp) + (place.len - ran.done) as u64 + 2 >= u64::from(u32::MAX) {
                scratch.marks.iter_mut().for_each(|m| *m = 0);
                scratch.stamp = 0;
            }
            let first_stamp = scratch.stamp + 1;
            let mut frame = Frame {
                position: std::ptr::null(),
                values,
                marks: scratch.marks.as_mut_ptr(),
                marks_len: mark_slots(&scratch.marks) as u64,
                stamp: u64::from(first_stamp),
                budget: (budget - ran.steps).min(MAX_STEPS_PER_CALL),
                steps: 0,
                lists: scratch.lists.as_mut_ptr(),
                numbers: Arc::as_ptr(&self.numbers),
                window: std::ptr::null(),
                window_from: i64::MAX,
                run: place.run,
                run_len: place.len as u64,
                run_first: place.first,
                run_step: place.step,
                done: ran.done as u64,
                out: place.out,
            };
            // SAFETY: as in `call`, and the run's indices are within the box (asserted by
            // the callers), `out` (when not null) has one entry per position of the run, and
            // when it is null `values` is the caller's exclusive borrow.
            let result = unsafe { (self.entry)(&mut frame) };
            let valued = frame.done as usize - ran.done;
            scratch.stamp = first_stamp + valued as u32;
            ran.done = frame.done as usize;
            ran.steps += frame.steps;
            match result {
                BAIL_MARKS if mark_slots(&scratch.marks) < MAX_MARKS => {
                    scratch.marks = new_marks(mark_slots(&scratch.marks) * MARKS_GROWTH);
                    scratch.stamp = 0;
                }
                BAIL | BAIL_MARKS => break,
                _ => {}
            }
        }
        ran
    }

    fn call(
        &self,
        position: &[i64],
        values: &[u32],
        window: *const Window,
        budget: u64,
        scratch: &mut Scratch,
    ) -> Valued {
        if scratch.marks.is_empty() {
            scratch.marks = new_marks(MARKS_MIN);
        }
        scratch.lists.resize_with(self.lists, Vec::new);
        loop {
            scratch.stamp = scratch.stamp.wrapping_add(1);
            if scratch.stamp == 0 {
                scratch.marks.iter_mut().for_each(|m| *m = 0);
                scratch.stamp = 1;
            }
            let mut frame = Frame {
                position: position.as_ptr(),
                values: values.as_ptr(),
                marks: scratch.marks.as_mut_ptr(),
                marks_len: mark_slots(&scratch.marks) as u64,
                stamp: u64::from(scratch.stamp),
                budget: budget.min(MAX_STEPS_PER_CALL),
                steps: 0,
                lists: scratch.lists.as_mut_ptr(),
                numbers: Arc::as_ptr(&self.numbers),
                window,
                window_from: i64::MAX,
                run: std::ptr::null(),
                run_len: 0,
                run_first: 0,
                run_step: 0,
                done: 0,
                out: std::ptr::null_mut(),
            };
            // SAFETY: the frame's pointers are valid for the call: `values` covers every
            // index the code reads (heaps below `n = position[0]`, box positions within
            // `extents`, both checked by the code before reading), `marks` has `marks_len + MARKS_PAST`
            // entries, `lists` one vector per set binder.
            let result = unsafe { (self.entry)(&mut frame) };
            match result {
                BAIL => return Valued::Bail,
                BAIL_MARKS => {
                    if mark_slots(&scratch.marks) >= MAX_MARKS {
                        return Valued::Bail;
                    }
                    scratch.marks = new_marks(mark_slots(&scratch.marks) * MARKS_GROWTH);
                    scratch.stamp = 0;
                }
                value => return Valued::Value(value, frame.steps),
            }
        }
    }
}

/// Where a run's positions are and where their values go ([`Kernel::run`]).
struct RunPlace {
    run: *const usize,
    len: usize,
    first: i64,
    step: i64,
    out: *mut u32,
}

/// The last occurrence of every value in a heap game's table `G(0..len)`, as a segment tree
/// of their minimum, so that the mex of a window of options `G(a..n)` (a rule like
/// `x in 1..=n/2 => n - x`, whose options are the heaps `n - n/2 .. n - 1`) is found in
/// `O(log V)` instead of one move at a time: `v` occurs in `G(a..n)` exactly when its last
/// occurrence before `n` is at least `a`, so the mex is the smallest `v` whose last occurrence
/// is below `a` (or that never occurred), and not marked by the other moves.
#[derive(Clone, Debug, Default)]
pub struct Window {
    /// Values covered: a power of two (values at or past it have not occurred).
    size: usize,
    /// `tree[size + v]` is 1 + the last index holding `v` (0: none); inner nodes the minimum
    /// of their two children.
    tree: Vec<u32>,
    /// The table's length `n`.
    len: usize,
}

impl Window {
    /// The last occurrences in `values`; `None` past `u32` indices.
    pub fn new(values: &[u32]) -> Option<Window> {
        u32::try_from(values.len()).ok()?;
        let mut window = Window::default();
        for &v in values {
            window.push(v);
        }
        Some(window)
    }

    /// Appends `G(len) = v`.
    pub fn push(&mut self, v: u32) {
        let v = v as usize;
        if v >= self.size {
            let size = (v + 1).next_power_of_two().max(64);
            let mut tree = vec![0; 2 * size];
            tree[size..size + self.size].copy_from_slice(&self.tree[self.size..]);
            for node in (1..size).rev() {
                tree[node] = tree[2 * node].min(tree[2 * node + 1]);
            }
            self.size = size;
            self.tree = tree;
        }
        self.len += 1;
        let mut node = self.size + v;
        self.tree[node] = self.len as u32;
        while node > 1 {
            node /= 2;
            self.tree[node] = self.tree[2 * node].min(self.tree[2 * node + 1]);
        }
    }

    /// The smallest value `v >= from` whose last occurrence is below `a` (or none).
    fn first_absent(&self, from: usize, a: u32) -> usize {
        if from >= self.size {
            return from;
        }
        // Climb from the leaf `from` to the first subtree to its right holding a value whose
        // `1 + last` is at most `a`, then descend to the leftmost such leaf.
        let mut node = self.size + from;
        if self.tree[node] <= a {
            return from;
        }
        loop {
            // Go up while `node` is a right child (its right siblings are not to the right).
            while node % 2 == 1 {
                node /= 2;
                if node == 0 {
                    return self.size;
                }
            }
            node += 1;
            if self.tree[node] <= a {
                break;
            }
        }
        while node < self.size {
            node *= 2;
            if self.tree[node] > a {
                node += 1;
            }
        }
        node - self.size
    }
}

/// The mex for the generated code when a window `a..n` was met ([`Window`]): the smallest
/// value absent from `G(a..n)` and not marked, or `BAIL_MARKS` when the marks do not reach it.
extern "C" fn window_mex(frame: *const Frame) -> u32 {
    // SAFETY: the generated code passes its own frame; a heap game's frame has a window.
    unsafe {
        let frame = &*frame;
        let window = &*frame.window;
        let a = u32::try_from(frame.window_from).unwrap_or(u32::MAX);
        let marks = std::slice::from_raw_parts(frame.marks, frame.marks_len as usize);
        let stamp = frame.stamp as u32;
        let mut from = 0;
        loop {
            let v = window.first_absent(from, a);
            match marks.get(v) {
                None => return BAIL_MARKS,
                Some(&mark) if mark == stamp => from = v + 1,
                Some(_) => return v as u32,
            }
        }
    }
}

/// `f(a, b)` for the generated code: 1 and the value in `*out`, or 0 on a fault.
extern "C" fn arith_call(f: i64, a: i64, b: i64, out: *mut i64) -> i64 {
    let Some(function) = Function::ALL.get(f as usize) else {
        return 0;
    };
    let args = [a, b];
    match function.apply(&args[..function.arity()]) {
        Ok(v) => {
            // SAFETY: `out` points to a stack slot of the generated code.
            unsafe { *out = v };
            1
        }
        Err(_) => 0,
    }
}

/// Lists set `set` at `(a, b)` into the frame's list `list` for the generated code: the
/// number of values (their address in `*out`), or -1 on a fault.
extern "C" fn set_values(
    frame: *mut Frame,
    list: i64,
    set: i64,
    a: i64,
    b: i64,
    out: *mut *const i64,
) -> i64 {
    let Some(&set) = SetFn::ALL.get(set as usize) else {
        return -1;
    };
    // SAFETY: the generated code passes its own frame, whose `lists` has one vector per set
    // binder and `numbers` the program's sieve, and `out` a stack slot of its own.
    unsafe {
        let frame = &*frame;
        let numbers = &*frame.numbers;
        let list = &mut *frame.lists.add(list as usize);
        let args = [a, b];
        let Ok(values) = numbers.values(set, &args[..set.arity()]) else {
            return -1;
        };
        list.clear();
        list.extend(values);
        *out = list.as_ptr();
        list.len() as i64
    }
}

/// A run's loop ([`Gen::next_position`]): the variables carried from position to position
/// and the current position's values.
struct Run {
    /// The position's number in the run.
    k: Variable,
    /// Its stamp (one a position valued).
    stamp: Variable,
    /// The loop head, where the next position starts.
    header: Block,
    at: Value,
    /// The position's table index.
    index: Value,
    /// Where the values go (null: the table).
    out: Value,
}

/// The code generator's state while it writes one function.
struct Gen<'a, 'b> {
    b: &'a mut FunctionBuilder<'b>,
    pointer: types::Type,
    arity: usize,
    /// A box's largest coordinates and strides (`None`: a heap game).
    layout: Option<(Vec<i64>, Vec<i64>)>,
    frame: Value,
    /// The coordinates, then the binders (`CExprKind::Slot` numbering).
    slots: Vec<Variable>,
    steps: Variable,
    budget: Value,
    values: Value,
    position_n: Value,
    marks: Value,
    marks_len: Value,
    stamp: Value,
    bail: Block,
    /// The bail-out that asks for larger marks ([`BAIL_MARKS`]).
    grow: Block,
    arith: FuncRef,
    set: FuncRef,
    lists: usize,
    /// The current rule's `d(coordinate)/dt` when it is a line in its last binder `t`
    /// ([`crate::rules::program`]'s lines): its values are read along the table.
    line: Option<Vec<i64>>,
    /// The slopes of every coordinate of every component when the rule moves to a sum of
    /// lines in its last binder ([`crate::rules::program::sum_line_steps`]).
    sum_line: Option<Vec<i64>>,
    /// The current rule's two lines when its result has one `min`/`max` in its last binder
    /// ([`crate::rules::program::piecewise_line`]).
    piecewise: Option<PiecewiseLine>,
    /// The current rule's line and thresholds when its condition uses its last binder only
    /// in comparisons of affine expressions ([`crate::rules::program::guarded_line`]).
    guarded: Option<GuardedLine>,
    /// The slot (`CExprKind::Slot` number) of the current rule's last binder.
    last_binder: usize,
    /// Bounds on each slot's values ([`interval`]): the coordinates `0..`, each binder's
    /// from its range (set as its loop is generated).
    bounds: Vec<Interval>,
    /// The word of the bit test that the loop being written visits only where it holds
    /// ([`Gen::bits_tested`]).
    holds: Option<*const CExpr>,
    /// True once a heap line of step ±1 was written: a window of the table ([`Window`]).
    windows: bool,
    /// Where the loop of the current rule's last binder ends, while its body is written: a
    /// leaf whose [`crate::rules::program::closing_conjunct`] fails jumps there.
    closing_exit: Option<Block>,
    /// A lister ([`Kernel::compile_box_lister`]): the options' indices go to the marks, their
    /// number counted here, and the code returns that number instead of a mex.
    listed: Option<Variable>,
    /// Code for a run of positions ([`Kernel::box_run`]).
    run: Option<Run>,
}

impl<'a, 'b> Gen<'a, 'b> {
    fn start(
        b: &'a mut FunctionBuilder<'b>,
        pointer: types::Type,
        arity: usize,
        layout: Option<(Vec<i64>, Vec<i64>)>,
        arith: FuncRef,
        set: FuncRef,
        mode: Mode,
    ) -> Self {
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        let frame = b.block_params(entry)[0];
        let flags = MemFlagsData::trusted();
        let values = b.ins().load(pointer, flags, frame, VALUES);
        let marks = b.ins().load(pointer, flags, frame, MARKS);
        let marks_len = b.ins().load(types::I64, flags, frame, MARKS_LEN);
        let stamp64 = b.ins().load(types::I64, flags, frame, STAMP);
        let mut stamp = b.ins().ireduce(types::I32, stamp64);
        let budget = b.ins().load(types::I64, flags, frame, BUDGET);
        let steps = b.declare_var(types::I64);
        let zero = b.ins().iconst(types::I64, 0);
        b.def_var(steps, zero);
        let bail = b.create_block();
        let grow = b.create_block();
        let slots: Vec<Variable> = (0..arity).map(|_| b.declare_var(types::I64)).collect();
        let run = match (mode, &layout) {
            (Mode::Run, Some((_, strides))) => {
                let (run, position_stamp) = Self::next_position(b, pointer, frame, values, stamp);
                // The position's coordinates from its index (division by the constant
                // strides: a multiplication).
                let mut rest = run.index;
                for (&slot, &stride) in slots.iter().zip(strides) {
                    let divisor = b.ins().iconst(types::I64, stride);
                    let c = b.ins().udiv(rest, divisor);
                    rest = b.ins().urem(rest, divisor);
                    b.def_var(slot, c);
                }
                stamp = position_stamp;
                Some(run)
            }
            _ => {
                let position = b.ins().load(pointer, flags, frame, POSITION);
                for (i, &slot) in slots.iter().enumerate() {
                    let c = b.ins().load(types::I64, flags, position, (8 * i) as i32);
                    b.def_var(slot, c);
                }
                None
            }
        };
        let position_n = b.use_var(slots[0]);
        // A box's kernel also values positions past the box (its moves leave it): only
        // non-negative.
        let bounds = vec![Interval::NATURAL; arity];
        let listed = (mode == Mode::List).then(|| {
            let listed = b.declare_var(types::I64);
            b.def_var(listed, zero);
            listed
        });
        Gen {
            b,
            pointer,
            arity,
            layout,
            frame,
            slots,
            steps,
            budget,
            values,
            position_n,
            marks,
            marks_len,
            stamp,
            bail,
            grow,
            arith,
            set,
            lists: 0,
            line: None,
            sum_line: None,
            piecewise: None,
            guarded: None,
            last_binder: 0,
            holds: None,
            bounds,
            windows: false,
            closing_exit: None,
            listed,
            run,
        }
    }

    /// A run's loop head ([`Kernel::box_run`]): from the entry block, to the position whose
    /// rules come next, past the positions already valued; returns when the run is done.
    /// The position's stamp is the function's first plus the positions valued so far.
    fn next_position(
        b: &mut FunctionBuilder,
        pointer: types::Type,
        frame: Value,
        values: Value,
        first_stamp: Value,
    ) -> (Run, Value) {
        let flags = MemFlagsData::trusted();
        let list = b.ins().load(pointer, flags, frame, RUN);
        let len = b.ins().load(types::I64, flags, frame, RUN_LEN);
        let first = b.ins().load(types::I64, flags, frame, RUN_FIRST);
        let step = b.ins().load(types::I64, flags, frame, RUN_STEP);
        let out = b.ins().load(pointer, flags, frame, OUT);
        let done = b.ins().load(types::I64, flags, frame, DONE);
        let k = b.declare_var(types::I64);
        b.def_var(k, done);
        let stamp = b.declare_var(types::I32);
        b.def_var(stamp, first_stamp);
        let header = b.create_block();
        let finished = b.create_block();
        let pick = b.create_block();
        let from_list = b.create_block();
        let from_sweep = b.create_block();
        let indexed = b.create_block();
        let skip = b.create_block();
        let fresh = b.create_block();
        b.ins().jump(header, &[]);
        b.switch_to_block(header);
        let at = b.use_var(k);
        let end = b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, at, len);
        b.ins().brif(end, finished, &[], pick, &[]);
        b.switch_to_block(finished);
        let code = b.ins().iconst(types::I32, 0);
        b.ins().return_(&[code]);
        // The index: from the list, or `first + k·step` (a sweep).
        b.switch_to_block(pick);
        b.append_block_param(indexed, types::I64);
        let by_list = b.ins().icmp_imm_u(IntCC::NotEqual, list, 0);
        b.ins().brif(by_list, from_list, &[], from_sweep, &[]);
        b.switch_to_block(from_list);
        let offset = b.ins().ishl_imm_u(at, 3);
        let address = b.ins().iadd(list, offset);
        let listed = b.ins().load(types::I64, flags, address, 0);
        b.ins().jump(indexed, &[listed.into()]);
        b.switch_to_block(from_sweep);
        let moved = b.ins().imul(at, step);
        let swept = b.ins().iadd(first, moved);
        b.ins().jump(indexed, &[swept.into()]);
        // A position already valued (by a search, in a sweep) is skipped.
        b.switch_to_block(indexed);
        let index = b.block_params(indexed)[0];
        let offset = b.ins().ishl_imm_u(index, 2);
        let address = b.ins().iadd(values, offset);
        let own = b.ins().load(types::I32, flags, address, 0);
        let valued = b
            .ins()
            .icmp_imm_u(IntCC::UnsignedLessThan, own, i64::from(NOT_KNOWN));
        b.ins().brif(valued, skip, &[], fresh, &[]);
        b.switch_to_block(skip);
        let next = b.ins().iadd_imm_s(at, 1);
        b.ins().store(flags, next, frame, DONE);
        b.def_var(k, next);
        b.ins().jump(header, &[]);
        b.switch_to_block(fresh);
        let position_stamp = b.use_var(stamp);
        let run = Run {
            k,
            stamp,
            header,
            at,
            index,
            out,
        };
        (run, position_stamp)
    }

    /// A lister's option at table index `index`: written after the others, or the bail-out
    /// that asks for larger marks when they are full.
    fn list_option(&mut self, listed: Variable, index: Value) {
        let count = self.b.use_var(listed);
        let full = self
            .b
            .ins()
            .icmp(IntCC::UnsignedGreaterThanOrEqual, count, self.marks_len);
        let store = self.b.create_block();
        self.b.ins().brif(full, self.grow, &[], store, &[]);
        self.b.switch_to_block(store);
        let offset = self.b.ins().ishl_imm_u(count, 2);
        let address = self.b.ins().iadd(self.marks, offset);
        let narrow = self.b.ins().ireduce(types::I32, index);
        self.b
            .ins()
            .store(MemFlagsData::trusted(), narrow, address, 0);
        let count = self.b.ins().iadd_imm_s(count, 1);
        self.b.def_var(listed, count);
    }

    /// The mex of the marks (and of a window, by `window_mex` when one was met), and the
    /// bail-out block.
    fn finish(&mut self, window_mex: Option<FuncRef>) {
        let b = &mut *self.b;
        let steps = b.use_var(self.steps);
        if self.run.is_none() {
            b.ins()
                .store(MemFlagsData::trusted(), steps, self.frame, STEPS);
        }
        if let Some(listed) = self.listed {
            let count = b.use_var(listed);
            let count = b.ins().ireduce(types::I32, count);
            b.ins().return_(&[count]);
            b.switch_to_block(self.bail);
            let code = b.ins().iconst(types::I32, i64::from(BAIL as i32));
            b.ins().return_(&[code]);
            b.switch_to_block(self.grow);
            let code = b.ins().iconst(types::I32, i64::from(BAIL_MARKS as i32));
            b.ins().return_(&[code]);
            return;
        }
        if let (true, Some(window_mex)) = (self.windows, window_mex) {
            let from = b
                .ins()
                .load(types::I64, MemFlagsData::trusted(), self.frame, WINDOW_FROM);
            let none = b.ins().icmp_imm_s(IntCC::Equal, from, i64::MAX);
            let with_window = b.create_block();
            let scan = b.create_block();
            b.ins().brif(none, scan, &[], with_window, &[]);
            b.switch_to_block(with_window);
            let call = b.ins().call(window_mex, &[self.frame]);
            let value = b.inst_results(call)[0];
            b.ins().return_(&[value]);
            b.switch_to_block(scan);
        }
        // The first slot not marked: the guard past the marks ends the scan at the latest
        // ([`MARKS_PAST`]), so the loop has no bound to check. The marks read again from the
        // frame, a value of the loop's own (as in [`Gen::mark_line`]).
        let header = b.create_block();
        let scanned = b.create_block();
        let found = b.create_block();
        let too_short = b.create_block();
        b.append_block_param(header, types::I64);
        b.append_block_param(scanned, types::I64);
        let flags = MemFlagsData::trusted();
        let marks = self.marks;
        let zero = b.ins().iconst(types::I64, 0);
        b.ins().jump(header, &[zero.into()]);
        b.switch_to_block(header);
        let v = b.block_params(header)[0];
        let offset = b.ins().ishl_imm_u(v, 2);
        let address = b.ins().iadd(marks, offset);
        let mark = b.ins().load(types::I32, flags, address, 0);
        let marked = b.ins().icmp(IntCC::Equal, mark, self.stamp);
        // `v + 1` on both edges, `v` dead past it: one register, no move on the back edge.
        let next = b.ins().iadd_imm_s(v, 1);
        b.ins()
            .brif(marked, header, &[next.into()], scanned, &[next.into()]);
        b.switch_to_block(scanned);
        let next = b.block_params(scanned)[0];
        let v = b.ins().iadd_imm_s(next, -1);
        // Below the fewest marks there are, `v` is a slot of them: no need to read their
        // length (the usual mex, a small one).
        let check = b.create_block();
        let few = b
            .ins()
            .icmp_imm_u(IntCC::UnsignedGreaterThanOrEqual, v, MARKS_MIN as i64);
        b.ins().brif(few, check, &[], found, &[]);
        b.switch_to_block(check);
        let past = b
            .ins()
            .icmp(IntCC::UnsignedGreaterThanOrEqual, v, self.marks_len);
        b.ins().brif(past, too_short, &[], found, &[]);
        b.switch_to_block(found);
        let value = b.ins().ireduce(types::I32, v);
        match &self.run {
            None => {
                b.ins().return_(&[value]);
            }
            Some(run) => {
                // The value to `out[k]` or the table, what the run did to the frame (a
                // bail-out from the next position leaves it so), and on to the next.
                let flags = MemFlagsData::trusted();
                let to_out = b.ins().ishl_imm_u(run.at, 2);
                let to_out = b.ins().iadd(run.out, to_out);
                let to_table = b.ins().ishl_imm_u(run.index, 2);
                let to_table = b.ins().iadd(self.values, to_table);
                let has_out = b.ins().icmp_imm_u(IntCC::NotEqual, run.out, 0);
                let address = b.ins().select(has_out, to_out, to_table);
                b.ins().store(flags, value, address, 0);
                let next = b.ins().iadd_imm_s(run.at, 1);
                b.ins().store(flags, next, self.frame, DONE);
                b.ins().store(flags, steps, self.frame, STEPS);
                b.def_var(run.k, next);
                let stamp = b.ins().iadd_imm_s(self.stamp, 1);
                b.def_var(run.stamp, stamp);
                b.ins().jump(run.header, &[]);
            }
        }
        b.switch_to_block(too_short);
        b.ins().jump(self.grow, &[]);
        b.switch_to_block(self.grow);
        let code = b.ins().iconst(types::I32, i64::from(BAIL_MARKS as i32));
        b.ins().return_(&[code]);
        b.switch_to_block(self.bail);
        let code = b.ins().iconst(types::I32, i64::from(BAIL as i32));
        b.ins().return_(&[code]);
    }

    /// Jumps to the bail-out block when `condition` is true; continues in a new block.
    fn bail_if(&mut self, condition: Value) {
        let next = self.b.create_block();
        self.b.ins().brif(condition, self.bail, &[], next, &[]);
        self.b.switch_to_block(next);
    }

    /// Spends `count` steps (a value), bailing out past the budget.
    fn spend(&mut self, count: Value) {
        let steps = self.b.use_var(self.steps);
        let steps = self.b.ins().iadd(steps, count);
        self.b.def_var(self.steps, steps);
        let over = self
            .b
            .ins()
            .icmp(IntCC::UnsignedGreaterThan, steps, self.budget);
        self.bail_if(over);
    }

    fn spend_one(&mut self) {
        let one = self.b.ins().iconst(types::I64, 1);
        self.spend(one);
    }

    /// Every rule's moves. In a box, twice: for a position in the box, where bounds on the
    /// coordinates (`0..=extent`) drop more checks, and for one past it (its moves leave the
    /// box: [`crate::engine::multi`] values those too).
    fn rules(&mut self, moves: &[CheckedMove]) {
        // A rule without binders costs one step whatever it does: all of them at once, in
        // one check of the budget (past it the position is the interpreter's, which stops
        // where it should).
        let fixed = moves.iter().filter(|m| m.binders.is_empty()).count();
        if fixed > 0 {
            let fixed = self.b.ins().iconst(types::I64, fixed as i64);
            self.spend(fixed);
        }
        let Some((extents, _)) = self.layout.clone() else {
            moves.iter().for_each(|m| self.rule(m));
            return;
        };
        if self.run.is_some() {
            // A run's positions are the box's.
            for (i, &extent) in extents.iter().enumerate() {
                self.bounds[i] = Interval::new(0, extent.into());
            }
            moves.iter().for_each(|m| self.rule(m));
            return;
        }
        let mut inside = self.b.ins().iconst(types::I8, 1);
        for (i, &extent) in extents.iter().enumerate() {
            let c = self.b.use_var(self.slots[i]);
            let within = self
                .b
                .ins()
                .icmp_imm_u(IntCC::UnsignedLessThanOrEqual, c, extent);
            inside = self.b.ins().band(inside, within);
        }
        let (in_box, past_box, done) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        self.b.ins().brif(inside, in_box, &[], past_box, &[]);
        let lists = self.lists;
        for (block, box_bounds) in [(in_box, true), (past_box, false)] {
            self.b.switch_to_block(block);
            for (i, &extent) in extents.iter().enumerate() {
                self.bounds[i] = if box_bounds {
                    Interval::new(0, extent.into())
                } else {
                    Interval::NATURAL
                };
            }
            // Only one version runs in a call: they share the set binders' lists.
            self.lists = lists;
            moves.iter().for_each(|m| self.rule(m));
            self.b.ins().jump(done, &[]);
        }
        self.b.switch_to_block(done);
    }

    /// One rule: its binders as nested loops (the program's order), then its leaf.
    fn rule(&mut self, m: &CheckedMove) {
        while self.slots.len() < self.arity + m.binders.len() {
            let var = self.b.declare_var(types::I64);
            self.slots.push(var);
            self.bounds.push(Interval::ANY);
        }
        let pin = crate::rules::program::pin_of(m, self.arity);
        self.line = crate::rules::program::line_steps(m, self.arity);
        self.sum_line = crate::rules::program::sum_line_steps(m, self.arity);
        // Values only, in a box (a lister keeps the interpreter's order of the options).
        self.piecewise = if self.layout.is_some() && self.listed.is_none() {
            crate::rules::program::piecewise_line(m, self.arity)
        } else {
            None
        };
        self.guarded = crate::rules::program::guarded_line(m, self.arity);
        self.last_binder = self.arity + m.binders.len().saturating_sub(1);
        // A rule without binders: its step spent with the others' ([`Gen::rules`]).
        self.level(m, 0, pin, m.binders.is_empty());
    }

    /// Binder `depth` of `m` and the levels below; `spent`: its entry step was spent by the
    /// loop above (a whole range's entries at once, the same count).
    fn level(&mut self, m: &CheckedMove, depth: usize, pin: Option<&CExpr>, spent: bool) {
        if !spent {
            self.spend_one();
        }
        let Some(binder) = m.binders.get(depth) else {
            self.leaf(m);
            return;
        };
        let slot = self.slots[self.arity + depth];
        match &binder.values {
            CheckedValues::Range { lo, hi, inclusive } => {
                let single = *inclusive && lo.span == hi.span && lo.span == binder.span;
                let (lo_bounds, hi_bounds) = (self.bounds_of(lo), self.bounds_of(hi));
                let top = hi_bounds.hi - i128::from(!*inclusive);
                self.bounds[self.arity + depth] = if lo_bounds.lo <= top {
                    Interval::new(lo_bounds.lo, top)
                } else {
                    Interval::ANY
                };
                let lo = self.expr(lo);
                let hi = if single { lo } else { self.expr(hi) };
                let hi = if *inclusive {
                    hi
                } else if hi_bounds.lo > Interval::ANY.lo {
                    self.b.ins().iadd_imm_s(hi, -1)
                } else {
                    // `hi - 1` cannot overflow below: `lo <= i64::MIN - 1` is empty.
                    let at_min = self.b.ins().icmp_imm_s(IntCC::Equal, hi, i64::MIN);
                    let after = self.b.create_block();
                    let nonempty = self.b.create_block();
                    self.b.ins().brif(at_min, after, &[], nonempty, &[]);
                    self.b.switch_to_block(nonempty);
                    let hi = self.b.ins().iadd_imm_s(hi, -1);
                    self.range(m, depth, pin, slot, lo, hi);
                    self.b.ins().jump(after, &[]);
                    self.b.switch_to_block(after);
                    return;
                };
                self.range(m, depth, pin, slot, lo, hi);
            }
            CheckedValues::Set(SetFn::Bits, args) => {
                // The bits of `x <= top`: `0..=log2(top)`.
                let top = self.bounds_of(&args[0]).hi.clamp(1, i64::MAX.into()) as u128;
                let highest = 127 - top.leading_zeros();
                self.bounds[self.arity + depth] = Interval::new(0, highest.into());
                let x = self.expr(&args[0]);
                let negative = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, x, 0);
                self.bail_if(negative);
                self.for_each_bit(x, slot, |g, _| g.level(m, depth + 1, pin, false));
            }
            CheckedValues::Set(set, args) => {
                self.bounds[self.arity + depth] = Interval::ANY;
                let list = self.lists;
                self.lists += 1;
                let a = self.expr(&args[0]);
                let b_arg = match args.get(1) {
                    Some(e) => self.expr(e),
                    None => self.b.ins().iconst(types::I64, 0),
                };
                let out_slot =
                    self.b
                        .create_sized_stack_slot(cranelift_codegen::ir::StackSlotData::new(
                            cranelift_codegen::ir::StackSlotKind::ExplicitSlot,
                            8,
                            3,
                        ));
                let out = self.b.ins().stack_addr(self.pointer, out_slot, 0);
                let list_value = self.b.ins().iconst(types::I64, list as i64);
                let set_index = SetFn::ALL.iter().position(|s| s == set).unwrap_or(0);
                let set_value = self.b.ins().iconst(types::I64, set_index as i64);
                let call = self.b.ins().call(
                    self.set,
                    &[self.frame, list_value, set_value, a, b_arg, out],
                );
                let count = self.b.inst_results(call)[0];
                let fault = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, count, 0);
                self.bail_if(fault);
                let base = self
                    .b
                    .ins()
                    .stack_load(self.pointer, self.pointer, out_slot, 0);
                let index = self.b.declare_var(types::I64);
                let zero = self.b.ins().iconst(types::I64, 0);
                self.b.def_var(index, zero);
                let header = self.b.create_block();
                let body = self.b.create_block();
                let exit = self.b.create_block();
                self.b.ins().jump(header, &[]);
                self.b.switch_to_block(header);
                let i = self.b.use_var(index);
                let more = self.b.ins().icmp(IntCC::SignedLessThan, i, count);
                self.b.ins().brif(more, body, &[], exit, &[]);
                self.b.switch_to_block(body);
                let offset = self.b.ins().ishl_imm_u(i, 3);
                let address = self.b.ins().iadd(base, offset);
                let value = self
                    .b
                    .ins()
                    .load(types::I64, MemFlagsData::trusted(), address, 0);
                self.b.def_var(slot, value);
                let next = self.b.ins().iadd_imm_s(i, 1);
                self.b.def_var(index, next);
                self.level(m, depth + 1, pin, false);
                self.b.ins().jump(header, &[]);
                self.b.switch_to_block(exit);
            }
        }
    }

    /// Binder `depth` over `lo..=hi`: a pinned last binder takes one value
    /// ([`crate::rules::program`]'s pins, counted the same), else a loop.
    fn range(
        &mut self,
        m: &CheckedMove,
        depth: usize,
        pin: Option<&CExpr>,
        slot: Variable,
        lo: Value,
        hi: Value,
    ) {
        let after = self.unless_empty(lo, hi);
        // More than 2^32 values is the interpreter's error to report.
        let span = self.b.ins().isub(hi, lo);
        let binder = self.bounds[self.arity + depth];
        if binder.hi - binder.lo >= 1 << 32 {
            let too_long =
                self.b
                    .ins()
                    .icmp_imm_s(IntCC::UnsignedGreaterThanOrEqual, span, 1i64 << 32);
            self.bail_if(too_long);
        }
        let last = depth + 1 == m.binders.len();
        if let (true, Some(step)) = (last, self.line.clone()) {
            self.line_of_moves(m, slot, lo, hi, span, &step);
            self.b.ins().jump(after, &[]);
            self.b.switch_to_block(after);
            return;
        }
        if let (true, Some(pin)) = (last, pin) {
            let value = self.expr(pin);
            let below = self.b.ins().icmp(IntCC::SignedLessThan, value, lo);
            let above = self.b.ins().icmp(IntCC::SignedGreaterThan, value, hi);
            let outside = self.b.ins().bor(below, above);
            let inside_block = self.b.create_block();
            let outside_block = self.b.create_block();
            self.b
                .ins()
                .brif(outside, outside_block, &[], inside_block, &[]);
            self.b.switch_to_block(inside_block);
            self.b.def_var(slot, value);
            self.level(m, depth + 1, None, false);
            self.b.ins().jump(after, &[]);
            self.b.switch_to_block(outside_block);
            if let Some(condition) = &m.condition {
                // As the interpreter: one step, the condition evaluated at `lo` for its faults.
                self.spend_one();
                self.b.def_var(slot, lo);
                self.expr(condition);
            }
            self.b.ins().jump(after, &[]);
            self.b.switch_to_block(after);
            return;
        }
        // Every value's entry step at once: `hi - lo + 1` (at most 2^32, checked above).
        let count = self.b.ins().iadd_imm_s(span, 1);
        self.spend(count);
        if let (true, Some(steps)) = (last, self.sum_line.clone()) {
            self.sum_of_lines(m, slot, lo, hi, count, &steps);
            self.b.ins().jump(after, &[]);
            self.b.switch_to_block(after);
            return;
        }
        if let (true, Some(piecewise)) = (last, self.piecewise.clone()) {
            self.piecewise_lines(m, slot, lo, hi, &piecewise);
            self.b.ins().jump(after, &[]);
            self.b.switch_to_block(after);
            return;
        }
        if let (true, Some(guarded)) = (last, self.guarded.clone()) {
            self.guarded_lines(m, slot, lo, hi, &guarded);
            self.b.ins().jump(after, &[]);
            self.b.switch_to_block(after);
            return;
        }
        if last && self.bits_tested(m, depth, slot, lo, hi) {
            self.b.ins().jump(after, &[]);
            self.b.switch_to_block(after);
            return;
        }
        self.b.def_var(slot, lo);
        let header = self.b.create_block();
        let next = self.b.create_block();
        self.b.ins().jump(header, &[]);
        self.b.switch_to_block(header);
        if depth + 2 == m.binders.len() {
            self.prune(m, depth, (slot, hi), after);
        }
        self.closing_exit = last.then_some(after);
        self.level(m, depth + 1, pin, true);
        self.closing_exit = None;
        let value = self.b.use_var(slot);
        let done = self.b.ins().icmp(IntCC::Equal, value, hi);
        self.b.ins().brif(done, after, &[], next, &[]);
        self.b.switch_to_block(next);
        let value = self.b.ins().iadd_imm_s(value, 1);
        self.b.def_var(slot, value);
        self.b.ins().jump(header, &[]);
        self.b.switch_to_block(after);
    }

    /// At the head of the loop of the binder before the last (`depth`, its slot and last
    /// value): when a [`crate::rules::program::pruning_conjunct`] fails with the last binder at
    /// the start of its range, no later value of either moves, and the loop ends, spending the
    /// steps the interpreter would on the rest (the last binder's range, the same at every
    /// value: its bounds do not use this binder). Only when the condition cannot fault there
    /// and the last binder's steps are its range's (not a line's, counted once its condition
    /// holds, nor a pinned value's).
    fn prune(&mut self, m: &CheckedMove, depth: usize, (slot, hi): (Variable, Value), end: Block) {
        let (Some(condition), Some(conjunct)) = (
            &m.condition,
            crate::rules::program::pruning_conjunct(m, self.arity),
        ) else {
            return;
        };
        let inner = &m.binders[depth + 1];
        let CheckedValues::Range {
            lo: inner_lo,
            hi: inner_hi,
            inclusive,
        } = &inner.values
        else {
            return;
        };
        let u = self.arity + depth;
        let (lo_bounds, hi_bounds) = (self.bounds_of(inner_lo), self.bounds_of(inner_hi));
        let top = hi_bounds.hi - i128::from(!*inclusive);
        // At most 2^31 values: with the rest of this loop (below 2^32), the steps fit.
        let short = top - lo_bounds.lo < 1 << 31 && hi_bounds.lo > Interval::ANY.lo;
        let pinned = crate::rules::program::pin_of(m, self.arity).is_some();
        if self.line.is_some() || pinned || !short || inner_lo.uses_slot(u) || inner_hi.uses_slot(u)
        {
            return;
        }
        let kept = self.bounds[u + 1];
        self.bounds[u + 1] = if lo_bounds.lo <= top {
            Interval::new(lo_bounds.lo, top)
        } else {
            Interval::ANY
        };
        let faults = interval::may_fault(condition, &self.bounds);
        self.bounds[u + 1] = kept;
        if faults {
            return;
        }
        let lo = self.expr(inner_lo);
        let last = self.expr(inner_hi);
        let last = if *inclusive {
            last
        } else {
            self.b.ins().iadd_imm_s(last, -1)
        };
        self.b.def_var(self.slots[u + 1], lo);
        // The last binder's slot holds `lo` here: its bounds are `lo`'s (not those left by
        // another rule's binder), which the conjunct's checks rely on.
        self.bounds[u + 1] = lo_bounds;
        let holds = self.condition(conjunct);
        self.bounds[u + 1] = kept;
        let (go_on, pruned) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(holds, go_on, &[], pruned, &[]);
        self.b.switch_to_block(pruned);
        // This value and the ones after it, each spending the last binder's range.
        let empty = self.b.ins().icmp(IntCC::SignedLessThan, last, lo);
        let count = self.b.ins().isub(last, lo);
        let count = self.b.ins().iadd_imm_s(count, 1);
        let zero = self.b.ins().iconst(types::I64, 0);
        let count = self.b.ins().select(empty, zero, count);
        let value = self.b.use_var(slot);
        let rest = self.b.ins().isub(hi, value);
        let rest = self.b.ins().iadd_imm_s(rest, 1);
        let steps = self.b.ins().imul(rest, count);
        self.spend(steps);
        self.b.ins().jump(end, &[]);
        self.b.switch_to_block(go_on);
    }

    /// The last binder's loop over `lo..=hi` (its steps spent) visiting only the values whose
    /// bit the condition tests is the one it needs ([`crate::rules::program::bit_test_of`]):
    /// the one bits of the tested word, or of its complement, in the range. False (nothing
    /// written) unless the range is within `0..=63` and nothing before the test can fault.
    fn bits_tested(
        &mut self,
        m: &CheckedMove,
        depth: usize,
        slot: Variable,
        lo: Value,
        hi: Value,
    ) -> bool {
        let Some(test) = crate::rules::program::bit_test_of(m, self.arity) else {
            return false;
        };
        let binder = self.arity + depth;
        let faults = |e: &CExpr| interval::may_fault(e, &self.bounds);
        if !self.bounds[binder].within(0, 63)
            || faults(test.word)
            || test.before.iter().any(|&e| faults(e))
        {
            return false;
        }
        let word = self.expr(test.word);
        let word = if test.set {
            word
        } else {
            self.b.ins().bnot(word)
        };
        // The bits `lo..=hi` (both within 0..=63 here).
        let ones = self.b.ins().iconst(types::I64, -1);
        let from_lo = self.b.ins().ishl(ones, lo);
        let sixty_three = self.b.ins().iconst(types::I64, 63);
        let top = self.b.ins().isub(sixty_three, hi);
        let to_hi = self.b.ins().ushr(ones, top);
        let range = self.b.ins().band(from_lo, to_hi);
        let bits = self.b.ins().band(word, range);
        // The test holds at every value visited: the leaf's condition skips it.
        self.holds = Some(std::ptr::from_ref(test.word));
        self.for_each_bit(bits, slot, |g, exit| {
            g.closing_exit = Some(exit);
            g.level(m, depth + 1, None, true);
            g.closing_exit = None;
        });
        self.holds = None;
        true
    }

    /// A loop over the one bits of `bits` (its 64 bits), lowest first, each bit's
    /// number in `slot` for the code `body` writes (given the loop's exit); continues after
    /// the loop.
    fn for_each_bit(&mut self, bits: Value, slot: Variable, body: impl FnOnce(&mut Self, Block)) {
        let mask = self.b.declare_var(types::I64);
        self.b.def_var(mask, bits);
        let header = self.b.create_block();
        let next = self.b.create_block();
        let exit = self.b.create_block();
        self.b.ins().jump(header, &[]);
        self.b.switch_to_block(header);
        let rest = self.b.use_var(mask);
        self.b.ins().brif(rest, next, &[], exit, &[]);
        self.b.switch_to_block(next);
        let bit = self.b.ins().ctz(rest);
        self.b.def_var(slot, bit);
        let lower = self.b.ins().iadd_imm_s(rest, -1);
        let rest = self.b.ins().band(rest, lower);
        self.b.def_var(mask, rest);
        body(self, exit);
        self.b.ins().jump(header, &[]);
        self.b.switch_to_block(exit);
    }

    /// Continues in a new block when `lo <= hi`; the block an empty range jumps to, where the
    /// caller goes on after the range.
    fn unless_empty(&mut self, lo: Value, hi: Value) -> Block {
        let after = self.b.create_block();
        let nonempty = self.b.create_block();
        let empty = self.b.ins().icmp(IntCC::SignedGreaterThan, lo, hi);
        self.b.ins().brif(empty, after, &[], nonempty, &[]);
        self.b.switch_to_block(nonempty);
        after
    }

    /// A rule's condition, which does not use its last binder, evaluated once at `slot = lo`:
    /// continues in a new block when it holds, jumps to `after` when not.
    fn condition_once(&mut self, m: &CheckedMove, slot: Variable, lo: Value, after: Block) {
        self.b.def_var(slot, lo);
        if let Some(condition) = &m.condition {
            let holds = self.condition(condition);
            let body = self.b.create_block();
            self.b.ins().brif(holds, body, &[], after, &[]);
            self.b.switch_to_block(body);
        }
    }

    /// How far the table index moves when a line's binder grows by one (`step`: each
    /// coordinate's slope).
    fn table_delta(&self, step: &[i64]) -> i64 {
        match &self.layout {
            Some((_, strides)) => step.iter().zip(strides).map(|(&d, &s)| d * s).sum(),
            None => step[0],
        }
    }

    /// The last binder of a line rule over `lo..=hi` (`span = hi - lo`): the condition once
    /// (it does not use the binder), both ends checked (every coordinate is monotone in the
    /// binder, so the ends bound the line), then the values read along the table.
    fn line_of_moves(
        &mut self,
        m: &CheckedMove,
        slot: Variable,
        lo: Value,
        hi: Value,
        span: Value,
        step: &[i64],
    ) {
        let after = self.b.create_block();
        self.condition_once(m, slot, lo, after);
        // As the interpreter counts a line: its moves once the condition holds.
        let count = self.b.ins().iadd_imm_s(span, 1);
        self.spend(count);
        self.walk_line(m, slot, (lo, hi, count), step, after);
        self.b.switch_to_block(after);
    }

    /// The options of a line rule at `t = lo..=hi` (`count` of them, its condition known to
    /// hold): both ends checked (every coordinate is monotone in `t`, so the ends bound the
    /// line), then the values marked along the table (or listed, or a heap's window noted);
    /// every path ends by jumping to `after`.
    fn walk_line(
        &mut self,
        m: &CheckedMove,
        slot: Variable,
        (lo, hi, count): (Value, Value, Value),
        step: &[i64],
        after: Block,
    ) {
        self.b.def_var(slot, lo);
        let first = self.index_of(&m.result);
        self.b.def_var(slot, hi);
        let delta = self.table_delta(step);
        let span = self.b.ins().iadd_imm_s(count, -1);
        let last = self.far_end(&m.result, first, delta, span);
        if self.layout.is_none() && delta.abs() == 1 {
            // The heaps `a..=b`: when `b = n - 1`, a window of the table (its mex by [`Window`]).
            let a = self.b.ins().smin(first, last);
            let b = self.b.ins().smax(first, last);
            let top = self.b.ins().iadd_imm_s(self.position_n, -1);
            let is_window = self.b.ins().icmp(IntCC::Equal, b, top);
            let window = self.b.create_block();
            let walk = self.b.create_block();
            self.b.ins().brif(is_window, window, &[], walk, &[]);
            self.b.switch_to_block(window);
            let flags = MemFlagsData::trusted();
            let from = self
                .b
                .ins()
                .load(types::I64, flags, self.frame, WINDOW_FROM);
            let from = self.b.ins().smin(from, a);
            self.b.ins().store(flags, from, self.frame, WINDOW_FROM);
            self.b.ins().jump(after, &[]);
            self.b.switch_to_block(walk);
            self.windows = true;
        }
        if let Some(listed) = self.listed {
            let header = self.b.create_block();
            self.b.append_block_param(header, types::I64);
            self.b.append_block_param(header, types::I64);
            self.b.ins().jump(header, &[first.into(), count.into()]);
            self.b.switch_to_block(header);
            let index = self.b.block_params(header)[0];
            let left = self.b.block_params(header)[1];
            self.list_option(listed, index);
            let index = self.b.ins().iadd_imm_s(index, delta);
            let left = self.b.ins().iadd_imm_s(left, -1);
            self.b
                .ins()
                .brif(left, header, &[index.into(), left.into()], after, &[]);
            return;
        }
        self.mark_line(first, count, delta);
        self.b.ins().jump(after, &[]);
    }

    /// The last binder of a [`GuardedLine`] rule over `lo..=hi` (its steps spent), piece by
    /// piece from `t = lo`: each threshold `E = A - B + offset` of slope `d` keeps its side of
    /// 0 for `⌊-E/d⌋` more values when `d > 0` and `E <= 0`, `⌊(E - 1)/|d|⌋` when `d < 0` and
    /// `E > 0`, to the end otherwise; the piece runs to the nearest change. The condition is
    /// evaluated at both ends of the piece (the same comparisons hold throughout, so the same
    /// subexpressions are evaluated at every `t`, each affine in `t` or not using it: any
    /// fault inside the piece is a fault at an end; at its first only when bounds prove that
    /// none can be), and where it holds the piece is read as a line.
    fn guarded_lines(
        &mut self,
        m: &CheckedMove,
        slot: Variable,
        lo: Value,
        hi: Value,
        guarded: &GuardedLine,
    ) {
        use BinaryOp::{Add, Sub};
        let Some(condition) = &m.condition else {
            unreachable!("a guarded line has a condition")
        };
        let header = self.b.create_block();
        let exit = self.b.create_block();
        self.b.append_block_param(header, types::I64);
        self.b.ins().jump(header, &[lo.into()]);
        self.b.switch_to_block(header);
        let from = self.b.block_params(header)[0];
        self.b.def_var(slot, from);
        // How many values past `from` the piece reaches (below 2^32: the range is checked).
        let mut reach = self.b.ins().isub(hi, from);
        for threshold in &guarded.thresholds {
            let a = self.expr(&threshold.left);
            let b = self.expr(&threshold.right);
            let mut e = self.checked(Sub, a, b);
            if threshold.offset != 0 {
                let offset = self.b.ins().iconst(types::I64, threshold.offset);
                e = self.checked(Add, e, offset);
            }
            // The distance as an unsigned number: `-E` of `E = i64::MIN` is 2^63.
            let (changes, distance) = if threshold.slope > 0 {
                let changes = self.b.ins().icmp_imm_s(IntCC::SignedLessThanOrEqual, e, 0);
                (changes, self.b.ins().ineg(e))
            } else {
                let changes = self.b.ins().icmp_imm_s(IntCC::SignedGreaterThan, e, 0);
                (changes, self.b.ins().iadd_imm_s(e, -1))
            };
            let magnitude = threshold.slope.unsigned_abs();
            let distance = if magnitude == 1 {
                distance
            } else {
                let magnitude = self.b.ins().iconst(types::I64, magnitude as i64);
                self.b.ins().udiv(distance, magnitude)
            };
            let nearer = self.b.ins().icmp(IntCC::UnsignedLessThan, distance, reach);
            let nearer = self.b.ins().band(changes, nearer);
            reach = self.b.ins().select(nearer, distance, reach);
        }
        let to = self.b.ins().iadd(from, reach);
        let holds = self.condition(condition);
        if interval::may_fault(condition, &self.bounds) {
            let check_end = self.b.create_block();
            let checked = self.b.create_block();
            self.b.ins().brif(reach, check_end, &[], checked, &[]);
            self.b.switch_to_block(check_end);
            self.b.def_var(slot, to);
            self.condition(condition);
            self.b.ins().jump(checked, &[]);
            self.b.switch_to_block(checked);
        }
        let read = self.b.create_block();
        let next = self.b.create_block();
        self.b.ins().brif(holds, read, &[], next, &[]);
        self.b.switch_to_block(read);
        let count = self.b.ins().iadd_imm_s(reach, 1);
        self.walk_line(m, slot, (from, to, count), &guarded.step, next);
        self.b.switch_to_block(next);
        let at_end = self.b.ins().icmp(IntCC::Equal, to, hi);
        let following = self.b.ins().iadd_imm_s(to, 1);
        self.b
            .ins()
            .brif(at_end, exit, &[], header, &[following.into()]);
        self.b.switch_to_block(exit);
    }

    /// Marks the values at `count >= 1` table indices from `first`, `delta` apart. The loop
    /// reads a value, leaves for the bail-out blocks when it is past the marks — not known
    /// yet (bail out) or too large for them (grow the marks) — and marks it: seven
    /// instructions a value, as the C++ loop's six (a compare and a branch never taken).
    fn mark_line(&mut self, first: Value, count: Value, delta: i64) {
        let header = self.b.create_block();
        let body = self.b.create_block();
        let past_the_marks = self.b.create_block();
        let marked = self.b.create_block();
        self.b.append_block_param(header, types::I64);
        self.b.append_block_param(past_the_marks, types::I64);
        // Addresses rather than indices, the loop ending at the address past the last: no
        // register for the table's start nor a count.
        let address = self.address_of(first);
        let span = self.b.ins().imul_imm_s(count, 4 * delta);
        let end = self.b.ins().iadd(address, span);
        // The marks and their length read again from the frame here: values of the loop's
        // own, which the register allocator keeps in registers there (the function's, used
        // all over it, were spilled and reloaded on every turn).
        let flags = MemFlagsData::trusted();
        let marks = self.b.ins().load(self.pointer, flags, self.frame, MARKS);
        let marks_len = self.b.ins().load(types::I64, flags, self.frame, MARKS_LEN);
        self.b.ins().jump(header, &[address.into()]);
        self.b.switch_to_block(header);
        let address = self.b.block_params(header)[0];
        let v = self.load_at(address);
        let v = self.b.ins().uextend(types::I64, v);
        let past = self
            .b
            .ins()
            .icmp(IntCC::UnsignedGreaterThanOrEqual, v, marks_len);
        self.b
            .ins()
            .brif(past, past_the_marks, &[v.into()], body, &[]);
        self.b.switch_to_block(body);
        let offset = self.b.ins().ishl_imm_u(v, 2);
        let at = self.b.ins().iadd(marks, offset);
        self.b.ins().store(flags, self.stamp, at, 0);
        let next = self.b.ins().iadd_imm_s(address, 4 * delta);
        let more = self.b.ins().icmp(IntCC::NotEqual, next, end);
        self.b.ins().brif(more, header, &[next.into()], marked, &[]);
        self.b.switch_to_block(past_the_marks);
        let v = self.b.block_params(past_the_marks)[0];
        const _: () = assert!(NOT_KNOWN >= 1 << 31 && MAX_MARKS < 1 << 31);
        let unknown = self
            .b
            .ins()
            .icmp_imm_u(IntCC::UnsignedGreaterThanOrEqual, v, 1 << 31);
        self.b.ins().brif(unknown, self.bail, &[], self.grow, &[]);
        self.b.switch_to_block(marked);
    }

    /// The last binder of a [`PiecewiseLine`] rule over `lo..=hi` (its steps spent): the
    /// condition once (it does not use the binder); `A` and `B` at both ends, for their faults
    /// (affine, they are extreme there); then the piece where `A` is chosen, where the
    /// difference `D(t) = A - B` (`B - A` for a `max`) is at most 0, found from `D(lo)` and its
    /// constant slope `d`: `t <= lo + ⌊-D(lo)/d⌋` when `d > 0`, `t >= lo + ⌈D(lo)/|d|⌉` when
    /// `d < 0`, all or nothing when `d = 0`; each piece read as a line.
    fn piecewise_lines(
        &mut self,
        m: &CheckedMove,
        slot: Variable,
        lo: Value,
        hi: Value,
        piecewise: &PiecewiseLine,
    ) {
        use BinaryOp::{Add, Div, Sub};
        let after = self.b.create_block();
        self.condition_once(m, slot, lo, after);
        self.b.def_var(slot, hi);
        self.expr(&piecewise.first);
        self.expr(&piecewise.second);
        self.b.def_var(slot, lo);
        let a = self.expr(&piecewise.first);
        let b = self.expr(&piecewise.second);
        let (difference, slope) = if piecewise.is_max {
            (self.checked(Sub, b, a), -piecewise.slope_difference)
        } else {
            (self.checked(Sub, a, b), piecewise.slope_difference)
        };
        let one = self.b.ins().iconst(types::I64, 1);
        // The first `t` of the second piece (`split`): `A` on `lo..split` when `d > 0` (or
        // `d = 0` and `D <= 0`), on `split..=hi` when `d < 0`.
        let zero = self.b.ins().iconst(types::I64, 0);
        let negated = self.checked(Sub, zero, difference);
        let hi_plus_one = self.checked(Add, hi, one);
        let split = match slope.signum() {
            0 => {
                let first_all =
                    self.b
                        .ins()
                        .icmp_imm_s(IntCC::SignedLessThanOrEqual, difference, 0);
                self.b.ins().select(first_all, hi_plus_one, lo)
            }
            _ => {
                let magnitude = self.b.ins().iconst(types::I64, slope.abs());
                let quotient = self.checked(Div, negated, magnitude);
                // d > 0: lo + ⌊-D/d⌋ + 1; d < 0: lo - ⌊-D/|d|⌋.
                let offset = if slope > 0 {
                    self.checked(Add, quotient, one)
                } else {
                    self.checked(Sub, zero, quotient)
                };
                let split = self.checked(Add, lo, offset);
                let split = self.b.ins().smax(split, lo);
                self.b.ins().smin(split, hi_plus_one)
            }
        };
        let (before, from) = if slope < 0 {
            (&piecewise.with_second, &piecewise.with_first)
        } else {
            (&piecewise.with_first, &piecewise.with_second)
        };
        let last_of_first = self.checked(Sub, split, one);
        self.read_line(slot, lo, last_of_first, before);
        self.read_line(slot, split, hi, from);
        self.b.ins().jump(after, &[]);
        self.b.switch_to_block(after);
    }

    /// The options `result` at `t = lo..=hi` (none when `lo > hi`), a line of `steps` in the
    /// box: both ends checked, the values read along the table and marked without a branch.
    fn read_line(
        &mut self,
        slot: Variable,
        lo: Value,
        hi: Value,
        (result, steps): &(Vec<CExpr>, Vec<i64>),
    ) {
        let after = self.unless_empty(lo, hi);
        self.b.def_var(slot, lo);
        let first = self.index_of(result);
        self.b.def_var(slot, hi);
        let span = self.b.ins().isub(hi, lo);
        let count = self.b.ins().iadd_imm_s(span, 1);
        let delta = self.table_delta(steps);
        self.far_end(result, first, delta, span);
        self.mark_line(first, count, delta);
        self.b.ins().jump(after, &[]);
        self.b.switch_to_block(after);
    }

    /// The last binder of a rule to a sum of lines over `lo..=hi` (`count` values, their
    /// steps spent): the condition once (it does not use the binder), each component's ends
    /// checked (its coordinates are monotone in the binder, so the ends bound it), then every
    /// option's components read along the table with constant strides and XORed, without a
    /// branch; the OR of the values read says after the loop whether one was not known yet.
    fn sum_of_lines(
        &mut self,
        m: &CheckedMove,
        slot: Variable,
        lo: Value,
        hi: Value,
        count: Value,
        steps: &[i64],
    ) {
        let after = self.b.create_block();
        self.condition_once(m, slot, lo, after);
        let components: Vec<&[CExpr]> = m.result.chunks(self.arity).collect();
        let firsts: Vec<Value> = components.iter().map(|c| self.index_of(c)).collect();
        self.b.def_var(slot, hi);
        let deltas: Vec<i64> = steps
            .chunks(self.arity)
            .map(|step| self.table_delta(step))
            .collect();
        let span = self.b.ins().iadd_imm_s(count, -1);
        let lasts: Vec<Value> = components
            .iter()
            .zip(&firsts)
            .zip(&deltas)
            .map(|((c, &first), &delta)| self.far_end(c, first, delta, span))
            .collect();
        // `A(t) + B(t)` with `B(lo) = A(hi)` and opposite steps: `B(t) = A(lo + hi - t)`, and
        // the sum being commutative, `t` and `lo + hi - t` are the same option (chocolate's
        // `(i, b) + (a - i, b)`): the first half of the range, its middle included, has them
        // all.
        let count = match deltas[..] {
            [a, b] if a != 0 && a == -b => {
                let mirrored = self.b.ins().icmp(IntCC::Equal, lasts[0], firsts[1]);
                let rounded = self.b.ins().iadd_imm_s(count, 1);
                let half = self.b.ins().ushr_imm_u(rounded, 1);
                self.b.ins().select(mirrored, half, count)
            }
            _ => count,
        };
        let header = self.b.create_block();
        let exit = self.b.create_block();
        for _ in &firsts {
            self.b.append_block_param(header, types::I64);
        }
        self.b.append_block_param(header, types::I64);
        self.b.append_block_param(header, types::I32);
        self.b.append_block_param(exit, types::I32);
        let none = self.b.ins().iconst(types::I32, 0);
        let addresses: Vec<Value> = firsts.iter().map(|&f| self.address_of(f)).collect();
        let mut start: Vec<BlockArg> = addresses.iter().map(|&a| a.into()).collect();
        start.push(count.into());
        start.push(none.into());
        self.b.ins().jump(header, &start);
        self.b.switch_to_block(header);
        let params = self.b.block_params(header).to_vec();
        let (at, rest) = params.split_at(firsts.len());
        let (left, mut seen) = (rest[0], rest[1]);
        let mut xor = self.b.ins().iconst(types::I32, 0);
        let mut next: Vec<BlockArg> = Vec::new();
        for (&address, &delta) in at.iter().zip(&deltas) {
            let v = self.load_at(address);
            seen = self.b.ins().bor(seen, v);
            xor = self.b.ins().bxor(xor, v);
            next.push(self.b.ins().iadd_imm_s(address, 4 * delta).into());
        }
        self.mark(xor);
        let left = self.b.ins().iadd_imm_s(left, -1);
        next.push(left.into());
        next.push(seen.into());
        self.b.ins().brif(left, header, &next, exit, &[seen.into()]);
        self.b.switch_to_block(exit);
        if self.layout.is_some() {
            let seen = self.b.block_params(exit)[0];
            self.bail_if_some_unknown(seen);
        }
        self.b.ins().jump(after, &[]);
        self.b.switch_to_block(after);
    }

    /// The table index of a line's component at its far end `t = hi` (the binder's variable
    /// set there), `span = hi - lo` values past its near end, whose index `first` was found
    /// by [`Gen::index_of`]: bails out as that would, checking only the coordinates that use
    /// `t` (the others are those of the near end); the index is `first + delta·span`.
    fn far_end(&mut self, component: &[CExpr], first: Value, delta: i64, span: Value) -> Value {
        let Some((extents, _)) = self.layout.clone() else {
            return self.index_of(component);
        };
        for (e, &extent) in component.iter().zip(&extents) {
            if e.uses_slot(self.last_binder) {
                // Evaluated for its faults even when its bounds keep it in the box.
                let inside = self.bounds_of(e).within(0, extent.into());
                let c = self.expr(e);
                if inside {
                    continue;
                }
                let outside = self
                    .b
                    .ins()
                    .icmp_imm_u(IntCC::UnsignedGreaterThan, c, extent);
                self.bail_if(outside);
            }
        }
        // Both ends in the box: the index between them is too.
        let offset = self.b.ins().imul_imm_s(span, delta);
        self.b.ins().iadd(first, offset)
    }

    /// The table index of one component (`arity` coordinate expressions), bailing out when
    /// it is not in the table: a heap `h` must be in `0..n`, a box coordinate in its extent.
    fn index_of(&mut self, component: &[CExpr]) -> Value {
        let Some((extents, strides)) = self.layout.clone() else {
            let h = self.expr(&component[0]);
            // `0 <= h < n`, else the interpreter's error.
            let outside = self
                .b
                .ins()
                .icmp(IntCC::UnsignedGreaterThanOrEqual, h, self.position_n);
            self.bail_if(outside);
            return h;
        };
        let mut index = None;
        for ((e, &extent), &stride) in component.iter().zip(&extents).zip(&strides) {
            let inside = self.bounds_of(e).within(0, extent.into());
            let c = self.expr(e);
            if !inside {
                // Negative (an error) or past the box (computed on demand): the interpreter's.
                let outside = self
                    .b
                    .ins()
                    .icmp_imm_u(IntCC::UnsignedGreaterThan, c, extent);
                self.bail_if(outside);
            }
            let term = self.b.ins().imul_imm_s(c, stride);
            index = Some(match index {
                None => term,
                Some(index) => self.b.ins().iadd(index, term),
            });
        }
        index.unwrap_or_else(|| self.b.ins().iconst(types::I64, 0))
    }

    /// The value at a table index (checked by [`Gen::index_of`]), bailing out in a box when
    /// it is not computed yet.
    fn load_value(&mut self, index: Value) -> Value {
        let v = self.load_unchecked(index);
        if self.layout.is_some() {
            self.bail_if_unknown(v);
        }
        v
    }

    /// The value at a table index, maybe one not known yet ([`NOT_KNOWN`] and above).
    fn load_unchecked(&mut self, index: Value) -> Value {
        let address = self.address_of(index);
        self.load_at(address)
    }

    /// The address of the value at a table index.
    fn address_of(&mut self, index: Value) -> Value {
        let offset = self.b.ins().ishl_imm_u(index, 2);
        self.b.ins().iadd(self.values, offset)
    }

    /// The value at an address of the table.
    fn load_at(&mut self, address: Value) -> Value {
        self.b
            .ins()
            .load(types::I32, MemFlagsData::trusted(), address, 0)
    }

    /// Bails out when `v` marks a box position not computed yet.
    /// Bails out when the OR of values read has bit 31 set: one was not known yet
    /// ([`NOT_KNOWN`] and above have it; two instructions a value fewer than their maximum).
    /// A known value as large (2^31 options at one position) only bails out needlessly.
    fn bail_if_some_unknown(&mut self, or: Value) {
        const _: () = assert!(NOT_KNOWN >= 1 << 31);
        let unknown = self
            .b
            .ins()
            .icmp_imm_u(IntCC::UnsignedGreaterThanOrEqual, or, 1 << 31);
        self.bail_if(unknown);
    }

    fn bail_if_unknown(&mut self, v: Value) {
        let unknown =
            self.b
                .ins()
                .icmp_imm_u(IntCC::UnsignedGreaterThanOrEqual, v, i64::from(NOT_KNOWN));
        self.bail_if(unknown);
    }

    /// Marks value `v` (an `i32`) with this call's stamp; a value past the marks (which
    /// cannot be the mex, as [`Gen::finish`] checks) marks the sink, the slot just past them,
    /// so that marking never branches.
    fn mark(&mut self, v: Value) {
        let wide = self.b.ins().uextend(types::I64, v);
        let slot = self.b.ins().umin(wide, self.marks_len);
        let offset = self.b.ins().ishl_imm_u(slot, 2);
        let address = self.b.ins().iadd(self.marks, offset);
        self.b
            .ins()
            .store(MemFlagsData::trusted(), self.stamp, address, 0);
    }

    /// The condition, then the components: checked, read from the table, XORed, marked.
    fn leaf(&mut self, m: &CheckedMove) {
        let after = self.b.create_block();
        let kept = self.bounds.clone();
        if let (Some(exit), Some(condition)) = (self.closing_exit, &m.condition) {
            // A closing conjunct that fails ends the loop: it fails at every later value,
            // where the interpreter finds no option and, the condition not able to fault,
            // reports nothing (their steps were spent with the loop's).
            let closing = crate::rules::program::closing_conjunct(m, self.arity);
            if let (Some(closing), false) = (closing, interval::may_fault(condition, &self.bounds))
            {
                let holds = self.condition(closing);
                let go_on = self.b.create_block();
                self.b.ins().brif(holds, go_on, &[], exit, &[]);
                self.b.switch_to_block(go_on);
            }
        }
        if let Some(condition) = &m.condition {
            let holds = self.condition(condition);
            let body = self.b.create_block();
            self.b.ins().brif(holds, body, &[], after, &[]);
            self.b.switch_to_block(body);
            // Where the condition holds, its comparisons of a slot with a constant bound the
            // slot (`if x >= 2 => (x - 2, …)`: `x - 2` needs no check against 0).
            for (slot, lo, hi) in crate::rules::program::slot_bounds(condition) {
                if let Some(bounds) = self.bounds.get_mut(slot) {
                    let (lo, hi) = (bounds.lo.max(lo), bounds.hi.min(hi));
                    if lo <= hi {
                        *bounds = Interval::new(lo, hi);
                    }
                }
            }
        }
        if let Some(listed) = self.listed {
            // One component: [`Kernel::compile_box_lister`] lists no sums.
            let index = self.index_of(&m.result);
            self.list_option(listed, index);
        } else {
            let mut xor = self.b.ins().iconst(types::I32, 0);
            for component in m.result.chunks(self.arity) {
                let index = self.index_of(component);
                let v = self.load_value(index);
                xor = self.b.ins().bxor(xor, v);
            }
            self.mark(xor);
        }
        self.bounds = kept;
        self.b.ins().jump(after, &[]);
        self.b.switch_to_block(after);
    }

    /// A condition as a branchable value (non-zero: holds).
    fn condition(&mut self, e: &CExpr) -> Value {
        self.expr(e)
    }

    /// An expression's `i64` value, bailing out on any fault.
    fn expr(&mut self, e: &CExpr) -> Value {
        use BinaryOp::*;
        match &e.kind {
            CExprKind::Const(v) => self.b.ins().iconst(types::I64, *v),
            CExprKind::Slot(s) => self.b.use_var(self.slots[*s]),
            CExprKind::Neg(x) => {
                let bounds = self.bounds_of(x);
                let x = self.expr(x);
                let zero = self.b.ins().iconst(types::I64, 0);
                self.checked_within(Sub, (zero, Interval::point(0)), (x, bounds))
            }
            CExprKind::Abs(x) => {
                let bounds = self.bounds_of(x);
                let x = self.expr(x);
                if bounds.contains(Interval::ANY.lo) {
                    let min = self.b.ins().icmp_imm_s(IntCC::Equal, x, i64::MIN);
                    self.bail_if(min);
                }
                self.b.ins().iabs(x)
            }
            CExprKind::Not(x) => {
                let x = self.expr(x);
                let zero = self.b.ins().icmp_imm_s(IntCC::Equal, x, 0);
                self.b.ins().uextend(types::I64, zero)
            }
            CExprKind::BitNot(x) => {
                let x = self.expr(x);
                self.b.ins().bnot(x)
            }
            CExprKind::Popcount(x) => {
                let x = self.expr(x);
                self.b.ins().popcnt(x)
            }
            CExprKind::Ctz(x) => {
                let x = self.expr(x);
                self.b.ins().ctz(x)
            }
            CExprKind::Bit(x, i) => {
                let index = self.bounds_of(i);
                let x = self.expr(x);
                let i = self.expr(i);
                if !index.within(0, 63) {
                    self.shift_range(i);
                }
                let shifted = self.b.ins().sshr(x, i);
                self.b.ins().band_imm_u(shifted, 1)
            }
            CExprKind::Count(conditions) => {
                let mut count = self.b.ins().iconst(types::I64, 0);
                for c in conditions {
                    let c = self.expr(c);
                    let holds = self.b.ins().icmp_imm_s(IntCC::NotEqual, c, 0);
                    let holds = self.b.ins().uextend(types::I64, holds);
                    count = self.b.ins().iadd(count, holds);
                }
                count
            }
            CExprKind::Min(args) | CExprKind::Max(args) => {
                let is_min = matches!(e.kind, CExprKind::Min(_));
                let mut best = self.expr(&args[0]);
                for arg in &args[1..] {
                    let v = self.expr(arg);
                    best = if is_min {
                        self.b.ins().smin(best, v)
                    } else {
                        self.b.ins().smax(best, v)
                    };
                }
                best
            }
            CExprKind::Binary(And, a, b) if self.known_to_hold(a) => {
                let b = self.expr(b);
                let b_holds = self.b.ins().icmp_imm_s(IntCC::NotEqual, b, 0);
                self.b.ins().uextend(types::I64, b_holds)
            }
            CExprKind::Binary(And, a, b) if self.known_to_hold(b) => {
                let a = self.expr(a);
                let a_holds = self.b.ins().icmp_imm_s(IntCC::NotEqual, a, 0);
                self.b.ins().uextend(types::I64, a_holds)
            }
            CExprKind::Binary(op @ (And | Or), a, b) => {
                // Short-circuit, as the interpreter: `b` is not evaluated (nor its faults).
                let a = self.expr(a);
                let a_holds = self.b.ins().icmp_imm_s(IntCC::NotEqual, a, 0);
                let a_wide = self.b.ins().uextend(types::I64, a_holds);
                let rest = self.b.create_block();
                let done = self.b.create_block();
                self.b.append_block_param(done, types::I64);
                match op {
                    And => self
                        .b
                        .ins()
                        .brif(a_holds, rest, &[], done, &[a_wide.into()]),
                    _ => self
                        .b
                        .ins()
                        .brif(a_holds, done, &[a_wide.into()], rest, &[]),
                };
                self.b.switch_to_block(rest);
                let b = self.expr(b);
                let b_holds = self.b.ins().icmp_imm_s(IntCC::NotEqual, b, 0);
                let b_wide = self.b.ins().uextend(types::I64, b_holds);
                self.b.ins().jump(done, &[b_wide.into()]);
                self.b.switch_to_block(done);
                self.b.block_params(done)[0]
            }
            CExprKind::Binary(op, a, b) => {
                let (a_bounds, b_bounds) = (self.bounds_of(a), self.bounds_of(b));
                let a = self.expr(a);
                let b = self.expr(b);
                self.checked_within(*op, (a, a_bounds), (b, b_bounds))
            }
            CExprKind::Arith(f, args) => {
                let index = Function::ALL.iter().position(|g| g == f).unwrap_or(0);
                let f = self.b.ins().iconst(types::I64, index as i64);
                let a = self.expr(&args[0]);
                let b = match args.get(1) {
                    Some(e) => self.expr(e),
                    None => self.b.ins().iconst(types::I64, 0),
                };
                let slot =
                    self.b
                        .create_sized_stack_slot(cranelift_codegen::ir::StackSlotData::new(
                            cranelift_codegen::ir::StackSlotKind::ExplicitSlot,
                            8,
                            3,
                        ));
                let out = self.b.ins().stack_addr(self.pointer, slot, 0);
                let call = self.b.ins().call(self.arith, &[f, a, b, out]);
                let ok = self.b.inst_results(call)[0];
                let fault = self.b.ins().icmp_imm_s(IntCC::Equal, ok, 0);
                self.bail_if(fault);
                self.b.ins().stack_load(self.pointer, types::I64, slot, 0)
            }
        }
    }

    /// True for the bit test the loop around already passed ([`Gen::bits_tested`]): it holds,
    /// and cannot fault (the loop checked that).
    fn known_to_hold(&self, conjunct: &CExpr) -> bool {
        let Some(word) = self.holds else {
            return false;
        };
        crate::rules::program::bit_test_of_conjunct(conjunct, self.last_binder)
            .is_some_and(|(w, _)| std::ptr::eq(w, word))
    }

    /// `a / b` (floor) or `a % b` (Euclidean) for `b` not 0 and not `i64::MIN / -1`.
    fn division(&mut self, op: BinaryOp, a: Value, b: Value) -> Value {
        let q = self.b.ins().sdiv(a, b);
        let r = self.b.ins().srem(a, b);
        let zero = self.b.ins().iconst(types::I64, 0);
        let r_nonzero = self.b.ins().icmp_imm_s(IntCC::NotEqual, r, 0);
        if op == BinaryOp::Div {
            // Floor: one less when the remainder's sign differs from the divisor's.
            let signs = self.b.ins().bxor(r, b);
            let differ = self.b.ins().icmp(IntCC::SignedLessThan, signs, zero);
            let adjust = self.b.ins().band(r_nonzero, differ);
            let adjust = self.b.ins().uextend(types::I64, adjust);
            self.b.ins().isub(q, adjust)
        } else {
            // Euclidean: a negative remainder plus |b|.
            let negative = self.b.ins().icmp(IntCC::SignedLessThan, r, zero);
            let magnitude = self.b.ins().iabs(b);
            let lifted = self.b.ins().iadd(r, magnitude);
            self.b.ins().select(negative, lifted, r)
        }
    }

    fn shift_range(&mut self, i: Value) {
        let outside = self.b.ins().icmp_imm_s(IntCC::UnsignedGreaterThan, i, 63);
        self.bail_if(outside);
    }

    /// Bounds on `e`'s values ([`interval::bounds`] with the slots' bounds).
    fn bounds_of(&self, e: &CExpr) -> Interval {
        interval::bounds(e, &self.bounds)
    }

    /// `a op b` with the language's checked semantics ([`crate::rules::checked::apply`]).
    fn checked(&mut self, op: BinaryOp, a: Value, b: Value) -> Value {
        self.checked_within(op, (a, Interval::ANY), (b, Interval::ANY))
    }

    /// [`Gen::checked`] for operands within bounds: without the checks they prove cannot
    /// fail (an exact result within `i64`, a divisor other than 0 and -1, a shift amount
    /// within `0..=63`).
    fn checked_within(
        &mut self,
        op: BinaryOp,
        (a, a_bounds): (Value, Interval),
        (b, b_bounds): (Value, Interval),
    ) -> Value {
        use BinaryOp::*;
        let exact = Interval::exact(op, a_bounds, b_bounds).is_some_and(|i| i.fits());
        match op {
            Add if exact => return self.b.ins().iadd(a, b),
            Sub if exact => return self.b.ins().isub(a, b),
            Mul if exact => return self.b.ins().imul(a, b),
            Shl if exact => return self.b.ins().ishl(a, b),
            Shr if b_bounds.within(0, 63) => return self.b.ins().sshr(a, b),
            Div | Rem => {
                let may_overflow = a_bounds.contains(Interval::ANY.lo) && b_bounds.contains(-1);
                if !b_bounds.contains(0) && !may_overflow {
                    return self.division(op, a, b);
                }
            }
            _ => {}
        }
        let compare = |g: &mut Self, cc: IntCC| {
            let c = g.b.ins().icmp(cc, a, b);
            g.b.ins().uextend(types::I64, c)
        };
        match op {
            Add | Sub | Mul => {
                let (value, overflow) = match op {
                    Add => self.b.ins().sadd_overflow(a, b),
                    Sub => self.b.ins().ssub_overflow(a, b),
                    _ => self.b.ins().smul_overflow(a, b),
                };
                self.bail_if(overflow);
                value
            }
            Div | Rem => {
                let zero = self.b.ins().icmp_imm_s(IntCC::Equal, b, 0);
                self.bail_if(zero);
                let a_min = self.b.ins().icmp_imm_s(IntCC::Equal, a, i64::MIN);
                let b_minus_one = self.b.ins().icmp_imm_s(IntCC::Equal, b, -1);
                let overflow = self.b.ins().band(a_min, b_minus_one);
                self.bail_if(overflow);
                self.division(op, a, b)
            }
            Eq => compare(self, IntCC::Equal),
            Ne => compare(self, IntCC::NotEqual),
            Lt => compare(self, IntCC::SignedLessThan),
            Le => compare(self, IntCC::SignedLessThanOrEqual),
            Gt => compare(self, IntCC::SignedGreaterThan),
            Ge => compare(self, IntCC::SignedGreaterThanOrEqual),
            And | Or => unreachable!("short-circuited in `expr`"),
            BitAnd => self.b.ins().band(a, b),
            BitOr => self.b.ins().bor(a, b),
            BitXor => self.b.ins().bxor(a, b),
            Shl => {
                if !b_bounds.within(0, 63) {
                    self.shift_range(b);
                }
                let shifted = self.b.ins().ishl(a, b);
                let back = self.b.ins().sshr(shifted, b);
                let lost = self.b.ins().icmp(IntCC::NotEqual, back, a);
                self.bail_if(lost);
                shifted
            }
            Shr => {
                self.shift_range(b);
                self.b.ins().sshr(a, b)
            }
        }
    }
}
