// SimplerCompoundEvent: the event of the streaming-ingestion study, as streamlab generates it.
// 16 strings and 7 longs in all, five of them in nested structs; ~1.1 KB in Thrift binary with
// the generator's default string lengths.
namespace java io.streamlab.events

struct User {
  1: required string userId,
  2: required string userName,
  3: required i64 accountCreatedAt,
}

struct Session {
  1: required string sessionId,
  2: required i64 startedAt,
  3: required string referrer,
}

struct Device {
  1: required string deviceId,
  2: required string userAgent,
  3: required string operatingSystem,
}

struct Location {
  1: required string country,
  2: required string city,
  3: required i64 geoHash,
}

struct PageContext {
  1: required string url,
  2: required string title,
  3: required i64 loadTimeMillis,
}

struct SimplerCompoundEvent {
  1: required string eventId,
  2: required string eventType,
  3: required i64 eventTimestamp,
  4: required string source,
  5: required string payload,
  6: required string correlationId,
  7: required i64 version,
  8: required User user,
  9: required Session session,
  10: required Device device,
  11: required Location location,
  12: required PageContext page,
  // optional: absent (null) when the generator runs with --no-completeObjects half the time
  13: optional i64 processedAt,
}
