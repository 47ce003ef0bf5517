//! Shape codes: one number per cell for the multiset of its four line shapes.
//!
//! A cell's worth does not depend on which direction holds which shape, only on the four
//! shapes taken together: sorted, they are one of C(13, 4) = 715 multisets of the ten
//! [`Pattern`]s. Each multiset gets a dense code, its rank in the combinatorial number system
//! (sorted shapes `a <= b <= c <= d` become the distinct numbers `a < b+1 < c+2 < d+3` below
//! 13, and the code is `C(a,1) + C(b+1,2) + C(c+2,3) + C(d+3,4)`), so a table of one value per
//! code holds every combination of line shapes.

use crate::board::pattern::Pattern;

/// Number of shape codes: multisets of four of the ten line shapes.
pub const SHAPE_CODES: usize = 715;

/// `n` choose `k` for the small numbers the codes need.
const fn choose(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    let mut result = 1;
    let mut i = 0;
    while i < k {
        result = result * (n - i) / (i + 1);
        i += 1;
    }
    result
}

const _: () = assert!(choose(Pattern::COUNT + 3, 4) == SHAPE_CODES);

/// The shape code of four line shapes (in any order).
pub fn shape_code(patterns: [Pattern; 4]) -> usize {
    let mut sorted = patterns.map(|p| p as usize);
    sorted.sort_unstable();
    (0..4).map(|i| choose(sorted[i] + i, i + 1)).sum()
}

/// The four line shapes of a code, weakest first: the inverse of [`shape_code`] on sorted
/// shapes. `None` for a number that is no code.
pub fn shapes_of(code: usize) -> Option<[Pattern; 4]> {
    if code >= SHAPE_CODES {
        return None;
    }
    // Greedy decoding from the highest position: the largest m with C(m, i + 1) <= rest.
    let mut rest = code;
    let mut sorted = [0usize; 4];
    for i in (0..4).rev() {
        let mut m = i;
        while choose(m + 1, i + 1) <= rest {
            m += 1;
        }
        rest -= choose(m, i + 1);
        sorted[i] = m - i;
    }
    Some(sorted.map(|p| Pattern::from_u8(p as u8)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every sorted multiset of four shapes gets its own code, the codes fill 0..715, and
    /// decoding gives the multiset back; the order of the directions does not matter.
    #[test]
    fn codes_are_a_bijection_onto_sorted_multisets() {
        let n = Pattern::COUNT;
        let mut seen = vec![false; SHAPE_CODES];
        let mut multisets = 0;
        for a in 0..n {
            for b in a..n {
                for c in b..n {
                    for d in c..n {
                        let sorted = [a, b, c, d].map(|p| Pattern::from_u8(p as u8));
                        let code = shape_code(sorted);
                        assert!(code < SHAPE_CODES, "{sorted:?} -> {code}");
                        assert!(!seen[code], "{sorted:?} shares code {code}");
                        seen[code] = true;
                        assert_eq!(shapes_of(code), Some(sorted));
                        // Every order of the same four shapes.
                        for rotated in [[d, a, c, b], [c, d, b, a], [b, c, a, d]] {
                            let shuffled = rotated.map(|p| Pattern::from_u8(p as u8));
                            assert_eq!(shape_code(shuffled), code);
                        }
                        multisets += 1;
                    }
                }
            }
        }
        assert_eq!(multisets, SHAPE_CODES);
        assert!(seen.iter().all(|&s| s));
        assert_eq!(shapes_of(SHAPE_CODES), None);
        assert_eq!(shape_code([Pattern::Dead; 4]), 0);
        assert_eq!(shape_code([Pattern::Five; 4]), SHAPE_CODES - 1);
    }
}
