//! What the types tool results often hold become through the safe serializer, each by its
//! own serde support: timestamps (`chrono`, `time`), decimals (`rust_decimal`), bytes
//! (`bytes`, `serde_bytes`). `tool-runtime` needs no feature or code for them; this checks
//! that none is needed. `cargo test -p tool-tests --features serde-types --test serde_types`.

use serde::Serialize;
use serde_json::json;
use tool_runtime::output::safe_serialize;
use tool_runtime::ToolOutput;

fn json_of<T: Serialize + ?Sized>(value: &T) -> serde_json::Value {
    match safe_serialize(value) {
        ToolOutput::Json(json) => json.to_value(),
        other => panic!("expected JSON, got {other:?}"),
    }
}

#[test]
fn chrono_timestamps_are_rfc3339() {
    use chrono::{DateTime, FixedOffset, NaiveDate, TimeZone, Utc};
    #[derive(Serialize)]
    struct Event {
        at: DateTime<Utc>,
        local: DateTime<FixedOffset>,
        day: NaiveDate,
    }
    let at = Utc.with_ymd_and_hms(2024, 5, 1, 12, 30, 0).unwrap();
    let event = Event {
        at,
        local: at.with_timezone(&FixedOffset::east_opt(2 * 3600).unwrap()),
        day: at.date_naive(),
    };
    assert_eq!(
        json_of(&event),
        json!({
            "at": "2024-05-01T12:30:00Z",
            "local": "2024-05-01T14:30:00+02:00",
            "day": "2024-05-01",
        })
    );
}

#[test]
fn time_timestamps_are_readable_or_rfc3339() {
    use time::{Date, Month, OffsetDateTime};
    #[derive(Serialize)]
    struct Event {
        #[serde(with = "time::serde::rfc3339")]
        at: OffsetDateTime,
        plain: OffsetDateTime,
    }
    let at = Date::from_calendar_date(2024, Month::May, 1)
        .unwrap()
        .with_hms(12, 30, 0)
        .unwrap()
        .assume_utc();
    assert_eq!(
        json_of(&Event { at, plain: at }),
        json!({"at": "2024-05-01T12:30:00Z", "plain": "2024-05-01 12:30:00.0 +00:00:00"})
    );
}

#[test]
fn decimals_are_exact_strings() {
    use rust_decimal::Decimal;
    let sum = Decimal::new(1, 1) + Decimal::new(2, 1);
    assert_eq!(
        json_of(&[sum, Decimal::MAX]),
        json!(["0.3", "79228162514264337593543950335"])
    );
}

#[test]
fn bytes_are_base64() {
    assert_eq!(
        json_of(&bytes::Bytes::from_static(b"hello")),
        json!("aGVsbG8=")
    );
}

#[test]
fn serde_bytes_are_base64() {
    #[derive(Serialize)]
    struct Blob {
        #[serde(with = "serde_bytes")]
        data: Vec<u8>,
        buf: serde_bytes::ByteBuf,
    }
    let blob = Blob {
        data: vec![0, 1, 2],
        buf: serde_bytes::ByteBuf::from(b"hi".to_vec()),
    };
    assert_eq!(json_of(&blob), json!({"data": "AAEC", "buf": "aGk="}));
}
