//! An MCP Apps server: `forecast` answers with a table the host renders in the view
//! `ui://forecast/view` (plain HTML and JavaScript embedded in the binary, no build step),
//! whose button calls `refresh_forecast`, a tool only the view may call.
//!
//! `apps` serves stdio; `apps --http 127.0.0.1:8080` serves Streamable HTTP at
//! `http://127.0.0.1:8080/mcp`, and `--allow-origin https://host.example` after it lets a
//! web host's page of that origin call it from the browser (CORS).

use mcp_runtime::apps::View;
use mcp_runtime::{Json, Server, mcp_resource, mcp_tool};
use serde::Serialize;

/// A few days of weather in one city.
#[derive(Debug, PartialEq, Serialize, schemars::JsonSchema)]
struct Forecast {
    city: String,
    /// How many times the view refreshed it.
    revision: u32,
    days: Vec<Day>,
}

#[derive(Debug, PartialEq, Serialize, schemars::JsonSchema)]
struct Day {
    /// 1 for tomorrow.
    day: u32,
    /// Degrees Celsius.
    low: i32,
    /// Degrees Celsius.
    high: i32,
}

/// Made-up but stable figures, so the view and its tests see the same table every time.
fn figures(city: &str, revision: u32) -> Forecast {
    let base = i32::try_from(city.bytes().map(u32::from).sum::<u32>() % 15).unwrap_or(0) + 5;
    let shift = i32::try_from(revision % 10).unwrap_or(0);
    Forecast {
        city: city.to_owned(),
        revision,
        days: (1..=3)
            .map(|day| {
                let low = base + shift + i32::try_from(day).unwrap_or(0);
                Day {
                    day,
                    low,
                    high: low + 8,
                }
            })
            .collect(),
    }
}

/// The three-day forecast for a city, shown as a table by hosts that render MCP Apps.
///
/// # Arguments
/// * `city` - The city's name.
#[mcp_tool(ui = "ui://forecast/view", read_only)]
async fn forecast(city: String) -> Json<Forecast> {
    Json(figures(&city, 0))
}

/// Fetches the forecast again; called by the view's Refresh button, never by the model.
///
/// # Arguments
/// * `city` - The city's name.
/// * `revision` - The revision the view shows.
#[mcp_tool(ui = "ui://forecast/view", visibility = ["app"], read_only)]
async fn refresh_forecast(city: String, revision: u32) -> Json<Forecast> {
    Json(figures(&city, revision.saturating_add(1)))
}

/// The forecast's view: a table and a Refresh button.
#[mcp_resource(uri = "ui://forecast/view", name = "forecast_view", title = "Forecast")]
async fn view() -> View {
    // It reaches nothing beyond its host: the spec's restrictive default policy suffices.
    View::html(include_str!("view.html")).prefers_border(true)
}

#[tokio::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    let server = Server::new("apps", env!("CARGO_PKG_VERSION"))
        .title("Forecast app")
        .instructions("A weather forecast that hosts supporting MCP Apps show as a table.");
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => server.serve_stdio().await,
        [http, address] if http == "--http" => server.http().serve(address).await,
        [http, address, allow, origin] if http == "--http" && allow == "--allow-origin" => {
            server.http().allow_origin(origin).serve(address).await
        }
        _ => {
            eprintln!("usage: apps [--http ADDRESS:PORT [--allow-origin ORIGIN]]");
            std::process::exit(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_refresh_moves_the_figures_on() {
        let Json(first) = forecast("Oslo".into()).await;
        let Json(second) = refresh_forecast("Oslo".into(), first.revision).await;
        assert_eq!(second.revision, 1);
        assert_eq!(second.days[0].low, first.days[0].low + 1);
        assert_eq!(second.days[0].high - second.days[0].low, 8);
    }
}
