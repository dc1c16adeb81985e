use tool_runtime::tool;

/// A point, but without `Deserialize` or `JsonSchema`.
pub struct Point {
    pub x: f64,
    pub y: f64,
}

/// Distance of a point from the origin, in some unit.
#[tool]
fn norm(unit: String, point: Point) -> String {
    format!("{} {unit}", point.x.hypot(point.y))
}

fn main() {}
