//! Lines that lie on one another: found along the chart's axis and named in its legend
//! ("flows 0-3 coincide", "CoDel = FQ-CoDel here"), so that none hides another.

use super::Line;

/// Lines that lie on one another where the chart draws them: their indices in drawing order
/// (the first is underneath) and what the legend says ("flows 0-6 coincide", "codel =
/// fq_codel here").
#[derive(Clone, Debug, PartialEq)]
pub struct Coincidence {
    pub members: Vec<usize>,
    pub note: String,
}

/// Two lines read as one when they are at most this share of the axis apart (3 px of a
/// 300 px chart, less than the lines' own width)...
pub const COINCIDE_WITHIN: f64 = 0.01;
/// ... at this share of the places either is drawn (a start-up transient does not part
/// them); below [`COINCIDE_ALL`] the legend gives the share.
pub const COINCIDE_SHARE: f64 = 0.9;
pub const COINCIDE_ALL: f64 = 0.95;
/// Places compared along the x axis.
const PROBES: usize = 256;

/// Groups of lines that coincide on an axis from `y_min` to `y_max` (values beyond it are
/// drawn at its edge, and compared there). Each line joins the first group whose first
/// line it coincides with, so a group's first member is the one drawn underneath.
pub fn coincidences(lines: &[Line], y_min: f64, y_max: f64) -> Vec<Coincidence> {
    let ends = lines.iter().filter_map(|l| Some((l.points.first()?.0, l.points.last()?.0)));
    let (lo, hi) = ends.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), (f, l)| (a.min(f), b.max(l)));
    if hi.partial_cmp(&lo) != Some(std::cmp::Ordering::Greater)
        || y_max.partial_cmp(&y_min) != Some(std::cmp::Ordering::Greater)
    {
        return Vec::new();
    }
    let probes: Vec<Vec<Probe>> = lines
        .iter()
        .map(|l| {
            (0..PROBES)
                .map(|i| {
                    if l.faint {
                        return Probe::Off;
                    }
                    let x = lo + (hi - lo) * i as f64 / (PROBES - 1) as f64;
                    match value_at(l, x) {
                        Probe::At(y) => Probe::At(y.clamp(y_min, y_max)),
                        Probe::Off => Probe::Off,
                    }
                })
                .collect()
        })
        .collect();
    let tol = COINCIDE_WITHIN * (y_max - y_min);
    let mut group_of: Vec<Option<usize>> = vec![None; lines.len()];
    // Members, and the least share of agreement with the first member.
    let mut groups: Vec<(Vec<usize>, f64)> = Vec::new();
    for j in 0..lines.len() {
        // Against the first line of each group (or a line alone so far): no chains of
        // lines each a little further from the first.
        let leads = |i: &usize| group_of[*i].is_none_or(|g| groups[g].0[0] == *i);
        let found = (0..j).filter(leads).find_map(|i| agreement(&probes[i], &probes[j], tol).map(|a| (i, a)));
        if let Some((i, share)) = found {
            let g = *group_of[i].get_or_insert_with(|| {
                groups.push((vec![i], 1.0));
                groups.len() - 1
            });
            groups[g].0.push(j);
            groups[g].1 = groups[g].1.min(share);
            group_of[j] = Some(g);
        }
    }
    groups
        .into_iter()
        .map(|(members, share)| {
            let labels: Vec<&str> = members.iter().map(|&m| lines[m].label.as_str()).collect();
            Coincidence { note: coincide_note(&labels, share), members }
        })
        .collect()
}

/// A line at one place along the x axis.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Probe {
    /// Not drawn there: before it starts, after it ends, or in a gap (a NaN: no value in
    /// that interval, e.g. a flow that sent nothing).
    Off,
    At(f64),
}

/// The line's value at `x` as drawn: interpolated, or held for a line drawn as steps.
fn value_at(l: &Line, x: f64) -> Probe {
    let p = &l.points;
    let (Some(first), Some(last)) = (p.first(), p.last()) else { return Probe::Off };
    if x < first.0 || x > last.0 {
        return Probe::Off;
    }
    let i = p.partition_point(|q| q.0 <= x).max(1);
    let a = p[i - 1];
    let y = match p.get(i) {
        Some(b) if !l.dashed && b.0 > a.0 => a.1 + (x - a.0) / (b.0 - a.0) * (b.1 - a.1),
        _ => a.1,
    };
    if y.is_finite() {
        Probe::At(y)
    } else {
        Probe::Off
    }
}

/// The share of places where two lines agree, if they coincide: where both are drawn,
/// within `tol`. Where either is not drawn (a gap, or before it starts or after it ends) it
/// says nothing: a line that is hidden while it runs is hidden all the same.
fn agreement(a: &[Probe], b: &[Probe], tol: f64) -> Option<f64> {
    let (mut seen, mut agree) = (0usize, 0usize);
    for (x, y) in a.iter().zip(b) {
        if let (Probe::At(x), Probe::At(y)) = (x, y) {
            seen += 1;
            agree += usize::from((x - y).abs() <= tol);
        }
    }
    let share = agree as f64 / seen.max(1) as f64;
    (seen >= 8 && share >= COINCIDE_SHARE).then_some(share)
}

/// "flows 0-6 coincide" when every member is a flow, else "codel = fq_codel here"; "over
/// 93 % of the chart" where they part for a while.
fn coincide_note(labels: &[&str], share: f64) -> String {
    let flows: Option<Vec<usize>> = labels.iter().map(|l| flow_number(l)).collect();
    let whole = share >= COINCIDE_ALL;
    let over = format!("over {:.0} % of the chart", (100.0 * share).floor());
    match flows {
        Some(mut f) => {
            f.sort_unstable();
            format!("flows {} coincide{}", spans(&f), if whole { String::new() } else { format!(" {over}") })
        }
        None => format!("{} {}", labels.join(" = "), if whole { "here" } else { &over }),
    }
}

/// The flow a label names ("flow 12 (Q1) · Vegas" is 12).
pub(super) fn flow_number(label: &str) -> Option<usize> {
    let digits: String = label.strip_prefix("flow ")?.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// Sorted numbers as spans in words: [0..6] is "0-6", [0, 1] "0 and 1", [0, 1, 2, 5] "0-2 and 5".
pub(super) fn spans(n: &[usize]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < n.len() {
        let mut j = i;
        while j + 1 < n.len() && n[j + 1] == n[j] + 1 {
            j += 1;
        }
        if j >= i + 2 {
            parts.push(format!("{}-{}", n[i], n[j]));
        } else {
            parts.extend(n[i..=j].iter().map(usize::to_string));
        }
        i = j + 1;
    }
    match parts.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => parts.concat(),
    }
}
