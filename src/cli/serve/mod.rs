//! `gametree serve`: a web page to play the games and watch the searches, served by the
//! binary with its files embedded, and the JSON API the page uses (docs/serve.md).
//!
//! The server is `axum` on `tokio`, behind the `serve` cargo feature so that the library
//! stays light. Searches run on blocking threads with limits on their size; the page keeps
//! the game, so the server keeps no state between requests.

mod api;
mod games_api;
mod tree_api;

use std::io::Write as _;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use clap::Args;

use super::{CliError, Outcome};

/// The arguments of `gametree serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The address to listen on; anything but a loopback address lets other machines in
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    host: IpAddr,
    /// The port (0: any free port; the address is printed)
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Open the page in the default browser
    #[arg(long)]
    open: bool,
}

/// Runs `gametree serve` until Ctrl-C.
pub fn run(args: &ServeArgs) -> Result<Outcome, CliError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|error| CliError::Usage(format!("cannot start the server: {error}")))?;
    runtime.block_on(serve(args))
}

async fn serve(args: &ServeArgs) -> Result<Outcome, CliError> {
    let wanted = SocketAddr::new(args.host, args.port);
    let listener = tokio::net::TcpListener::bind(wanted)
        .await
        .map_err(|error| CliError::Usage(format!("cannot listen on {wanted}: {error}")))?;
    let address = listener
        .local_addr()
        .map_err(|error| CliError::Usage(format!("cannot listen on {wanted}: {error}")))?;
    if !args.host.is_loopback() {
        eprintln!(
            "gametree serve: listening on {}, not a loopback address: other machines can reach the page",
            args.host
        );
    }
    let url = format!("http://{address}/");
    {
        let mut stdout = std::io::stdout().lock();
        writeln!(stdout, "listening on {url}")?;
        stdout.flush()?;
    }
    if args.open {
        open_in_browser(&url);
    }
    axum::serve(listener, api::router(api::AppState::new()))
        .with_graceful_shutdown(async {
            // Without a signal handler the server runs until killed, which is fine too.
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .map_err(CliError::Output)?;
    Ok(Outcome::Found)
}

/// Asks the desktop to open `url`; says so in one line on stderr when it cannot (the
/// opener's own chatter is dropped), since the address is printed anyway.
fn open_in_browser(url: &str) {
    let mut opener = if cfg!(target_os = "macos") {
        std::process::Command::new("open")
    } else if cfg!(windows) {
        let mut command = std::process::Command::new("cmd");
        command.args(["/C", "start", ""]);
        command
    } else {
        std::process::Command::new("xdg-open")
    };
    let started = opener
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    let url = url.to_string();
    match started {
        Ok(mut child) => {
            // Waited for off the server's threads: a desktop opener may take its time.
            std::thread::spawn(move || {
                if !child.wait().is_ok_and(|status| status.success()) {
                    eprintln!("gametree serve: no browser could be opened; open {url} by hand");
                }
            });
        }
        Err(error) => {
            eprintln!("gametree serve: cannot open a browser ({error}); open {url} by hand");
        }
    }
}
