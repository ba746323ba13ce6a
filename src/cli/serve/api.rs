//! The router: the page's three files and the JSON API, with the limits that keep one
//! client from starving the others.

use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::de::DeserializeOwned;
use serde_json::{Value as Json, json};
use tokio::sync::Semaphore;

use gametree::games::connect_four_book::OpeningBook;
use gametree::{ConnectFour, StopSignal};

use super::{games_api, tree_api};

/// The largest request body taken, in bytes.
pub const MAX_BODY_BYTES: usize = 64 * 1024;
/// Searches run at once. Requests beyond wait their turn (first come, first served) for at
/// most [`SLOT_WAIT`], then are answered 503: a client that sends many searches cannot keep
/// the others waiting for longer than that.
pub const MAX_CONCURRENT_SEARCHES: usize = 4;
/// How long a search request waits for a free slot.
pub const SLOT_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// A request the server cannot answer, as an HTTP status and a JSON `{"error": ...}`.
#[derive(Debug)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// What went wrong, and where.
    pub message: String,
}

impl ApiError {
    /// 400: malformed JSON, a malformed tree, an illegal move.
    pub fn bad_request(message: String) -> Self {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message,
        }
    }
    /// 422: well formed, but a setting out of its range.
    pub fn unprocessable(message: String) -> Self {
        ApiError {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            message,
        }
    }
    /// 422: a request over a size limit (a tree, a depth).
    pub fn too_large(message: String) -> Self {
        Self::unprocessable(message)
    }
    /// 503: every search slot stayed taken.
    fn busy() -> Self {
        ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: format!(
                "the server has been running {MAX_CONCURRENT_SEARCHES} searches for the last {} s; try again in a moment",
                SLOT_WAIT.as_secs()
            ),
        }
    }
    /// 500: a bug; the server goes on.
    pub fn internal(message: String) -> Self {
        ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, axum::Json(json!({"error": self.message}))).into_response()
    }
}

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    searches: Arc<Semaphore>,
    book: Arc<OpeningBook>,
}

impl AppState {
    /// The state of a fresh server: every search slot free, the shipped 7×6 book read.
    pub fn new() -> Self {
        let empty = ConnectFour::new();
        let book = OpeningBook::parse(crate::cli::connect4::SHIPPED_BOOK, &empty)
            .expect("invariant: the shipped book reads (tested)");
        AppState {
            searches: Arc::new(Semaphore::new(MAX_CONCURRENT_SEARCHES)),
            book: Arc::new(book),
        }
    }
}

/// Reads a JSON body, saying what is wrong and where when it cannot.
fn parse<T: DeserializeOwned>(body: Result<Bytes, BytesRejection>) -> Result<T, ApiError> {
    let body = body.map_err(|rejection| ApiError {
        status: rejection.status(),
        message: if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            format!("the request body is over {MAX_BODY_BYTES} bytes")
        } else {
            rejection.body_text()
        },
    })?;
    serde_json::from_slice(&body)
        .map_err(|error| ApiError::bad_request(format!("the request body: {error}")))
}

/// Raises its signal when dropped: when the client goes away, the server drops the
/// handler's future, and with it this guard, and the search it started stops.
struct StopOnDrop(StopSignal);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.stop();
    }
}

/// Runs `work` on a blocking thread, off the async executor, holding one of the search
/// slots; answers 503 when none comes free within [`SLOT_WAIT`]. `work` is given a signal
/// raised when the client goes away (a page that cancels its request), for the searches
/// that can stop early; the others end at their limits. A panic in `work` answers 500 and
/// the server goes on.
async fn in_search_slot<F>(state: &AppState, work: F) -> Result<axum::Json<Json>, ApiError>
where
    F: FnOnce(StopSignal) -> Result<Json, ApiError> + Send + 'static,
{
    let signal = StopSignal::new();
    let _stop_when_dropped = StopOnDrop(signal.clone());
    let permit = tokio::time::timeout(SLOT_WAIT, state.searches.clone().acquire_owned())
        .await
        .map_err(|_| ApiError::busy())?
        .map_err(|_| ApiError::internal("the search slots are closed".into()))?;
    let answer = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        work(signal)
    })
    .await
    .map_err(|error| ApiError::internal(format!("the search failed: {error}")))??;
    Ok(axum::Json(answer))
}

/// A search endpoint: reads the body as `R`, then runs `work` on it in a search slot.
async fn searched<R, F>(
    state: &AppState,
    body: Result<Bytes, BytesRejection>,
    work: F,
) -> Result<axum::Json<Json>, ApiError>
where
    R: DeserializeOwned + Send + 'static,
    F: FnOnce(R, StopSignal) -> Result<Json, ApiError> + Send + 'static,
{
    let request: R = parse(body)?;
    in_search_slot(state, move |stop| work(request, stop)).await
}

type Body = Result<Bytes, BytesRejection>;
type Answer = Result<axum::Json<Json>, ApiError>;

async fn tree_search(State(state): State<AppState>, body: Body) -> Answer {
    searched(&state, body, |request, _| tree_api::search(&request)).await
}

async fn tree_random(State(state): State<AppState>, body: Body) -> Answer {
    searched(&state, body, |request, _| tree_api::random(&request)).await
}

async fn ttt_move(State(state): State<AppState>, body: Body) -> Answer {
    searched(&state, body, |request, _| games_api::ttt_move(&request)).await
}

async fn connect4_move(State(state): State<AppState>, body: Body) -> Answer {
    let book = Arc::clone(&state.book);
    searched(&state, body, move |request, _| {
        games_api::connect4_move(&request, &book)
    })
    .await
}

async fn kalah_move(State(state): State<AppState>, body: Body) -> Answer {
    searched(&state, body, |request, _| games_api::kalah_move(&request)).await
}

async fn checkers_state(body: Body) -> Answer {
    let request: games_api::CheckersRequest = parse(body)?;
    // No search: move generation only, cheap enough to run on the executor.
    games_api::checkers_state_of(&request).map(axum::Json)
}

async fn checkers_best(State(state): State<AppState>, body: Body) -> Answer {
    searched(&state, body, |request, stop| {
        games_api::checkers_best(&request, stop)
    })
    .await
}

/// The page's files, embedded in the binary: no CDN, it works offline.
const INDEX_HTML: &str = include_str!("../../../web/index.html");
const APP_JS: &str = include_str!("../../../web/app.js");
const STYLE_CSS: &str = include_str!("../../../web/style.css");

fn file(content_type: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type)], body).into_response()
}

async fn not_found() -> ApiError {
    ApiError {
        status: StatusCode::NOT_FOUND,
        message: "no such page or endpoint; the API is documented in docs/serve.md".into(),
    }
}

/// The whole server: routes, body limit, security headers.
pub fn router(state: AppState) -> Router {
    Router::new()
        .route(
            "/",
            get(|| async { file("text/html; charset=utf-8", INDEX_HTML) }),
        )
        .route(
            "/app.js",
            get(|| async { file("text/javascript; charset=utf-8", APP_JS) }),
        )
        .route(
            "/style.css",
            get(|| async { file("text/css; charset=utf-8", STYLE_CSS) }),
        )
        .route("/api/tree/search", post(tree_search))
        .route("/api/tree/random", post(tree_random))
        .route("/api/ttt/move", post(ttt_move))
        .route("/api/connect4/move", post(connect4_move))
        .route("/api/kalah/move", post(kalah_move))
        .route("/api/checkers/state", post(checkers_state))
        .route("/api/checkers/best", post(checkers_best))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(axum::middleware::map_response(security_headers))
        .with_state(state)
}

/// The page loads nothing from elsewhere, and says so to the browser.
async fn security_headers(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("default-src 'self'; img-src 'self' data: blob:"),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}
