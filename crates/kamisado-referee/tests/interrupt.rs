//! Ending every engine at once, as a program does when it is interrupted. In a test
//! binary of its own: afterwards no engine may start in this process.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use kamisado_referee::process::end_all_engines;
use kamisado_referee::{EngineFault, EngineProcess};

/// Whether process `pid` is gone (or a zombie nobody has reaped yet).
fn is_gone(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        // The state follows the command name in parentheses.
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with(['Z', 'X'])),
    }
}

fn read_pid(path: &Path) -> u32 {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if let Some(pid) = std::fs::read_to_string(path)
            .ok()
            .and_then(|t| t.trim().parse().ok())
        {
            return pid;
        }
        assert!(Instant::now() < deadline, "no pid in {}", path.display());
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kamisado-interrupt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[cfg(unix)]
#[test]
fn ending_all_engines_kills_their_process_groups_and_refuses_new_ones() {
    // The engine's shell starts a child of its own: killing only the shell would leave it.
    let pid_file = scratch("child.pid");
    let command = format!(
        "read l; echo keiok; sleep 77 & echo $! > {}; wait",
        pid_file.display()
    );
    let engine = EngineProcess::start(&command, Duration::from_secs(10)).unwrap();
    let child = read_pid(&pid_file);
    assert!(!is_gone(child));

    end_all_engines();
    let deadline = Instant::now() + Duration::from_secs(5);
    while !is_gone(child) {
        assert!(
            Instant::now() < deadline,
            "the engine's child {child} still runs"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    drop(engine);

    match EngineProcess::start("read l; echo keiok; sleep 60", Duration::from_secs(10)) {
        Err(EngineFault::Spawn { error }) => assert!(error.contains("stopping"), "{error}"),
        Err(other) => panic!("{other}"),
        Ok(_) => panic!("an engine started after end_all_engines"),
    }
    let _ = std::fs::remove_dir_all(pid_file.parent().unwrap());
}
