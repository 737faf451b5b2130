package io.streamlab.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.Schema;

/**
 * JSON Schema (draft 4 to 2020-12, the parts a table can hold) -> canonical Avro schema.
 *
 * <p>Supported: {@code type} object (properties, required; additionalProperties with a schema and
 * no properties = a map), array (items), string, integer (-> long), number (-> double), boolean,
 * null in a type array; {@code enum} of strings; nullable unions as {@code type: [T, "null"]} or
 * {@code oneOf}/{@code anyOf} of one schema plus {@code {"type": "null"}}; local {@code $ref}s
 * into {@code definitions}/{@code $defs}; {@code contentEncoding: base64} strings (-> bytes).
 * A property not listed in {@code required} becomes nullable with default null. Anything else
 * fails with the path of the field.
 */
public final class JsonSchemaTranslator {
  private final JsonNode document;
  private final String file;
  private final Set<String> recordNames = new HashSet<>();
  private final Set<String> refsInProgress = new HashSet<>();
  /** A definition used twice is one named Avro type, as it is one type in the JSON Schema. */
  private final Map<String, Schema> refs = new java.util.HashMap<>();

  private JsonSchemaTranslator(JsonNode document, String file) {
    this.document = document;
    this.file = file;
  }

  /** @throws IllegalArgumentException naming the file and field for anything unsupported */
  public static Schema translate(Path file) {
    JsonNode doc;
    try {
      doc = new ObjectMapper().readTree(file.toFile());
    } catch (IOException e) {
      throw new IllegalArgumentException(file + ": not valid JSON: " + e.getMessage());
    }
    return translate(doc, file.toString());
  }

  static Schema translate(JsonNode doc, String file) {
    JsonSchemaTranslator t = new JsonSchemaTranslator(doc, file);
    String rootName = doc.hasNonNull("title") ? avroName(doc.get("title").asText()) : "Event";
    Schema root = t.type(doc, rootName, rootName);
    if (root.getType() != Schema.Type.RECORD) {
      throw new IllegalArgumentException(file + ": the root of the JSON Schema must be an object, not " + root.getType());
    }
    return root;
  }

  private IllegalArgumentException error(String path, String message) {
    return new IllegalArgumentException(file + ": field '" + path + "': " + message);
  }

  /** The Avro type of a JSON Schema node (nullable when the node itself allows null). */
  private Schema type(JsonNode node, String path, String nameHint) {
    if (node.has("$ref")) return ref(node.get("$ref").asText(), path, nameHint);
    for (String combinator : List.of("oneOf", "anyOf")) {
      if (node.has(combinator)) return nullableUnion(node.get(combinator), path, nameHint, combinator);
    }
    if (node.has("allOf")) throw error(path, "allOf is not supported (merge the schemas into one object)");
    if (node.has("enum")) return enumType(node, path, nameHint);
    JsonNode typeNode = node.get("type");
    if (typeNode == null) throw error(path, "no 'type' (or $ref/oneOf/anyOf/enum): a column needs one type");
    if (typeNode.isArray()) {
      List<String> types = new ArrayList<>();
      typeNode.forEach(t -> types.add(t.asText()));
      boolean nullable = types.remove("null");
      if (types.size() != 1) throw error(path, "type " + typeNode + " mixes types; only [T, \"null\"] is supported");
      Schema s = single(types.get(0), node, path, nameHint);
      return nullable ? nullable(s) : s;
    }
    return single(typeNode.asText(), node, path, nameHint);
  }

  private Schema single(String type, JsonNode node, String path, String nameHint) {
    switch (type) {
      case "string":
        if ("base64".equals(node.path("contentEncoding").asText(null))) return Schema.create(Schema.Type.BYTES);
        return Schema.create(Schema.Type.STRING);
      case "integer": return Schema.create(Schema.Type.LONG);
      case "number": return Schema.create(Schema.Type.DOUBLE);
      case "boolean": return Schema.create(Schema.Type.BOOLEAN);
      case "array": {
        JsonNode items = node.get("items");
        if (items == null || !items.isObject()) throw error(path, "an array needs one 'items' schema (tuples are not supported)");
        return Schema.createArray(type(items, path + "[]", nameHint + "Item"));
      }
      case "object": return object(node, path, nameHint);
      case "null": throw error(path, "a field that can only be null has no column type");
      default: throw error(path, "unknown type '" + type + "'");
    }
  }

  private Schema object(JsonNode node, String path, String nameHint) {
    JsonNode props = node.get("properties");
    JsonNode additional = node.get("additionalProperties");
    if ((props == null || props.isEmpty()) && additional != null && additional.isObject()) {
      return Schema.createMap(type(additional, path + "{}", nameHint + "Value"));
    }
    if (props == null || props.isEmpty()) throw error(path, "an object needs 'properties' (or an 'additionalProperties' schema for a map)");
    Set<String> required = new HashSet<>();
    node.path("required").forEach(r -> required.add(r.asText()));
    List<Schema.Field> fields = new ArrayList<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = props.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> p = it.next();
      String name = p.getKey();
      String fieldPath = path + "." + name;
      if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
        throw error(fieldPath, "property name must be letters, digits and _ (not starting with a digit) to be a column");
      }
      Schema s = type(p.getValue(), fieldPath, nameHint + capitalize(name));
      String doc = p.getValue().path("description").asText(null);
      if (required.contains(name)) {
        fields.add(new Schema.Field(name, s, doc, (Object) null));
      } else {
        fields.add(new Schema.Field(name, nullable(s), doc, Schema.Field.NULL_DEFAULT_VALUE));
      }
    }
    return Schema.createRecord(uniqueName(nameHint), node.path("description").asText(null), "jsonschema", false, fields);
  }

  private Schema enumType(JsonNode node, String path, String nameHint) {
    List<String> symbols = new ArrayList<>();
    boolean nullable = false;
    for (JsonNode v : node.get("enum")) {
      if (v.isNull()) { nullable = true; continue; }
      if (!v.isTextual() || !v.asText().matches("[A-Za-z_][A-Za-z0-9_]*")) {
        throw error(path, "enum value " + v + " is not a symbol (letters, digits, _): only string enums of names are supported");
      }
      symbols.add(v.asText());
    }
    if (symbols.isEmpty()) throw error(path, "enum without symbols");
    Schema e = Schema.createEnum(uniqueName(nameHint), null, "jsonschema", symbols);
    return nullable ? nullable(e) : e;
  }

  private Schema nullableUnion(JsonNode options, String path, String nameHint, String combinator) {
    List<JsonNode> nonNull = new ArrayList<>();
    boolean hasNull = false;
    for (JsonNode o : options) {
      if ("null".equals(o.path("type").asText(null))) hasNull = true;
      else nonNull.add(o);
    }
    if (nonNull.size() != 1) {
      throw error(path, combinator + " of " + nonNull.size() + " non-null schemas: only one schema plus {\"type\": \"null\"} is supported");
    }
    Schema s = type(nonNull.get(0), path, nameHint);
    return hasNull ? nullable(s) : s;
  }

  private Schema ref(String ref, String path, String nameHint) {
    if (!ref.startsWith("#/")) throw error(path, "only local $refs (#/definitions/..., #/$defs/...) are supported, not " + ref);
    JsonNode target = document.at(ref.substring(1));
    if (target.isMissingNode()) throw error(path, "$ref " + ref + " points nowhere");
    Schema known = refs.get(ref);
    if (known != null) return known;
    if (!refsInProgress.add(ref)) throw error(path, "$ref " + ref + " is recursive, which a table schema cannot hold");
    try {
      String hint = avroName(ref.substring(ref.lastIndexOf('/') + 1));
      Schema s = type(target, path, hint.isEmpty() ? nameHint : capitalize(hint));
      refs.put(ref, s);
      return s;
    } finally {
      refsInProgress.remove(ref);
    }
  }

  private static Schema nullable(Schema s) {
    if (s.isNullable()) return s;
    return Schema.createUnion(Schema.create(Schema.Type.NULL), s);
  }

  private String uniqueName(String hint) {
    String name = hint;
    for (int i = 2; !recordNames.add(name); i++) name = hint + i;
    return name;
  }

  private static String avroName(String s) {
    String n = s.replaceAll("[^A-Za-z0-9_]", "_");
    return n.isEmpty() || Character.isDigit(n.charAt(0)) ? "_" + n : n;
  }

  private static String capitalize(String s) {
    return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }
}
