use tool_runtime::tool;

/// A point, but without `Deserialize` or `JsonSchema`.
pub struct Point {
    pub x: f64,
    pub y: f64,
}

/// Distance of a point from the origin.
#[tool]
fn norm(point: Point) -> f64 {
    point.x.hypot(point.y)
}

fn main() {}
