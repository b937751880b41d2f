//! Adam (Kingma & Ba 2015, Algorithm 1), the optimiser the DQN paper compiles its model with
//! (§3.3.4).
//!
//! Bias correction divides by 1 − β^t; β^t is kept as a running product rather than
//! computed with `pow`, so no transcendental function is involved: every operation is a
//! correctly rounded IEEE-754 `+ − × ÷ √`, identical on native and wasm.

use super::mlp::{Gradients, Mlp};

#[derive(Clone, Debug, PartialEq)]
pub struct Adam {
    /// Step size α.
    pub lr: f64,
    /// Decay of the first-moment estimate.
    pub beta1: f64,
    /// Decay of the second-moment estimate.
    pub beta2: f64,
    /// Added to √v̂ so a parameter with a zero gradient history does not divide by zero.
    pub eps: f64,
    m: Vec<f64>,
    v: Vec<f64>,
    /// β1^t and β2^t after `t` steps.
    beta1_t: f64,
    beta2_t: f64,
    t: u64,
}

impl Adam {
    /// Adam for `net`'s parameters with the paper's defaults β1 = 0.9, β2 = 0.999, ε = 1e-8.
    pub fn new(net: &Mlp, lr: f64) -> Adam {
        let n = net.params().len();
        Adam {
            lr,
            beta1: 0.9,
            beta2: 0.999,
            eps: 1e-8,
            m: vec![0.0; n],
            v: vec![0.0; n],
            beta1_t: 1.0,
            beta2_t: 1.0,
            t: 0,
        }
    }

    /// Steps taken so far.
    pub fn steps(&self) -> u64 {
        self.t
    }

    /// One update, θ ← θ − α·m̂/(√v̂ + ε), with m ← β1·m + (1 − β1)·g,
    /// v ← β2·v + (1 − β2)·g², m̂ = m/(1 − β1^t), v̂ = v/(1 − β2^t).
    pub fn step(&mut self, net: &mut Mlp, grads: &Gradients) {
        let g = grads.as_slice();
        assert_eq!(g.len(), self.m.len(), "gradients of another network");
        self.t += 1;
        self.beta1_t *= self.beta1;
        self.beta2_t *= self.beta2;
        let (b1, b2) = (self.beta1, self.beta2);
        let (c1, c2) = (1.0 - self.beta1_t, 1.0 - self.beta2_t);
        let params = net.params_mut();
        for (((p, m), v), &g) in params.iter_mut().zip(&mut self.m).zip(&mut self.v).zip(g) {
            *m = b1 * *m + (1.0 - b1) * g;
            *v = b2 * *v + (1.0 - b2) * g * g;
            let m_hat = *m / c1;
            let v_hat = *v / c2;
            *p -= self.lr * m_hat / (v_hat.sqrt() + self.eps);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{SimRng, StreamId};

    #[test]
    fn the_first_step_moves_each_parameter_by_about_lr_against_its_gradient() {
        // With bias correction, m̂ = g and v̂ = g² after one step: Δθ = −α·g/(|g| + ε).
        let mut net = Mlp::new(&[2, 1], &mut SimRng::new(1, StreamId::Other(0))).unwrap();
        let before = net.params().to_vec();
        let mut grads = net.zero_gradients();
        let mut s = net.scratch();
        net.forward_batch(&[1.0, -2.0], &mut s);
        net.backward_batch(&mut s, &[3.0], &mut grads);
        let mut adam = Adam::new(&net, 0.01);
        adam.step(&mut net, &grads);
        for ((a, b), g) in net.params().iter().zip(&before).zip(grads.as_slice()) {
            assert!((a - b + 0.01 * g.signum()).abs() < 1e-9, "{a} {b} {g}");
        }
        assert_eq!(adam.steps(), 1);
    }

    #[test]
    fn a_zero_gradient_leaves_parameters_alone() {
        let mut net = Mlp::new(&[3, 2], &mut SimRng::new(2, StreamId::Other(0))).unwrap();
        let before = net.digest();
        let grads = net.zero_gradients();
        let mut adam = Adam::new(&net, 0.1);
        adam.step(&mut net, &grads);
        assert_eq!(net.digest(), before);
    }

    /// Full-batch regression on the mean squared error; returns the loss before the last step.
    fn train_mse(net: &mut Mlp, adam: &mut Adam, xs: &[f64], ys: &[f64], epochs: usize) -> f64 {
        let mut s = net.scratch();
        let mut grads = net.zero_gradients();
        let n = ys.len() as f64;
        let mut mse = 0.0;
        for _ in 0..epochs {
            let out = net.forward_batch(xs, &mut s);
            let err: Vec<f64> = out.iter().zip(ys).map(|(o, y)| o - y).collect();
            mse = err.iter().map(|e| e * e).sum::<f64>() / n;
            let dl_dy: Vec<f64> = err.iter().map(|e| 2.0 * e / n).collect();
            grads.clear();
            net.backward_batch(&mut s, &dl_dy, &mut grads);
            adam.step(net, &grads);
        }
        mse
    }

    #[test]
    fn adam_fits_a_line() {
        let mut net = Mlp::new(&[1, 8, 1], &mut SimRng::new(7, StreamId::Other(0))).unwrap();
        let mut adam = Adam::new(&net, 0.01);
        let xs: Vec<f64> = (-10..=10).map(|i| f64::from(i) / 10.0).collect();
        let ys: Vec<f64> = xs.iter().map(|x| 2.0 * x + 1.0).collect();
        let before = train_mse(&mut net, &mut adam, &xs, &ys, 1);
        let after = train_mse(&mut net, &mut adam, &xs, &ys, 2000);
        assert!(before > 0.1 && after < 1e-4, "mse {before} -> {after}");
    }

    #[test]
    fn adam_learns_xor() {
        let mut net = Mlp::new(&[2, 8, 1], &mut SimRng::new(11, StreamId::Other(0))).unwrap();
        let mut adam = Adam::new(&net, 0.02);
        let xs = [0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 1.0, 1.0];
        let ys = [0.0, 1.0, 1.0, 0.0];
        let mse = train_mse(&mut net, &mut adam, &xs, &ys, 3000);
        assert!(mse < 1e-3, "xor mse {mse}");
        for (x, y) in xs.chunks(2).zip(ys) {
            assert!((net.forward(x)[0] - y).abs() < 0.1);
        }
    }
}
