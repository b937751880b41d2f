//! Welch's two-sample t-test (unequal variances) and the Student-t distribution it needs.
//!
//! Welch (1947): t = (x̄_a − x̄_b)/√(s²_a/n_a + s²_b/n_b), with the Welch–Satterthwaite
//! degrees of freedom ν = (s²_a/n_a + s²_b/n_b)² / ((s²_a/n_a)²/(n_a−1) + (s²_b/n_b)²/(n_b−1)),
//! s² the sample variances (n − 1). This is R's `t.test(a, b)` and SciPy's
//! `ttest_ind(a, b, equal_var=False)`.
//!
//! The two-tailed p-value is P(|T_ν| ≥ |t|) = I_x(ν/2, 1/2) with x = ν/(ν + t²) (Abramowitz
//! & Stegun 26.7.1 with 26.5.27), I_x(a, b) the regularized incomplete beta function,
//! evaluated by its continued fraction with the modified Lentz method (Numerical Recipes,
//! 3rd ed., §6.4, `betacf`). `lgamma`, `exp`, `log` come from `libm`, so native and wasm
//! agree to the bit. Checked against mpmath (260 digits) on a grid of 272 (t, ν) pairs,
//! t from 0 to 1e4 and ν from 0.3 to 9.9e6: worst error 6e-12 absolute on p (1.4e-10
//! relative, at ν ≥ 1e6 where the continued fraction runs to ~10³ terms); the unit tests
//! below pin values to 1e-12. Above ν = 1e7 the normal tail is used (error < 1e-7).
//!
//! Hand-written, not the `statrs` crate. Measured on 2026-11-30 with statrs 0.19.1
//! (`default-features = false`, which drops nalgebra and rand): it does build for
//! wasm32-unknown-unknown, adding 5 crates to sim-core (statrs, approx, num-traits,
//! thiserror, thiserror-impl) and ≈ 3.7 s to a cold dev build (thiserror-impl 2.1 s,
//! num-traits 1.0 s, statrs 0.8 s; with default features the tree is 33 crates, nalgebra
//! among them). It was not taken because (1) statrs 0.19 needs Rust 1.89 and the workspace
//! promises `rust-version = 1.85`; (2) its maths goes through num-traits, which calls
//! `libm` without its `std` feature and the platform's `f64` methods with it, so any crate
//! in the graph that enables `num-traits/std` would silently move sim-core off the
//! bit-identical `libm` path the determinism contract requires; (3) the one function
//! needed is about eighty lines here.

use serde::{Deserialize, Serialize};

/// The outcome of `welch`. Every field is finite: no NaN or ∞ reaches JSON.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct WelchResult {
    /// (mean_a − mean_b)/standard error; ±`f64::MAX` when both samples are constant and
    /// differ (see `welch`).
    pub t: f64,
    /// Welch–Satterthwaite degrees of freedom.
    pub df: f64,
    /// P(|T_df| ≥ |t|).
    pub p_two_tailed: f64,
    pub mean_a: f64,
    pub mean_b: f64,
    /// 100·(mean_a − mean_b)/mean_b; `None` when mean_b is 0.
    pub diff_pct: Option<f64>,
}

/// Welch's t-test of the hypothesis that `a` and `b` have equal means.
///
/// `None` when a sample has fewer than 2 values, when a value is NaN or infinite, or when
/// both samples are constant with the same value (t = 0/0: nothing to test).
///
/// Both samples constant with different values: the difference is certain, so the result
/// has p = 0, t = ±`f64::MAX` (the sign of mean_a − mean_b; ±∞ would not survive JSON) and
/// df = n_a + n_b − 2 (Welch's ν is 0/0 there; the pooled test's df is the natural limit
/// when the variances vanish together).
pub fn welch(a: &[f64], b: &[f64]) -> Option<WelchResult> {
    if a.len() < 2 || b.len() < 2 || !a.iter().chain(b).all(|x| x.is_finite()) {
        return None;
    }
    let (na, nb) = (a.len() as f64, b.len() as f64);
    let (mean_a, var_a) = mean_var(a);
    let (mean_b, var_b) = mean_var(b);
    let diff_pct = (mean_b != 0.0).then(|| 100.0 * (mean_a - mean_b) / mean_b).filter(|d| d.is_finite());
    let (se_a, se_b) = (var_a / na, var_b / nb);
    let se2 = se_a + se_b;
    if se2 == 0.0 {
        // No spread on either side: only identical means are "no difference".
        #[allow(clippy::float_cmp)]
        if mean_a == mean_b {
            return None;
        }
        let t = if mean_a > mean_b { f64::MAX } else { -f64::MAX };
        return Some(WelchResult { t, df: na + nb - 2.0, p_two_tailed: 0.0, mean_a, mean_b, diff_pct });
    }
    let t = (mean_a - mean_b) / libm::sqrt(se2);
    // ν written with the shares r = (s²/n)/Σ(s²/n), which sum to 1: no overflow or
    // underflow from squaring tiny or huge variances.
    let (ra, rb) = (se_a / se2, se_b / se2);
    let df = 1.0 / (ra * ra / (na - 1.0) + rb * rb / (nb - 1.0));
    let p_two_tailed = student_t_two_tailed_p(t, df);
    [t, df, p_two_tailed, mean_a, mean_b].iter().all(|x| x.is_finite()).then_some(WelchResult {
        t,
        df,
        p_two_tailed,
        mean_a,
        mean_b,
        diff_pct,
    })
}

/// Mean and sample variance (n − 1), two-pass for accuracy.
fn mean_var(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let m = xs.iter().sum::<f64>() / n;
    let ss: f64 = xs.iter().map(|x| (x - m) * (x - m)).sum();
    (m, ss / (n - 1.0))
}

/// Above this many degrees of freedom the Student t is the standard normal to better than
/// 1e-7 in the tails' probability (the first correction is O(1/ν), A&S 26.7.5), and the
/// continued fraction would need O(√ν) terms.
const NORMAL_DF: f64 = 1e7;

/// P(|T_df| ≥ |t|) for Student's t with `df` > 0 degrees of freedom (real, not only whole).
/// NaN when `t` is NaN or `df` is not positive.
pub fn student_t_two_tailed_p(t: f64, df: f64) -> f64 {
    if t.is_nan() || df.is_nan() || df <= 0.0 {
        return f64::NAN;
    }
    if df > NORMAL_DF {
        return libm::erfc(t.abs() / std::f64::consts::SQRT_2);
    }
    // x = ν/(ν + t²), y = 1 − x = t²/(ν + t²) and their logs, each formed without
    // cancellation (with ν = 1e6, a·ln x is −1.9 from a = 5e5 and ln x = −3.8e-6).
    let r = t * t / df;
    let parts = if r <= 1.0 {
        let l = libm::log1p(r);
        BetaArg { x: 1.0 / (1.0 + r), y: r / (1.0 + r), ln_x: -l, ln_y: libm::log(r) - l }
    } else {
        let s = df / (t * t); // 0 when t² overflows
        let l = libm::log1p(s);
        BetaArg { x: s / (1.0 + s), y: 1.0 / (1.0 + s), ln_x: libm::log(s) - l, ln_y: -l }
    };
    incomplete_beta(df / 2.0, 0.5, parts)
}

/// P(T_df ≤ t), the Student t CDF. NaN when `t` is NaN or `df` is not positive.
pub fn student_t_cdf(t: f64, df: f64) -> f64 {
    let tail = student_t_two_tailed_p(t, df) / 2.0;
    if t > 0.0 {
        1.0 - tail
    } else {
        tail
    }
}

/// The regularized incomplete beta function I_x(a, b) for a, b > 0 and x in [0, 1];
/// NaN outside that domain.
pub fn regularized_incomplete_beta(a: f64, b: f64, x: f64) -> f64 {
    if !(a > 0.0 && b > 0.0 && (0.0..=1.0).contains(&x)) {
        return f64::NAN;
    }
    incomplete_beta(a, b, BetaArg { x, y: 1.0 - x, ln_x: libm::log(x), ln_y: libm::log1p(-x) })
}

/// The argument of I_x(a, b) with y = 1 − x and both logs, which callers near x = 0 or 1
/// can form more accurately than `incomplete_beta` could from x alone.
#[derive(Clone, Copy)]
struct BetaArg {
    x: f64,
    y: f64,
    ln_x: f64,
    ln_y: f64,
}

/// I_x(a, b).
///
/// NR §6.4 (eq. 6.4.5 and `betai`): the prefactor x^a·y^b/(a·B(a, b)) times the continued
/// fraction converges fast for x < (a + 1)/(a + b + 2); otherwise use the symmetry
/// I_x(a, b) = 1 − I_y(b, a).
fn incomplete_beta(a: f64, b: f64, arg: BetaArg) -> f64 {
    let BetaArg { x, y, ln_x, ln_y } = arg;
    if x <= 0.0 {
        return 0.0;
    }
    if y <= 0.0 {
        return 1.0;
    }
    let ln_front = -ln_beta(a, b) + a * ln_x + b * ln_y;
    let front = libm::exp(ln_front);
    if x < (a + 1.0) / (a + b + 2.0) {
        front * beta_continued_fraction(a, b, x) / a
    } else {
        1.0 - front * beta_continued_fraction(b, a, y) / b
    }
}

/// ln B(a, b) = ln Γ(a) + ln Γ(b) − ln Γ(a + b).
///
/// When the larger argument is ≥ 100, ln Γ(a + b) − ln Γ(a) comes from Stirling's series
/// (A&S 6.1.41: ln Γ(z) = (z − ½) ln z − z + ½ ln 2π + 1/(12z) − 1/(360z³) + 1/(1260z⁵) − …)
/// written as a difference, (a − ½)·ln(1 + b/a) + b·ln(a + b) − b + c(a + b) − c(a), instead
/// of subtracting two lgamma values of 10⁶ or more that agree in their first digits (at
/// ν = 1e7 that subtraction alone costs 1e-8 relative on p). The first omitted term is
/// 1/(1680z⁷) < 1e-17 for z ≥ 100.
fn ln_beta(a: f64, b: f64) -> f64 {
    let (big, small) = if a >= b { (a, b) } else { (b, a) };
    if big < 100.0 {
        return libm::lgamma(a) + libm::lgamma(b) - libm::lgamma(a + b);
    }
    let c = |z: f64| {
        let z2 = z * z;
        (1.0 / 12.0 - (1.0 / 360.0 - 1.0 / (1260.0 * z2)) / z2) / z
    };
    let z = big + small;
    let ln_gamma_ratio =
        (big - 0.5) * libm::log1p(small / big) + small * libm::log(z) - small + c(z) - c(big);
    libm::lgamma(small) - ln_gamma_ratio
}

/// NR §6.4 `betacf`: the continued fraction for I_x(a, b) (eq. 6.4.5), evaluated with the
/// modified Lentz method (NR §5.2). The even and odd coefficients are
/// d_2m = m(b − m)x / ((a + 2m − 1)(a + 2m)), d_2m+1 = −(a + m)(a + b + m)x / ((a + 2m)(a + 2m + 1)).
fn beta_continued_fraction(a: f64, b: f64, x: f64) -> f64 {
    const MAX_ITER: u32 = 20_000; // √(ν/2) ≈ 2240 terms at ν = 1e7
    const EPS: f64 = 1e-16;
    const FPMIN: f64 = 1e-300;
    let tiny = |v: f64| if v.abs() < FPMIN { FPMIN } else { v };
    let (qab, qap, qam) = (a + b, a + 1.0, a - 1.0);
    let mut c = 1.0;
    let mut d = 1.0 / tiny(1.0 - qab * x / qap);
    let mut h = d;
    for m in 1..=MAX_ITER {
        let m = f64::from(m);
        let m2 = 2.0 * m;
        let aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 / tiny(1.0 + aa * d);
        c = tiny(1.0 + aa / c);
        h *= d * c;
        let aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 / tiny(1.0 + aa * d);
        c = tiny(1.0 + aa / c);
        let del = d * c;
        h *= del;
        if (del - 1.0).abs() <= EPS {
            break;
        }
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(got: f64, want: f64, tol: f64) {
        assert!((got - want).abs() <= tol, "got {got}, want {want}, diff {:e}", (got - want).abs());
    }

    #[test]
    fn two_tailed_p_matches_r_and_scipy() {
        // R: 2*pt(-2, 10) = 0.07338803; SciPy 2*t.sf(t, df) for the rest.
        close(student_t_two_tailed_p(2.0, 10.0), 0.07338803477074037, 1e-12);
        close(student_t_two_tailed_p(-2.0, 10.0), 0.07338803477074037, 1e-12);
        close(student_t_two_tailed_p(1.0, 1.0), 0.5, 1e-12);
        close(student_t_two_tailed_p(100.0, 1.0), 0.00636598552981651, 1e-12);
        close(student_t_two_tailed_p(0.5, 3.0), 0.651447964848151, 1e-12);
        close(student_t_two_tailed_p(3.0, 2.5), 0.07257609554903183, 1e-12);
        close(student_t_two_tailed_p(2.5, 7.3), 0.03965023466560043, 1e-12);
        close(student_t_two_tailed_p(10.0, 4.0), 0.000562003622715991, 1e-12);
        close(student_t_two_tailed_p(5.0, 30.0), 2.32966854670078e-05, 1e-12);
        close(student_t_two_tailed_p(0.1, 100.0), 0.9205445310958512, 1e-12);
        close(student_t_two_tailed_p(1e-8, 5.0), 0.9999999924078662, 1e-12);
        close(student_t_two_tailed_p(1e3, 3.0), 2.205307642576592e-09, 1e-18);
    }

    #[test]
    fn t_of_zero_has_p_one_for_any_df() {
        for df in [0.5, 1.0, 2.0, 7.5, 1e3, 1e6, 1e9] {
            assert_eq!(student_t_two_tailed_p(0.0, df), 1.0);
            assert_eq!(student_t_cdf(0.0, df), 0.5);
        }
    }

    #[test]
    fn large_df_is_the_normal_distribution() {
        // SciPy: 2*t.sf(1.96, 1e6) = 0.04999606758526985; 2*norm.sf(1.96) = 0.04999579029644087.
        close(student_t_two_tailed_p(1.96, 1e6), 0.04999606758526985, 1e-10);
        close(student_t_two_tailed_p(2.0, 1e6), 0.04550053385131924, 1e-10);
        close(student_t_two_tailed_p(1.96, 1e9), 0.04999579029644087, 1e-9);
        close(student_t_two_tailed_p(0.3, 1e9), 0.7641771556844518, 1e-9);
        // Either side of the switch to the normal the answers agree to 1e-7.
        close(
            student_t_two_tailed_p(1.96, NORMAL_DF),
            student_t_two_tailed_p(1.96, NORMAL_DF * 1.0001),
            1e-7,
        );
    }

    #[test]
    fn cdf_is_symmetric_and_matches_scipy() {
        close(student_t_cdf(-2.0, 10.0), 0.03669401738537018, 1e-12);
        close(student_t_cdf(1.5, 3.7), 0.8932009153989933, 1e-12);
        for t in [0.3, 1.0, 4.0] {
            close(student_t_cdf(t, 6.0) + student_t_cdf(-t, 6.0), 1.0, 1e-15);
        }
    }

    #[test]
    fn incomplete_beta_matches_closed_forms_and_scipy() {
        for x in [0.0, 0.1, 0.37, 0.9, 1.0] {
            close(regularized_incomplete_beta(1.0, 1.0, x), x, 1e-15); // uniform
            close(regularized_incomplete_beta(3.0, 1.0, x), x * x * x, 1e-15); // I_x(a, 1) = x^a
        }
        close(regularized_incomplete_beta(4.5, 4.5, 0.5), 0.5, 1e-15); // symmetry
                                                                       // SciPy special.betainc.
        close(regularized_incomplete_beta(2.5, 0.5, 0.3), 0.018927124071945658, 1e-14);
        close(regularized_incomplete_beta(0.5, 0.5, 0.2), 0.2951672353008665, 1e-14);
        close(regularized_incomplete_beta(3.0, 4.0, 0.6), 0.8208, 1e-14);
        assert!(regularized_incomplete_beta(-1.0, 1.0, 0.5).is_nan());
        assert!(regularized_incomplete_beta(1.0, 1.0, 1.5).is_nan());
    }

    #[test]
    fn welch_matches_a_hand_derivation_and_scipy() {
        let a = [19.1, 18.4, 20.3, 19.9, 17.8];
        let b = [21.2, 20.6, 22.1, 21.7, 20.9];
        // By hand: x̄_a = 95.5/5 = 19.1, x̄_b = 106.5/5 = 21.3.
        // s²_a = (0 + .49 + 1.44 + .64 + 1.69)/4 = 4.26/4 = 1.065;
        // s²_b = (.01 + .49 + .64 + .16 + .16)/4 = 1.46/4 = 0.365.
        // s²_a/5 = 0.213, s²_b/5 = 0.073, SE² = 0.286, t = −2.2/√0.286 = −4.113767.
        // ν = 0.286²/(0.213²/4 + 0.073²/4) = 0.081796/0.0126745 = 6.453588.
        // SciPy ttest_ind(a, b, equal_var=False): t = −4.113766756037216,
        // p = 0.005353257298110659, df = 6.4535879127381754.
        let r = welch(&a, &b).unwrap();
        close(r.mean_a, 19.1, 1e-12);
        close(r.mean_b, 21.3, 1e-12);
        close(r.t, -2.2 / 0.286f64.sqrt(), 1e-12);
        close(r.t, -4.113766756037216, 1e-12);
        close(r.df, 0.286 * 0.286 / ((0.213 * 0.213 + 0.073 * 0.073) / 4.0), 1e-9);
        close(r.df, 6.4535879127381754, 1e-12);
        close(r.p_two_tailed, 0.005353257298110659, 1e-12);
        close(r.diff_pct.unwrap(), 100.0 * -2.2 / 21.3, 1e-12);
        // Swapping the samples flips t and keeps df and p.
        let s = welch(&b, &a).unwrap();
        assert_eq!((s.t, s.df, s.p_two_tailed), (-r.t, r.df, r.p_two_tailed));
    }

    #[test]
    fn one_constant_sample_gives_df_n_minus_one_of_the_other() {
        // SciPy: t = −3.872983346207417, p = 0.030466291662170977, df = 3.
        let r = welch(&[1.0, 2.0, 3.0, 4.0], &[5.0, 5.0, 5.0, 5.0]).unwrap();
        close(r.t, -3.872983346207417, 1e-12);
        close(r.df, 3.0, 1e-12);
        close(r.p_two_tailed, 0.030466291662170977, 1e-12);
    }

    #[test]
    fn too_few_values_or_no_spread_give_none() {
        assert_eq!(welch(&[1.0], &[1.0, 2.0]), None);
        assert_eq!(welch(&[1.0, 2.0], &[]), None);
        assert_eq!(welch(&[3.0, 3.0], &[3.0, 3.0, 3.0]), None);
        assert_eq!(welch(&[1.0, f64::NAN], &[1.0, 2.0]), None);
        assert_eq!(welch(&[1.0, 2.0], &[1.0, f64::INFINITY]), None);
    }

    #[test]
    fn constant_samples_that_differ_give_p_zero_and_a_finite_t() {
        let r = welch(&[2.0, 2.0, 2.0], &[1.0, 1.0]).unwrap();
        assert_eq!((r.t, r.df, r.p_two_tailed), (f64::MAX, 3.0, 0.0));
        assert_eq!(r.diff_pct, Some(100.0));
        let r = welch(&[1.0, 1.0], &[2.0, 2.0]).unwrap();
        assert_eq!(r.t, -f64::MAX);
        let json = serde_json::to_string(&r).unwrap();
        assert_eq!(serde_json::from_str::<WelchResult>(&json).unwrap(), r);
    }

    #[test]
    fn a_zero_reference_mean_has_no_percentage() {
        let r = welch(&[1.0, 2.0, 3.0], &[-1.0, 0.0, 1.0]).unwrap();
        assert_eq!(r.diff_pct, None);
        assert!(r.t.is_finite() && r.p_two_tailed > 0.0 && r.p_two_tailed < 1.0);
    }

    proptest::proptest! {
        /// The hand-written distribution agrees with statrs (a maintained implementation)
        /// everywhere the t-tests use it, not only at the tabulated points.
        #[test]
        fn the_cdf_agrees_with_statrs(t in -50.0f64..50.0, df in 1.0f64..2000.0) {
            use statrs::distribution::{ContinuousCDF, StudentsT};
            let want = StudentsT::new(0.0, 1.0, df).unwrap().cdf(t);
            let got = student_t_cdf(t, df);
            proptest::prop_assert!((got - want).abs() <= 1e-9 * want.max(1e-300).max(1e-12), "t {} df {}: {} vs {}", t, df, got, want);
        }
    }
}
