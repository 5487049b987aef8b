//! A calculator MCP server: integer and floating-point arithmetic, a tool that fails
//! (division by zero), a synchronous tool, and structured output.
//!
//! Run it with `cargo run -p example-calculator`; it speaks MCP on stdin/stdout.

use mcp_runtime::{Json, Server, mcp_tool};
use schemars::JsonSchema;
use serde::Serialize;

/// Add two integers.
///
/// Overflow is reported as an error rather than wrapping around.
#[mcp_tool(read_only, idempotent, title = "Adder")]
async fn add(
    /// The first addend.
    a: i64,
    /// The second addend.
    b: i64,
) -> Result<i64, String> {
    a.checked_add(b)
        .ok_or_else(|| format!("{a} + {b} overflows a 64-bit integer"))
}

/// Subtract one integer from another.
#[mcp_tool(read_only, idempotent)]
async fn subtract(
    /// The number to subtract from.
    minuend: i64,
    /// The number to subtract.
    subtrahend: i64,
) -> Result<i64, String> {
    minuend
        .checked_sub(subtrahend)
        .ok_or_else(|| format!("{minuend} - {subtrahend} overflows a 64-bit integer"))
}

/// Multiply two numbers.
#[mcp_tool(read_only, idempotent)]
async fn multiply(
    /// The first factor.
    a: f64,
    /// The second factor.
    b: f64,
) -> f64 {
    a * b
}

/// Divide one number by another.
#[mcp_tool(read_only, idempotent)]
async fn divide(
    /// The dividend.
    dividend: f64,
    /// The divisor; must not be zero.
    divisor: f64,
) -> Result<f64, String> {
    if divisor == 0.0 {
        return Err("cannot divide by zero".to_owned());
    }
    Ok(dividend / divisor)
}

/// Summary statistics of a list of numbers.
#[derive(Serialize, JsonSchema)]
struct Statistics {
    /// How many numbers there were.
    count: usize,
    /// Their sum.
    sum: f64,
    /// Their arithmetic mean.
    mean: f64,
    /// The smallest number.
    min: f64,
    /// The largest number.
    max: f64,
}

/// Count, sum, mean, minimum and maximum of a list of numbers.
#[mcp_tool(read_only, idempotent, title = "Statistics")]
async fn statistics(
    /// The numbers to summarize; at least one.
    values: Vec<f64>,
) -> Result<Json<Statistics>, String> {
    if values.is_empty() {
        return Err("statistics need at least one value".to_owned());
    }
    let sum: f64 = values.iter().sum();
    Ok(Json(Statistics {
        count: values.len(),
        sum,
        mean: sum / values.len() as f64,
        min: values.iter().copied().fold(f64::INFINITY, f64::min),
        max: values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
    }))
}

/// Whether a number is prime.
///
/// A plain `fn`: the runtime runs it on the blocking pool, so a large input never stalls
/// other calls.
#[mcp_tool(read_only, idempotent)]
fn is_prime(
    /// The number to test.
    n: u64,
) -> bool {
    n >= 2
        && (2..)
            .take_while(|d| *d <= n / d)
            .all(|d| !n.is_multiple_of(d))
}

/// The prime factors of a number, smallest first.
#[mcp_tool(read_only, idempotent)]
fn factorize(
    /// The number to factor; at least 2.
    n: u64,
) -> Result<Json<Vec<u64>>, String> {
    if n < 2 {
        return Err(format!(
            "{n} has no prime factors; give a number of at least 2"
        ));
    }
    let mut factors = Vec::new();
    let mut rest = n;
    let mut divisor = 2;
    while divisor <= rest / divisor {
        while rest.is_multiple_of(divisor) {
            factors.push(divisor);
            rest /= divisor;
        }
        divisor += 1;
    }
    if rest > 1 {
        factors.push(rest);
    }
    Ok(Json(factors))
}

#[tokio::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    Server::new("calculator", env!("CARGO_PKG_VERSION"))
        .title("Calculator")
        .instructions("Exact integer arithmetic, floating-point arithmetic and statistics.")
        .serve_stdio()
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn tools_stay_plain_functions() {
        assert_eq!(add(2, 3).await, Ok(5));
        assert!(add(i64::MAX, 1).await.is_err());
        assert_eq!(
            divide(1.0, 0.0).await,
            Err("cannot divide by zero".to_owned())
        );
        assert!(is_prime(97));
        assert_eq!(factorize(360).map(|Json(f)| f), Ok(vec![2, 2, 2, 3, 3, 5]));
    }
}
