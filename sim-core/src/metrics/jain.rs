/// Jain's fairness index (Σx)² / (n·Σx²): 1 when all shares are equal, 1/n when one flow
/// takes everything. An empty or all-zero set counts as perfectly fair.
pub fn jain_index(xs: &[f64]) -> f64 {
    let n = xs.len() as f64;
    let sum: f64 = xs.iter().sum();
    let sq: f64 = xs.iter().map(|x| x * x).sum();
    if n == 0.0 || sq == 0.0 {
        1.0
    } else {
        sum * sum / (n * sq)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_shares_are_perfectly_fair() {
        assert_eq!(jain_index(&[3.0, 3.0, 3.0]), 1.0);
    }

    #[test]
    fn one_flow_taking_everything_scores_one_over_n() {
        assert!((jain_index(&[1.0, 0.0, 0.0, 0.0]) - 0.25).abs() < 1e-12);
    }

    #[test]
    fn a_two_to_one_split_scores_nine_tenths() {
        assert!((jain_index(&[2.0, 1.0]) - 0.9).abs() < 1e-12);
    }
}
