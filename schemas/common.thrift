// Types shared by the example schemas; included by simple_event.thrift to show includes.
namespace java io.streamlab.events.common

typedef string Uuid
typedef i64 EpochMillis

enum Priority {
  LOW = 1,
  NORMAL = 2,
  HIGH = 10,
}

struct GeoPoint {
  1: required double latitude,
  2: required double longitude,
}
