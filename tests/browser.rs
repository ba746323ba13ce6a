//! The page of `gametree serve` in a real browser: tests/browser/e2e.mjs drives headless
//! Chromium (Debian's `chromium`, through `playwright-core` from npm: no browser download)
//! against the real binary on a free localhost port, doing what a person does — step
//! through alpha-beta and see the right nodes cut, play Connect Four to the end, enter a
//! checkers multi-jump by clicking, see the error for a malformed tree.
//!
//! Where the browser, Node.js or `playwright-core` is missing, the test says so on the
//! terminal and passes as skipped; `GAMETREE_REQUIRE_BROWSER=1` (set by `.ci/run`) makes
//! their absence a failure. To set it up by hand:
//! `apt-get install -y chromium chromium-driver && npm ci --prefix tests/browser`.
//! `SCREENSHOT_DIR=docs/images` keeps the screenshots the docs show.
#![cfg(feature = "serve")]

mod common;

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn chromium() -> PathBuf {
    std::env::var_os("CHROMIUM").map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from)
}

/// What the browser tests need and this machine lacks, if anything.
fn missing() -> Option<String> {
    if !chromium().exists() {
        return Some(format!(
            "Chromium at {} (apt-get install -y chromium chromium-driver, or set CHROMIUM)",
            chromium().display()
        ));
    }
    let node = Command::new("node").arg("--version").output();
    if !node.is_ok_and(|output| output.status.success()) {
        return Some("Node.js (`node` on the PATH)".into());
    }
    if !root()
        .join("tests/browser/node_modules/playwright-core")
        .exists()
    {
        return Some("playwright-core (npm ci --prefix tests/browser)".into());
    }
    None
}

#[test]
fn the_page_works_in_headless_chromium_as_a_person_uses_it() {
    if let Some(what) = missing() {
        let required = std::env::var("GAMETREE_REQUIRE_BROWSER").is_ok_and(|value| value == "1");
        assert!(
            !required,
            "GAMETREE_REQUIRE_BROWSER=1 but this machine lacks {what}"
        );
        // Straight to the terminal: the test harness keeps what `eprintln!` writes from a
        // passing test to itself, and a skip should be seen.
        let _ = writeln!(
            std::io::stderr(),
            "browser tests skipped: this machine lacks {what}"
        );
        return;
    }
    let server = common::Server::start();
    let output = Command::new("node")
        .arg("tests/browser/e2e.mjs")
        .env("GAMETREE_URL", &server.url)
        .env("CHROMIUM", chromium())
        .current_dir(root())
        .output()
        .expect("run node");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    print!("{stdout}");
    assert!(
        output.status.success(),
        "the browser tests failed:\n{stdout}\n{stderr}"
    );
    assert!(stdout.contains("ok - "), "no check ran:\n{stdout}");
}
