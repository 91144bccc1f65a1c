//! Running the `kamisado` binary from tests.

#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::Value as Json;

pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    pub fn json(&self) -> Json {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.stdout))
    }

    /// A failure reported as one line on stderr with the given exit code.
    pub fn assert_one_line_error(&self, code: i32, containing: &str) {
        assert_eq!(
            self.code, code,
            "stdout {} stderr {}",
            self.stdout, self.stderr
        );
        let lines: Vec<&str> = self.stderr.lines().collect();
        assert_eq!(lines.len(), 1, "stderr: {}", self.stderr);
        assert!(lines[0].starts_with("error: "), "{}", lines[0]);
        assert!(
            lines[0].contains(containing),
            "`{}` does not mention `{containing}`",
            lines[0]
        );
    }
}

/// Runs `kamisado` with `args`, feeding `stdin`.
pub fn kamisado(args: &[&str], stdin: &str) -> Run {
    kamisado_in(".", args, stdin)
}

/// Runs `kamisado` in the directory `dir` with `args`, feeding `stdin`.
pub fn kamisado_in(dir: &str, args: &[&str], stdin: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kamisado"))
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // A command that exits early closes its input; the test does not care.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    let out = child.wait_with_output().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}
