//! The inner loops of a dense layer over a batch, on plain slices.
//!
//! Samples are rows, stored back to back (`x[s * n_in + i]`); weights are `w[i * n_out + o]`.
//! Each result is summed in one fixed order, stated per function, and the loops are blocked
//! so that small tiles of results stay in registers (S samples or I inputs × N outputs).
//! Blocking only decides which independent sums run side by side: it never changes the
//! order within a sum, so results are the same bits whatever the tile sizes, SIMD width or
//! target, and equal to the naive loops in the tests below.

/// Width of the next output block: 8, 4, 2 or 1 outputs.
fn block(left: usize) -> usize {
    match left {
        8.. => 8,
        4..=7 => 4,
        2 | 3 => 2,
        _ => 1,
    }
}

/// Rows (samples or inputs) per tile for a block `width` wide: up to 16 accumulators, which
/// fit in the 16 SSE registers of x86-64 (8 of them holding two f64 each).
fn rows_per_tile(width: usize, left: usize) -> usize {
    if width <= 4 && left >= 4 {
        4
    } else if left >= 2 {
        2
    } else {
        1
    }
}

/// Calls `$f::<A, B>(args)` for runtime tile sizes `$a` ∈ {4, 2, 1}, `$b` ∈ {8, 4, 2, 1}.
macro_rules! tiles {
    ($f:ident, $a:expr, $b:expr, ($($arg:expr),*)) => {
        match ($a, $b) {
            (4, 4) => $f::<4, 4>($($arg),*),
            (4, 2) => $f::<4, 2>($($arg),*),
            (4, _) => $f::<4, 1>($($arg),*),
            (2, 8) => $f::<2, 8>($($arg),*),
            (2, 4) => $f::<2, 4>($($arg),*),
            (2, 2) => $f::<2, 2>($($arg),*),
            (2, _) => $f::<2, 1>($($arg),*),
            (_, 8) => $f::<1, 8>($($arg),*),
            (_, 4) => $f::<1, 4>($($arg),*),
            (_, 2) => $f::<1, 2>($($arg),*),
            (_, _) => $f::<1, 1>($($arg),*),
        }
    };
}

/// `y[s][o] = b[o] + Σ_i x[s][i]·w[i][o]`, the sum taken in input order, for every row of `x`.
pub fn dense_forward(x: &[f64], n_in: usize, w: &[f64], b: &[f64], y: &mut [f64]) {
    let n_out = b.len();
    let rows = x.len() / n_in;
    debug_assert!(x.len() == rows * n_in && y.len() == rows * n_out && w.len() == n_in * n_out);
    let mut o = 0;
    while o < n_out {
        let width = block(n_out - o);
        let mut s = 0;
        while s < rows {
            let take = rows_per_tile(width, rows - s);
            tiles!(forward_tile, take, width, (x, n_in, w, b, y, s, o));
            s += take;
        }
        o += width;
    }
}

fn forward_tile<const S: usize, const N: usize>(
    x: &[f64],
    n_in: usize,
    w: &[f64],
    b: &[f64],
    y: &mut [f64],
    s0: usize,
    o0: usize,
) {
    let n_out = b.len();
    let rows: [&[f64]; S] = std::array::from_fn(|r| &x[(s0 + r) * n_in..][..n_in]);
    let bias: &[f64; N] = b[o0..o0 + N].try_into().expect("tile inside the layer");
    let mut acc = [*bias; S];
    for (i, w_row) in w.chunks_exact(n_out).enumerate() {
        let w_tile: &[f64; N] = w_row[o0..o0 + N].try_into().expect("tile inside the row");
        for r in 0..S {
            let xi = rows[r][i];
            for k in 0..N {
                acc[r][k] += xi * w_tile[k];
            }
        }
    }
    for (r, a) in acc.iter().enumerate() {
        y[(s0 + r) * n_out + o0..][..N].copy_from_slice(a);
    }
}

/// Weight and bias gradients of a batch: `gw[i][o] += Σ_s x[s][i]·d[s][o]` and
/// `gb[o] += Σ_s d[s][o]`; each batch sum starts from 0 and runs in row order, then is added.
pub fn dense_grads(x: &[f64], n_in: usize, d: &[f64], n_out: usize, gw: &mut [f64], gb: &mut [f64]) {
    let rows = d.len() / n_out;
    debug_assert!(x.len() == rows * n_in && gw.len() == n_in * n_out && gb.len() == n_out);
    for (o, g) in gb.iter_mut().enumerate() {
        let mut acc = 0.0;
        for s in 0..rows {
            acc += d[s * n_out + o];
        }
        *g += acc;
    }
    let mut o = 0;
    while o < n_out {
        let width = block(n_out - o);
        let mut i = 0;
        while i < n_in {
            let take = rows_per_tile(width, n_in - i);
            tiles!(grad_tile, take, width, (x, n_in, d, n_out, gw, i, o));
            i += take;
        }
        o += width;
    }
}

fn grad_tile<const I: usize, const N: usize>(
    x: &[f64],
    n_in: usize,
    d: &[f64],
    n_out: usize,
    gw: &mut [f64],
    i0: usize,
    o0: usize,
) {
    let mut acc = [[0.0; N]; I];
    for (x_row, d_row) in x.chunks_exact(n_in).zip(d.chunks_exact(n_out)) {
        let d_tile: &[f64; N] = d_row[o0..o0 + N].try_into().expect("tile inside the row");
        for r in 0..I {
            let xi = x_row[i0 + r];
            for k in 0..N {
                acc[r][k] += xi * d_tile[k];
            }
        }
    }
    for (r, a) in acc.iter().enumerate() {
        for (g, v) in gw[(i0 + r) * n_out + o0..][..N].iter_mut().zip(a) {
            *g += v;
        }
    }
}

/// The error passed down through a ReLU layer: `dp[s][i] = Σ_o w[i][o]·d[s][o]` (from 0, in
/// output order) where the layer's input `x[s][i]` (a ReLU output) is positive, else 0:
/// ReLU'(0) is taken as 0. `w_t` is scratch for Wᵀ, so the sum runs as a forward pass
/// with a zero bias.
pub fn relu_backprop(x: &[f64], w: &[f64], d: &[f64], n_out: usize, dp: &mut [f64], w_t: &mut Vec<f64>) {
    debug_assert_eq!(x.len(), dp.len());
    let n_in = w.len() / n_out;
    w_t.clear();
    w_t.extend((0..n_out).flat_map(|o| w.chunks_exact(n_out).map(move |row| row[o])));
    w_t.extend(std::iter::repeat_n(0.0, n_in));
    let (w_t, zero) = w_t.split_at(n_in * n_out);
    dense_forward(d, n_out, w_t, zero, dp);
    for (dp, &xi) in dp.iter_mut().zip(x) {
        *dp = if xi > 0.0 { *dp } else { 0.0 };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{SimRng, StreamId};

    fn values(n: usize, r: &mut SimRng) -> Vec<f64> {
        (0..n).map(|_| 2.0 * r.uniform() - 1.0).collect()
    }

    fn bits(v: &[f64]) -> Vec<u64> {
        v.iter().map(|x| x.to_bits()).collect()
    }

    /// Odd sizes exercise every tile shape and the remainders.
    const SHAPES: [(usize, usize, usize); 5] = [(1, 1, 1), (3, 5, 7), (5, 64, 4), (7, 13, 19), (2, 9, 33)];

    #[test]
    fn blocked_forward_equals_the_naive_loop_bit_for_bit() {
        let mut r = SimRng::new(1, StreamId::Other(0));
        for (rows, n_in, n_out) in SHAPES {
            let (x, w, b) =
                (values(rows * n_in, &mut r), values(n_in * n_out, &mut r), values(n_out, &mut r));
            let mut y = vec![0.0; rows * n_out];
            dense_forward(&x, n_in, &w, &b, &mut y);
            let mut naive = vec![0.0; rows * n_out];
            for s in 0..rows {
                for o in 0..n_out {
                    let mut acc = b[o];
                    for i in 0..n_in {
                        acc += x[s * n_in + i] * w[i * n_out + o];
                    }
                    naive[s * n_out + o] = acc;
                }
            }
            assert_eq!(bits(&y), bits(&naive), "{rows}x{n_in}x{n_out}");
        }
    }

    #[test]
    fn blocked_gradients_equal_the_naive_loop_bit_for_bit() {
        let mut r = SimRng::new(2, StreamId::Other(0));
        for (rows, n_in, n_out) in SHAPES {
            let (x, d) = (values(rows * n_in, &mut r), values(rows * n_out, &mut r));
            let (gw0, gb0) = (values(n_in * n_out, &mut r), values(n_out, &mut r));
            let (mut gw, mut gb) = (gw0.clone(), gb0.clone());
            dense_grads(&x, n_in, &d, n_out, &mut gw, &mut gb);
            let (mut nw, mut nb) = (gw0, gb0);
            for o in 0..n_out {
                let mut acc = 0.0;
                for s in 0..rows {
                    acc += d[s * n_out + o];
                }
                nb[o] += acc;
                for i in 0..n_in {
                    let mut acc = 0.0;
                    for s in 0..rows {
                        acc += x[s * n_in + i] * d[s * n_out + o];
                    }
                    nw[i * n_out + o] += acc;
                }
            }
            assert_eq!((bits(&gw), bits(&gb)), (bits(&nw), bits(&nb)), "{rows}x{n_in}x{n_out}");
        }
    }

    #[test]
    fn backprop_stops_at_inactive_relus() {
        // x = [2, 0, −0]: only the first unit passes the error down.
        let w = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]; // 3 inputs × 2 outputs
        let mut dp = [9.0; 3];
        relu_backprop(&[2.0, 0.0, -0.0], &w, &[0.5, -1.0], 2, &mut dp, &mut Vec::new());
        assert_eq!(dp, [0.5 - 2.0, 0.0, 0.0]);
    }
}
