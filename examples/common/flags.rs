//! The command line of the examples that take flags. Every flag is known in advance, so that a
//! misspelt one stops the run with one line instead of being ignored: a 312-game match played
//! at the default of a flag the user meant to set is hours lost.

// Each example compiles its own copy and uses the part it needs.
#![allow(dead_code)]

use std::str::FromStr;

/// The flags given to an example, checked against the ones it takes.
pub struct Flags {
    program: &'static str,
    args: Vec<String>,
}

impl Flags {
    /// Reads the command line. `--help` (or `-h`) prints `usage` and exits 0; a flag not in
    /// `with_value` or `switches`, a flag in `with_value` without its value, or a word that
    /// belongs to no flag prints one line to stderr and exits 2.
    pub fn parse(
        program: &'static str,
        usage: &str,
        with_value: &[&str],
        switches: &[&str],
    ) -> Flags {
        let args: Vec<String> = std::env::args().skip(1).collect();
        let mut index = 0;
        while index < args.len() {
            let arg = args[index].as_str();
            if arg == "--help" || arg == "-h" {
                println!("{usage}");
                std::process::exit(0);
            }
            if with_value.contains(&arg) {
                if index + 1 >= args.len() {
                    fail(program, &format!("{arg} needs a value"));
                }
                index += 2;
            } else if switches.contains(&arg) {
                index += 1;
            } else if arg.starts_with('-') {
                fail(
                    program,
                    &format!("unknown flag {arg:?} (--help lists the flags)"),
                );
            } else {
                fail(
                    program,
                    &format!("unexpected {arg:?} (--help lists the flags)"),
                );
            }
        }
        Flags { program, args }
    }

    /// The value of a flag that takes one, if it was given.
    pub fn value(&self, name: &str) -> Option<&str> {
        self.args
            .iter()
            .position(|arg| arg == name)
            .and_then(|index| self.args.get(index + 1))
            .map(String::as_str)
    }

    /// The value of a flag read as a number, or `default` when the flag is absent; exits 2
    /// with one line when the value is not a number.
    pub fn number<T: FromStr>(&self, name: &str, default: T) -> T {
        self.optional_number(name).unwrap_or(default)
    }

    /// The value of a flag read as a number, if it was given (for a flag whose absence
    /// means something other than a default value); exits 2 with one line when the value is
    /// not a number.
    pub fn optional_number<T: FromStr>(&self, name: &str) -> Option<T> {
        self.value(name).map(|text| {
            text.parse()
                .unwrap_or_else(|_| fail(self.program, &format!("{name} {text:?} is not a number")))
        })
    }

    /// Whether a switch (a flag without a value) was given.
    pub fn switch(&self, name: &str) -> bool {
        self.args.iter().any(|arg| arg == name)
    }
}

/// Prints `program: message` to stderr and exits 2 (bad input).
pub fn fail(program: &str, message: &str) -> ! {
    eprintln!("{program}: {message}");
    std::process::exit(2);
}
