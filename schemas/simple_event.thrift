// SimpleEvent: the original suite's flat event (an id, a time, a handful of attributes), written
// to exercise every Thrift construct streamlab reads at run time: includes, typedefs, enums,
// every base type, list/set/map, nested structs, required and optional fields.
include "common.thrift"

namespace java io.streamlab.events

typedef list<string> Tags

struct Attribute {
  1: required string key,
  2: optional string value,
}

struct SimpleEvent {
  1: required common.Uuid id,
  2: required common.EpochMillis timestamp,
  3: required string name,
  4: required common.Priority priority,
  5: required bool active,
  6: required byte level,
  7: required i16 shard,
  8: required i32 count,
  9: required i64 total,
  10: required double score,
  11: optional binary checksum,
  12: optional Tags tags,
  13: optional set<i32> codes,
  14: optional map<string, i64> counters,
  15: optional list<Attribute> attributes,
  16: optional common.GeoPoint origin,
}
