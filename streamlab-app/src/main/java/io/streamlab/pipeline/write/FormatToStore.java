package io.streamlab.pipeline.write;

import io.streamlab.schema.AvroJson;
import io.streamlab.store.postgres.CopyRow;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import io.streamlab.formats.AvroRecordCoder;
import org.apache.beam.sdk.extensions.avro.schemas.utils.AvroUtils;
import org.apache.beam.sdk.values.Row;

/**
 * The element type the write stage carries, as the original suite's {@code formatToStore}:
 * <ul>
 *   <li>TABLE_ROW: a JSON row (String), as BigQuery's TableRow and streaming inserts carry it;
 *   <li>BEAM_ROW: a Beam {@link Row} with the Beam schema derived from the table's Avro schema;
 *   <li>AVRO_GENERIC_RECORD: the table record itself;
 *   <li>STORE_ROW: the row as the store takes it, made by the decode in one pass: PostgreSQL's
 *       binary COPY columns straight from the Thrift bytes ({@link CopyRow}; not one of the
 *       study's formats: what a job written for one store and one wire format would carry).
 *       It is a record too, decoded only where its values are asked for (a shuffle's coder, a
 *       dead letter), so every write method takes it.
 * </ul>
 * Conversions are derived once per schema and cached (the Beam schema, the coders); the table
 * stores take Avro records, so every element is converted back just before the append.
 */
public enum FormatToStore {
  TABLE_ROW, BEAM_ROW, AVRO_GENERIC_RECORD, STORE_ROW;

  private static final Map<Schema, org.apache.beam.sdk.schemas.Schema> BEAM_SCHEMAS = new ConcurrentHashMap<>();

  private static org.apache.beam.sdk.schemas.Schema beamSchema(Schema avro) {
    return BEAM_SCHEMAS.computeIfAbsent(avro, AvroUtils::toBeamSchema);
  }

  @SuppressWarnings("unchecked")
  public Coder<Object> coder(Schema avro) {
    Coder<?> c = switch (this) {
      case TABLE_ROW -> StringUtf8Coder.of();
      case BEAM_ROW -> RowCoder.of(beamSchema(avro));
      case AVRO_GENERIC_RECORD, STORE_ROW -> AvroRecordCoder.of(avro);
    };
    return (Coder<Object>) c;
  }

  public Object fromRecord(GenericRecord record) {
    return switch (this) {
      case TABLE_ROW -> AvroJson.toJson(record, record.getSchema());
      case BEAM_ROW -> AvroUtils.toBeamRowStrict(record, beamSchema(record.getSchema()));
      case AVRO_GENERIC_RECORD, STORE_ROW -> record;
    };
  }

  public GenericRecord toRecord(Object element, Schema avro) {
    return switch (this) {
      case TABLE_ROW -> AvroJson.parseRecord((String) element, avro);
      case BEAM_ROW -> AvroUtils.toGenericRecord((Row) element, avro);
      case AVRO_GENERIC_RECORD, STORE_ROW -> (GenericRecord) element;
    };
  }

  /** The element as the JSON row of a streaming-insert request. */
  public String toJsonRow(Object element, Schema avro) {
    return this == TABLE_ROW ? (String) element : AvroJson.toJson(toRecord(element, avro), avro);
  }
}
