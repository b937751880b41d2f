//! Lessons (issue 26): every lesson's reference answers pass its own checks, a wrong answer
//! gets the feedback written for it, and a challenge left unsolved is not met.

use serde_json::Map;
use sim_core::lesson::{check_lesson, check_lesson_with, lesson, lessons, Answer, Prediction};

#[test]
fn every_lessons_reference_answers_pass_its_own_checks() {
    for l in lessons() {
        let r = check_lesson(&l).unwrap_or_else(|e| panic!("{e}"));
        for (i, s) in r.steps.iter().enumerate() {
            let failed: Vec<String> =
                (s.prediction.iter().filter(|p| !p.right).map(|p| format!("prediction: {}", p.feedback)))
                    .chain(
                        s.checks
                            .iter()
                            .chain(&s.challenge)
                            .filter(|c| !c.passed)
                            .map(|c| format!("{}: {}", c.expr, c.feedback)),
                    )
                    .collect();
            assert!(failed.is_empty(), "{} step {} ({}): {failed:?}", l.name, i + 1, s.title);
        }
        assert!(r.passed());
    }
}

/// Every prediction answered with the first answer that is not the reference's.
fn wrong(step: &sim_core::lesson::Step) -> Option<Answer> {
    match step.predict.as_ref()? {
        Prediction::Choice { reference, .. } => Some(Answer::Choice(if *reference == 0 { 1 } else { 0 })),
        Prediction::Number { reference, tolerance_pct, .. } => {
            Some(Answer::Number(reference * (1.0 + 3.0 * tolerance_pct / 100.0) + 1.0))
        }
    }
}

#[test]
fn a_wrong_answer_gets_its_feedback_and_an_unsolved_challenge_is_not_met() {
    let l = lesson("bufferbloat").unwrap();
    let r = check_lesson_with(&l, wrong, |_| Map::new()).unwrap();
    let p = r.steps[0].prediction.as_ref().unwrap();
    assert!(!p.right);
    let Some(Prediction::Number { high, .. }) = &l.steps[0].predict else { panic!("a number") };
    assert_eq!(&p.feedback, high, "a guess far above the run's figure gets the 'high' text");
    let p = r.steps[1].prediction.as_ref().unwrap();
    assert!(!p.right && p.outcome.starts_with("stays within"), "{}", p.outcome);
    // Not a number is never right (NaN compares false with every bound).
    let nan = check_lesson_with(&l, |_| Some(Answer::Number(f64::NAN)), |_| Map::new());
    assert!(nan.is_err(), "a number for a choice question is refused by the step");
    let step0 = sim_core::lesson::Lesson { steps: vec![l.steps[0].clone()], ..l.clone() };
    let r = check_lesson_with(&step0, |_| Some(Answer::Number(f64::NAN)), |_| Map::new()).unwrap();
    assert!(!r.steps[0].prediction.as_ref().unwrap().right);
    // The RED challenge with no edit: the lecture's RED holds a longer queue.
    let red = lesson("red-tuning").unwrap();
    let r = check_lesson_with(&red, |_| None, |_| Map::new()).unwrap();
    let c = r.steps[1].challenge.as_ref().unwrap();
    assert!(!c.passed);
    assert_eq!(c.feedback, red.steps[1].challenge.as_ref().unwrap().fail);
}

#[test]
fn a_lesson_that_names_what_does_not_exist_is_refused_by_where() {
    let mut l = lesson("rtt-fairness").unwrap();
    l.steps[0].checks[0].expr = "fifo.jfy < 0.9 && nosuch.jfi > 0".into();
    l.steps[1].runs[1].variant = Some("fq-codle".into());
    let e = l.validate().unwrap_err().join("\n");
    assert!(e.contains("steps[0].checks[0]: no figure 'jfy'"), "{e}");
    assert!(e.contains("steps[0].checks[0]: no run 'nosuch' (runs: fifo)"), "{e}");
    assert!(e.contains("steps[1].runs[1]") && e.contains("fq-codle"), "{e}");
    assert!(lesson("bufferbloa").unwrap_err().contains("did you mean 'bufferbloat'"));
}
