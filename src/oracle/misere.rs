//! Misère play by brute force: `G⁻` of a sum of components and of nim-heaps `*1`, `*2`, by the
//! definition alone (`G⁻ = 1` with no move, else the mex of the options'), over the sum's
//! whole game tree. No genus, no tame addition, no canonical form beyond sorting: the
//! independent check of [`crate::value::misere`].

use std::collections::HashMap;

use crate::engine::generator::MoveGenerator;
use crate::engine::mex::mex_of;
use crate::rules::Game;

/// `G⁻(components + twos·*2 + ones·*1)` for a sum of positions of `game` (each `arity`
/// coordinates, flattened) and nim-heaps. Exponential: for small sums only.
pub fn misere_grundy(game: &Game, components: &[u64], twos: usize, ones: usize) -> u32 {
    let generator = MoveGenerator::of(game);
    let arity = generator.arity();
    let mut parts: Vec<Vec<u64>> = components.chunks(arity).map(<[u64]>::to_vec).collect();
    parts.sort();
    let mut memo = HashMap::new();
    value(&generator, (parts, twos, ones), &mut memo)
}

/// Misère Nim by Bouton's rule (1902): the player to move loses iff every heap is at most 1
/// and their number is odd, or some heap is larger and the XOR of the heaps is 0.
pub fn bouton_misere_p(heaps: &[u64]) -> bool {
    let xor = heaps.iter().fold(0, |a, &b| a ^ b);
    if heaps.iter().all(|&h| h <= 1) {
        xor == 1
    } else {
        xor == 0
    }
}

type State = (Vec<Vec<u64>>, usize, usize);

fn value(generator: &MoveGenerator<'_>, state: State, memo: &mut HashMap<State, u32>) -> u32 {
    if let Some(&v) = memo.get(&state) {
        return v;
    }
    let (parts, twos, ones) = &state;
    let arity = generator.arity();
    let mut options: Vec<State> = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        generator
            .for_each_option(part, &mut |flat| {
                let mut next: Vec<Vec<u64>> = parts.clone();
                next.remove(i);
                next.extend(flat.chunks(arity).map(<[u64]>::to_vec));
                next.sort();
                options.push((next, *twos, *ones));
            })
            .expect("the rules run");
    }
    if *twos > 0 {
        options.push((parts.clone(), twos - 1, ones + 1));
        options.push((parts.clone(), twos - 1, *ones));
    }
    if *ones > 0 {
        options.push((parts.clone(), *twos, ones - 1));
    }
    let v = if options.is_empty() {
        1
    } else {
        let values: Vec<u32> = options
            .into_iter()
            .map(|o| value(generator, o, memo))
            .collect();
        mex_of(values)
    };
    memo.insert(state, v);
    v
}
