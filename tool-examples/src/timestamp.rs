//! Reading the date-times CSV files hold, and writing them back as RFC 3339, without a
//! date-time dependency: `YYYY-MM-DD`, optionally followed by `T` or a space and `HH:MM`,
//! optional `:SS`, optional fraction, optional `Z` or `±HH:MM`. Dates are checked against
//! the calendar (no 30 February).

/// A point in time, UTC, to the nanosecond; ordered by time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Timestamp {
    /// Seconds since 1970-01-01T00:00:00Z.
    secs: i64,
    nanos: u32,
}

/// A parsed value: the instant, and whether the text said its UTC offset (if not, it was
/// read as UTC).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Parsed {
    pub at: Timestamp,
    pub has_offset: bool,
}

/// Reads a date or date-time; `None` if it isn't one.
pub(crate) fn parse(value: &str) -> Option<Parsed> {
    let b = value.as_bytes();
    if b.len() < 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let year = digits(&b[0..4])?;
    let month = digits(&b[5..7])?;
    let day = digits(&b[8..10])?;
    if !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
        return None;
    }
    let days = days_from_civil(year, month, day);
    let mut rest = &b[10..];
    if rest.is_empty() {
        return Some(Parsed {
            at: Timestamp {
                secs: days * 86_400,
                nanos: 0,
            },
            has_offset: false,
        });
    }
    if !matches!(rest[0], b'T' | b't' | b' ') {
        return None;
    }
    rest = &rest[1..];
    let (hour, minute) = hh_mm(rest)?;
    if hour > 23 || minute > 59 {
        return None;
    }
    rest = &rest[5..];
    let (mut second, mut nanos) = (0, 0);
    if rest.first() == Some(&b':') {
        second = digits(rest.get(1..3)?)?;
        // 60 is a leap second.
        if second > 60 {
            return None;
        }
        rest = &rest[3..];
        if rest.first() == Some(&b'.') {
            let fraction = rest[1..].iter().take_while(|c| c.is_ascii_digit()).count();
            if fraction == 0 {
                return None;
            }
            // Nanoseconds: the first nine digits, padded.
            for i in 0..9 {
                let digit = rest
                    .get(1 + i)
                    .filter(|_| i < fraction)
                    .map_or(0, |d| d - b'0');
                nanos = nanos * 10 + u32::from(digit);
            }
            rest = &rest[1 + fraction..];
        }
    }
    let offset = match rest {
        [] => None,
        [b'Z' | b'z'] => Some(0),
        [sign @ (b'+' | b'-'), zone @ ..] if zone.len() == 5 => {
            let (hours, minutes) = hh_mm(zone)?;
            if hours > 23 || minutes > 59 {
                return None;
            }
            let seconds = hours * 3600 + minutes * 60;
            Some(if *sign == b'-' { -seconds } else { seconds })
        }
        _ => return None,
    };
    let local = days * 86_400 + hour * 3600 + minute * 60 + second;
    Some(Parsed {
        at: Timestamp {
            secs: local - offset.unwrap_or(0),
            nanos,
        },
        has_offset: offset.is_some(),
    })
}

impl Timestamp {
    /// RFC 3339 in UTC: `2024-05-01T12:30:00Z`, with a fraction only when there is one.
    pub(crate) fn to_rfc3339(self) -> String {
        let days = self.secs.div_euclid(86_400);
        let second_of_day = self.secs.rem_euclid(86_400);
        let (year, month, day) = civil_from_days(days);
        let mut text = format!(
            "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}",
            second_of_day / 3600,
            second_of_day / 60 % 60,
            second_of_day % 60
        );
        if self.nanos > 0 {
            let fraction = format!("{:09}", self.nanos);
            text.push('.');
            text.push_str(fraction.trim_end_matches('0'));
        }
        text.push('Z');
        text
    }
}

fn digits(b: &[u8]) -> Option<i64> {
    if b.is_empty() || !b.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(b.iter().fold(0, |n, d| n * 10 + i64::from(d - b'0')))
}

fn hh_mm(b: &[u8]) -> Option<(i64, i64)> {
    if b.len() < 5 || b[2] != b':' {
        return None;
    }
    Some((digits(&b[0..2])?, digits(&b[3..5])?))
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let day_of_year = (153 * ((month + 9) % 12) + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The date `days` after 1970-01-01: the inverse of [`days_from_civil`].
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let days = days + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rfc3339(value: &str) -> String {
        parse(value).expect(value).at.to_rfc3339()
    }

    #[test]
    fn shapes_that_parse() {
        assert_eq!(rfc3339("2024-01-02"), "2024-01-02T00:00:00Z");
        assert_eq!(rfc3339("2024-01-02T03:04"), "2024-01-02T03:04:00Z");
        assert_eq!(rfc3339("2024-01-02 03:04:05"), "2024-01-02T03:04:05Z");
        assert_eq!(rfc3339("2024-01-02T03:04:05.5Z"), "2024-01-02T03:04:05.5Z");
        assert_eq!(
            rfc3339("2024-01-02T03:04:05.123456789123z"),
            "2024-01-02T03:04:05.123456789Z"
        );
        // Offsets are applied, across midnight and month ends.
        assert_eq!(rfc3339("2024-01-02T03:04:05-07:00"), "2024-01-02T10:04:05Z");
        assert_eq!(rfc3339("2024-03-01T01:00+02:00"), "2024-02-29T23:00:00Z");
        assert!(parse("2024-01-02T03:04Z").unwrap().has_offset);
        assert!(!parse("2024-01-02T03:04").unwrap().has_offset);
    }

    #[test]
    fn shapes_and_dates_that_dont() {
        for bad in [
            "2024-1-02",
            "2024-01-02T",
            "2024-01-02T03",
            "2024-01-02T03:04:05.",
            "2024-01-02Z",
            "20240102",
            "2024-01-02T03:04+7",
            "2023-02-29",
            "2024-13-01",
            "2024-04-31",
            "2024-01-00",
            "2024-01-02T24:00",
            "2024-01-02T03:60",
            "2024-01-02T03:04+24:00",
            "２０２４-01-02",
        ] {
            assert_eq!(parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn civil_dates_round_trip() {
        for days in (-800_000..800_000).step_by(997) {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days);
        }
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
    }

    #[test]
    fn order_is_time_order() {
        let a = parse("2024-01-02T10:00:00+02:00").unwrap().at;
        let b = parse("2024-01-02T09:00:00Z").unwrap().at;
        assert!(a < b);
    }
}
