//! The little language a lesson checks a run with: arithmetic and comparisons over named
//! figures of its runs, `codel.ping_ms < fifo.ping_ms / 10 && codel.mbps > 0.9 * fifo.mbps`.
//!
//! Numbers, `RUN.FIGURE` references ([`crate::metrics::figures`]), `+ - * /`, comparisons
//! (`< <= > >= == !=`), `&& || !`, parentheses and `min(a, b)`, `max(a, b)`, `abs(a)`. A
//! comparison is 1 when it holds, 0 when not; a check passes when its expression is not 0.

use std::fmt;

#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Num(f64),
    /// A figure of one of the step's runs: (run label, figure name).
    Figure(String, String),
    Neg(Box<Expr>),
    Not(Box<Expr>),
    Bin(Op, Box<Expr>, Box<Expr>),
    Call(Func, Vec<Expr>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    And,
    Or,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Func {
    Min,
    Max,
    Abs,
}

/// Where reading an expression stopped, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct ParseError {
    pub at: usize,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at character {}: {}", self.at + 1, self.message)
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Num(f64),
    Ident(String),
    Sym(&'static str),
}

const SYMBOLS: [&str; 17] =
    ["<=", ">=", "==", "!=", "&&", "||", "<", ">", "+", "-", "*", "/", "(", ")", ",", "!", "."];

fn tokens(src: &str) -> Result<Vec<(usize, Tok)>, ParseError> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i] as char;
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() || (c == '.' && b.get(i + 1).is_some_and(u8::is_ascii_digit)) {
            let start = i;
            while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.') {
                i += 1;
            }
            // An exponent: 1e6, 2.5e-3.
            if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
                let mut j = i + 1;
                if j < b.len() && (b[j] == b'-' || b[j] == b'+') {
                    j += 1;
                }
                if j < b.len() && b[j].is_ascii_digit() {
                    i = j;
                    while i < b.len() && b[i].is_ascii_digit() {
                        i += 1;
                    }
                }
            }
            let text = &src[start..i];
            let v = text
                .parse()
                .map_err(|_| ParseError { at: start, message: format!("'{text}' is not a number") })?;
            out.push((start, Tok::Num(v)));
        } else if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push((start, Tok::Ident(src[start..i].to_string())));
        } else if let Some(s) = SYMBOLS.iter().find(|s| src[i..].starts_with(**s)) {
            out.push((i, Tok::Sym(s)));
            i += s.len();
        } else {
            let ch = src[i..].chars().next().unwrap_or(c);
            return Err(ParseError { at: i, message: format!("'{ch}' is not part of an expression") });
        }
    }
    Ok(out)
}

struct Parser {
    toks: Vec<(usize, Tok)>,
    pos: usize,
    end: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.1)
    }
    fn at(&self) -> usize {
        self.toks.get(self.pos).map_or(self.end, |t| t.0)
    }
    fn err<T>(&self, message: impl Into<String>) -> Result<T, ParseError> {
        Err(ParseError { at: self.at(), message: message.into() })
    }
    fn eat(&mut self, sym: &str) -> bool {
        if self.peek() == Some(&Tok::Sym(sym_static(sym))) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, sym: &str) -> Result<(), ParseError> {
        if self.eat(sym) {
            Ok(())
        } else {
            self.err(format!("expected '{sym}'"))
        }
    }

    fn binary(
        &mut self,
        ops: &[(&str, Op)],
        next: fn(&mut Parser) -> Result<Expr, ParseError>,
        chain: bool,
    ) -> Result<Expr, ParseError> {
        let mut left = next(self)?;
        loop {
            let Some(&(_, op)) = ops.iter().find(|(s, _)| self.peek() == Some(&Tok::Sym(sym_static(s))))
            else {
                return Ok(left);
            };
            self.pos += 1;
            let right = next(self)?;
            left = Expr::Bin(op, Box::new(left), Box::new(right));
            if !chain {
                return Ok(left);
            }
        }
    }

    fn or(&mut self) -> Result<Expr, ParseError> {
        self.binary(&[("||", Op::Or)], Parser::and, true)
    }
    fn and(&mut self) -> Result<Expr, ParseError> {
        self.binary(&[("&&", Op::And)], Parser::not, true)
    }
    fn not(&mut self) -> Result<Expr, ParseError> {
        if self.eat("!") {
            return Ok(Expr::Not(Box::new(self.not()?)));
        }
        self.cmp()
    }
    fn cmp(&mut self) -> Result<Expr, ParseError> {
        let ops =
            [("<=", Op::Le), (">=", Op::Ge), ("==", Op::Eq), ("!=", Op::Ne), ("<", Op::Lt), (">", Op::Gt)];
        self.binary(&ops, Parser::sum, false)
    }
    fn sum(&mut self) -> Result<Expr, ParseError> {
        self.binary(&[("+", Op::Add), ("-", Op::Sub)], Parser::prod, true)
    }
    fn prod(&mut self) -> Result<Expr, ParseError> {
        self.binary(&[("*", Op::Mul), ("/", Op::Div)], Parser::unary, true)
    }
    fn unary(&mut self) -> Result<Expr, ParseError> {
        if self.eat("-") {
            return Ok(Expr::Neg(Box::new(self.unary()?)));
        }
        self.atom()
    }
    fn atom(&mut self) -> Result<Expr, ParseError> {
        let at = self.at();
        match self.toks.get(self.pos).map(|t| t.1.clone()) {
            Some(Tok::Num(v)) => {
                self.pos += 1;
                Ok(Expr::Num(v))
            }
            Some(Tok::Sym("(")) => {
                self.pos += 1;
                let e = self.or()?;
                self.expect(")")?;
                Ok(e)
            }
            Some(Tok::Ident(name)) => {
                self.pos += 1;
                if self.eat("(") {
                    let func = match name.as_str() {
                        "min" => Func::Min,
                        "max" => Func::Max,
                        "abs" => Func::Abs,
                        _ => {
                            return Err(ParseError {
                                at,
                                message: format!("no function '{name}' (min, max, abs)"),
                            })
                        }
                    };
                    let mut args = vec![self.or()?];
                    while self.eat(",") {
                        args.push(self.or()?);
                    }
                    self.expect(")")?;
                    let want = if func == Func::Abs { 1 } else { 2 };
                    if args.len() != want {
                        return Err(ParseError { at, message: format!("{name} takes {want} argument(s)") });
                    }
                    return Ok(Expr::Call(func, args));
                }
                if !self.eat(".") {
                    return Err(ParseError {
                        at,
                        message: format!("'{name}' needs a figure: {name}.FIGURE"),
                    });
                }
                match self.toks.get(self.pos).map(|t| t.1.clone()) {
                    Some(Tok::Ident(fig)) => {
                        self.pos += 1;
                        Ok(Expr::Figure(name, fig))
                    }
                    _ => self.err(format!("expected a figure after '{name}.'")),
                }
            }
            _ => self.err("expected a number, RUN.FIGURE, a function or '('"),
        }
    }
}

fn sym_static(s: &str) -> &'static str {
    SYMBOLS.iter().find(|x| **x == s).copied().unwrap_or("")
}

impl Expr {
    pub fn parse(src: &str) -> Result<Expr, ParseError> {
        let mut p = Parser { toks: tokens(src)?, pos: 0, end: src.len() };
        let e = p.or()?;
        if p.pos < p.toks.len() {
            return p.err("unexpected text after the expression");
        }
        Ok(e)
    }

    /// Every `RUN.FIGURE` it reads.
    pub fn figures(&self) -> Vec<(&str, &str)> {
        let mut out = Vec::new();
        self.visit(&mut |e| {
            if let Expr::Figure(r, f) = e {
                out.push((r.as_str(), f.as_str()));
            }
        });
        out
    }

    fn visit<'a>(&'a self, f: &mut impl FnMut(&'a Expr)) {
        f(self);
        match self {
            Expr::Neg(e) | Expr::Not(e) => e.visit(f),
            Expr::Bin(_, a, b) => {
                a.visit(f);
                b.visit(f);
            }
            Expr::Call(_, args) => args.iter().for_each(|a| a.visit(f)),
            Expr::Num(_) | Expr::Figure(..) => {}
        }
    }

    /// Its value, reading each figure from `figure(run, name)`.
    pub fn eval(&self, figure: &impl Fn(&str, &str) -> Result<f64, String>) -> Result<f64, String> {
        let b = |x: bool| if x { 1.0 } else { 0.0 };
        Ok(match self {
            Expr::Num(v) => *v,
            Expr::Figure(r, n) => figure(r, n)?,
            Expr::Neg(e) => -e.eval(figure)?,
            Expr::Not(e) => b(e.eval(figure)? == 0.0),
            Expr::Bin(op, x, y) => {
                let x = x.eval(figure)?;
                // && and || read their right side only when it decides.
                match op {
                    Op::And if x == 0.0 => return Ok(0.0),
                    Op::Or if x != 0.0 => return Ok(1.0),
                    _ => {}
                }
                let y = y.eval(figure)?;
                match op {
                    Op::Add => x + y,
                    Op::Sub => x - y,
                    Op::Mul => x * y,
                    Op::Div => x / y,
                    Op::Lt => b(x < y),
                    Op::Le => b(x <= y),
                    Op::Gt => b(x > y),
                    Op::Ge => b(x >= y),
                    // The language's `==` is exact, as written (a lesson compares counts).
                    #[allow(clippy::float_cmp)]
                    Op::Eq => b(x == y),
                    #[allow(clippy::float_cmp)]
                    Op::Ne => b(x != y),
                    Op::And | Op::Or => b(y != 0.0),
                }
            }
            Expr::Call(func, args) => {
                let v: Vec<f64> = args.iter().map(|a| a.eval(figure)).collect::<Result<_, _>>()?;
                match func {
                    Func::Min => v[0].min(v[1]),
                    Func::Max => v[0].max(v[1]),
                    Func::Abs => v[0].abs(),
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figs(run: &str, name: &str) -> Result<f64, String> {
        match (run, name) {
            ("fifo", "ping_ms") => Ok(1000.0),
            ("codel", "ping_ms") => Ok(30.0),
            ("codel", "mbps") => Ok(9.3),
            _ => Err(format!("no {run}.{name}")),
        }
    }

    fn eval(src: &str) -> f64 {
        Expr::parse(src).unwrap().eval(&figs).unwrap()
    }

    #[test]
    fn arithmetic_and_comparisons_follow_the_usual_precedence() {
        assert_eq!(eval("1 + 2 * 3"), 7.0);
        assert_eq!(eval("(1 + 2) * 3"), 9.0);
        assert_eq!(eval("-2 * -3 - 1"), 5.0);
        assert_eq!(eval("1e3 / 4"), 250.0);
        assert_eq!(eval("codel.ping_ms < fifo.ping_ms / 10"), 1.0);
        assert_eq!(eval("codel.ping_ms < 10 || codel.mbps > 9 && !(fifo.ping_ms < 500)"), 1.0);
        assert_eq!(eval("min(codel.ping_ms, 5) + max(1, 2) + abs(-1)"), 8.0);
    }

    #[test]
    fn and_reads_its_right_side_only_when_it_decides() {
        assert_eq!(eval("0 && nosuch.figure"), 0.0);
        assert_eq!(eval("1 || nosuch.figure"), 1.0);
        assert!(Expr::parse("1 && nosuch.figure").unwrap().eval(&figs).is_err());
    }

    #[test]
    fn bad_text_is_refused_where_it_goes_wrong() {
        for (src, at, says) in [
            ("fifo.ping_ms <", 14, "expected a number"),
            ("fifo < 3", 0, "needs a figure"),
            ("sqrt(4)", 0, "no function 'sqrt'"),
            ("1 + # 2", 4, "'#' is not part"),
            ("(1 + 2", 6, "expected ')'"),
            ("1 2", 2, "unexpected text"),
            ("min(1)", 0, "takes 2"),
        ] {
            let e = Expr::parse(src).unwrap_err();
            assert_eq!(e.at, at, "{src}: {e}");
            assert!(e.message.contains(says), "{src}: {e}");
        }
        // Comparisons do not chain: say which one is meant with parentheses.
        let e = Expr::parse("1 < 2 == 1").unwrap_err();
        assert_eq!((e.at, e.message.as_str()), (6, "unexpected text after the expression"));
    }

    #[test]
    fn it_lists_the_figures_it_reads() {
        let e = Expr::parse("codel.ping_ms < fifo.ping_ms / 10 && codel.mbps > 1").unwrap();
        assert_eq!(e.figures(), vec![("codel", "ping_ms"), ("fifo", "ping_ms"), ("codel", "mbps")]);
    }
}
