//! `aqmsim lesson`: the lessons' list, one lesson's text, and a check that runs a lesson's
//! reference answers (and its challenges' reference edits) and judges them as the page does.

use super::io::{self, Outcome};
use clap::Subcommand;
use sim_core::lesson::{check_lesson, lesson, lessons, readable, Lesson, Prediction};
use std::fmt::Write;

#[derive(Subcommand)]
pub enum LessonCmd {
    /// Every lesson: its name, title and steps.
    List,
    /// A lesson's objectives and steps, with each step's runs, question and checks.
    Show { name: String },
    /// Run a lesson's steps with its reference answers and judge them; exit 1 if any fails.
    Check { name: String },
}

pub fn lesson_cmd(cmd: &LessonCmd) -> Outcome {
    match cmd {
        LessonCmd::List => {
            for l in lessons() {
                io::say(&format!("{:<14} {} ({} steps)", l.name, l.title, l.steps.len()))?;
            }
            Ok(())
        }
        LessonCmd::Show { name } => io::print(&show(&lesson(name)?)),
        LessonCmd::Check { name } => {
            let l = lesson(name)?;
            let r = check_lesson(&l)?;
            let mut o = String::new();
            let mark = |ok: bool| if ok { "✓" } else { "✗" };
            for (i, s) in r.steps.iter().enumerate() {
                let _ = writeln!(o, "step {}: {}", i + 1, s.title);
                if let Some(p) = &s.prediction {
                    let _ = writeln!(
                        o,
                        "  {} prediction (the runs: {}): {}",
                        mark(p.right),
                        p.outcome,
                        p.feedback
                    );
                }
                for c in s.checks.iter().chain(&s.challenge) {
                    let values: Vec<String> =
                        c.values.iter().map(|(k, v)| format!("{k} = {}", readable(*v))).collect();
                    let _ = writeln!(
                        o,
                        "  {} {} ({}): {}",
                        mark(c.passed),
                        c.expr,
                        values.join(", "),
                        c.feedback
                    );
                }
            }
            io::print(&o)?;
            if r.passed() {
                io::say(&format!("lesson {} passes with its reference answers", l.name))
            } else {
                Err(format!("lesson {}: its reference answers do not pass (✗ above)", l.name).into())
            }
        }
    }
}

/// A lesson as text: objectives, then each step's text, runs, question and checks.
fn show(l: &Lesson) -> String {
    let mut o = format!("{}\n", l.title);
    for obj in &l.objectives {
        let _ = writeln!(o, "  - {obj}");
    }
    for (i, s) in l.steps.iter().enumerate() {
        let _ = writeln!(o, "\nstep {}: {}\n  {}", i + 1, s.title, s.text);
        for r in &s.runs {
            let edits: Vec<String> = r.set.iter().map(|(k, v)| format!("--set {k}={v}")).collect();
            let variant = r.variant.as_deref().map_or(String::new(), |v| format!(" --variant {v}"));
            let _ = writeln!(
                o,
                "  run {}: aqmsim run --preset {}{variant} {}",
                r.label,
                r.preset,
                edits.join(" ")
            );
        }
        match &s.predict {
            Some(Prediction::Choice { question, options, .. }) => {
                let _ = writeln!(o, "  predict: {question}");
                for (k, opt) in options.iter().enumerate() {
                    let _ = writeln!(o, "    {k}. {}", opt.text);
                }
            }
            Some(Prediction::Number { question, unit, .. }) => {
                let _ = writeln!(o, "  predict: {question} ({unit})");
            }
            None => {}
        }
        if let Some(c) = &s.challenge {
            let _ = writeln!(
                o,
                "  challenge on run {}: {} (change at most {} of: {})",
                c.run,
                c.goal,
                c.budget,
                c.fields.join(", ")
            );
        }
        for c in &s.checks {
            let _ = writeln!(o, "  check: {}", c.expr);
        }
    }
    o
}
