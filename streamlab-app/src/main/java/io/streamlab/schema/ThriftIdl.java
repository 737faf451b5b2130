package io.streamlab.schema;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.Schema;

/**
 * Reads a Thrift IDL at run time (no code generation) and translates one root struct into the
 * canonical Avro schema. Thrift facts Avro cannot express are kept as schema properties that the
 * Thrift codec reads back: {@code thrift.id} (field id), {@code thrift.type} (byte/i16 for ints),
 * {@code thrift.container} (set), {@code thrift.enumValues} (enum numbers).
 *
 * <p>Supported: namespace, include, cpp_include, typedef, enum, struct/union/exception, const and
 * service (skipped), annotations (skipped), field ids, requiredness, default values (ignored),
 * bool, byte, i8, i16, i32, i64, double, string, binary, list, set, map. A field that is not
 * {@code required} becomes a nullable union with default null.
 */
public final class ThriftIdl {
  public static final String FIELD_ID = "thrift.id";

  /**
   * A field's Thrift id: its {@link #FIELD_ID} property, or, for a schema that did not come from an
   * IDL, its position counted from 1. Every reader and writer of the binary protocol takes it from here.
   */
  public static short fieldId(Schema.Field f) {
    return f.getObjectProp(FIELD_ID) instanceof Number n ? n.shortValue() : (short) (f.pos() + 1);
  }
  public static final String INT_TYPE = "thrift.type";
  public static final String CONTAINER = "thrift.container";
  public static final String ENUM_VALUES = "thrift.enumValues";

  private record TypeRef(String name, List<TypeRef> params, String file, int line) {}

  private record FieldDef(int id, boolean required, TypeRef type, String name, int line) {}

  private record StructDef(String name, List<FieldDef> fields) {}

  private record EnumDef(String name, List<String> symbols, List<Integer> values) {}

  private final Map<String, StructDef> structs = new LinkedHashMap<>();
  private final Map<String, EnumDef> enums = new HashMap<>();
  private final Map<String, TypeRef> typedefs = new HashMap<>();
  private final Set<Path> parsed = new HashSet<>();
  private String lastRootStruct;

  private ThriftIdl() {}

  /**
   * @param rootStruct the struct to translate; null = the last struct of the file
   * @throws IllegalArgumentException naming file, line and field for anything unsupported
   */
  public static Schema parse(Path file, String rootStruct) {
    ThriftIdl idl = new ThriftIdl();
    idl.parseFile(file.toAbsolutePath().normalize(), "");
    String root = rootStruct != null ? rootStruct : idl.lastRootStruct;
    if (root == null) throw new IllegalArgumentException(file + ": no struct in the IDL");
    StructDef def = idl.structs.get(root);
    if (def == null) {
      throw new IllegalArgumentException(file + ": no struct named '" + root + "' (structs: " + idl.structs.keySet() + ")");
    }
    return idl.toAvro(def, new HashMap<>(), new HashSet<>(), file.toString());
  }

  // ---- parsing ----

  private void parseFile(Path file, String prefix) {
    if (!parsed.add(file)) return;
    String text;
    try {
      text = Files.readString(file);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read Thrift IDL " + file + ": " + e.getMessage());
    }
    Tokens t = new Tokens(text, file.toString());
    while (t.hasNext()) {
      String kw = t.next();
      switch (kw) {
        case "namespace" -> { t.next(); t.next(); }
        case "cpp_include" -> t.next();
        case "include" -> {
          String inc = unquote(t.next());
          Path incFile = file.getParent().resolve(inc).normalize();
          String base = incFile.getFileName().toString().replaceFirst("\\.thrift$", "");
          parseFile(incFile, base + ".");
        }
        case "typedef" -> {
          TypeRef type = parseType(t);
          typedefs.put(prefix + t.next(), type);
          t.skipAnnotations();
          t.skipSeparator();
        }
        case "enum" -> parseEnum(t, prefix);
        case "struct", "union", "exception" -> {
          StructDef s = parseStruct(t, prefix);
          structs.put(s.name(), s);
          if (prefix.isEmpty()) lastRootStruct = s.name();
        }
        case "const" -> {
          parseType(t);
          t.next();
          t.expect("=");
          t.skipValue();
          t.skipSeparator();
        }
        case "service" -> {
          while (!t.peek().equals("{")) t.next();
          t.skipBalanced("{", "}");
        }
        default -> throw t.error("unexpected '" + kw + "' (expected a definition)");
      }
    }
  }

  private void parseEnum(Tokens t, String prefix) {
    String name = prefix + t.next();
    t.expect("{");
    List<String> symbols = new ArrayList<>();
    List<Integer> values = new ArrayList<>();
    int next = 0;
    while (!t.peek().equals("}")) {
      symbols.add(t.next());
      if (t.peek().equals("=")) {
        t.next();
        next = Integer.decode(t.next());
      }
      values.add(next++);
      t.skipAnnotations();
      t.skipSeparator();
    }
    t.expect("}");
    t.skipAnnotations();
    enums.put(name, new EnumDef(name, symbols, values));
  }

  private StructDef parseStruct(Tokens t, String prefix) {
    String name = prefix + t.next();
    t.skipAnnotations();
    t.expect("{");
    List<FieldDef> fields = new ArrayList<>();
    int implicitId = -1;
    while (!t.peek().equals("}")) {
      int line = t.line();
      int id;
      if (t.peekIsNumber() && t.peek(1).equals(":")) {
        id = Integer.decode(t.next());
        t.next();
      } else {
        id = implicitId--; // as the Thrift compiler does for fields without an id
      }
      boolean required = false;
      if (t.peek().equals("required")) { t.next(); required = true; }
      else if (t.peek().equals("optional")) t.next();
      TypeRef type = parseType(t);
      String fieldName = t.next();
      if (t.peek().equals("=")) {
        t.next();
        t.skipValue();
      }
      t.skipAnnotations();
      t.skipSeparator();
      fields.add(new FieldDef(id, required, type, fieldName, line));
    }
    t.expect("}");
    t.skipAnnotations();
    return new StructDef(name, fields);
  }

  private TypeRef parseType(Tokens t) {
    int line = t.line();
    String name = t.next();
    List<TypeRef> params = new ArrayList<>();
    if (name.equals("list") || name.equals("set") || name.equals("map")) {
      t.expect("<");
      params.add(parseType(t));
      if (name.equals("map")) {
        t.expect(",");
        params.add(parseType(t));
      }
      t.expect(">");
    }
    t.skipAnnotations();
    return new TypeRef(name, params, t.file(), line);
  }

  // ---- translation to Avro ----

  private Schema toAvro(StructDef def, Map<String, Schema> done, Set<String> inProgress, String where) {
    Schema existing = done.get(def.name());
    if (existing != null) return existing; // Avro refers to a named type defined once by name
    if (!inProgress.add(def.name())) {
      throw new IllegalArgumentException(where + ": struct '" + def.name() + "' is recursive, which a table schema cannot hold");
    }
    List<Schema.Field> fields = new ArrayList<>();
    for (FieldDef f : def.fields()) {
      String at = f.type().file() + ":" + f.line() + ": field '" + f.name() + "' of " + def.name();
      Schema type = typeToAvro(f.type(), done, inProgress, at);
      Schema.Field field;
      if (f.required()) {
        field = new Schema.Field(f.name(), type, null, (Object) null);
      } else {
        field = new Schema.Field(f.name(), Schema.createUnion(Schema.create(Schema.Type.NULL), type), null,
            Schema.Field.NULL_DEFAULT_VALUE);
      }
      field.addProp(FIELD_ID, f.id());
      fields.add(field);
    }
    String simple = def.name().substring(def.name().lastIndexOf('.') + 1);
    Schema record = Schema.createRecord(simple, null, "thrift", false, fields);
    inProgress.remove(def.name());
    done.put(def.name(), record);
    return record;
  }

  private Schema typeToAvro(TypeRef ref, Map<String, Schema> done, Set<String> inProgress, String at) {
    switch (ref.name()) {
      // no avro.java.string=String: string values are Avro's Utf8, as the Thrift codec decodes them
      case "string": return Schema.create(Schema.Type.STRING);
      case "binary": return Schema.create(Schema.Type.BYTES);
      case "bool": return Schema.create(Schema.Type.BOOLEAN);
      case "double": return Schema.create(Schema.Type.DOUBLE);
      case "i64": return Schema.create(Schema.Type.LONG);
      case "i32": return Schema.create(Schema.Type.INT);
      case "i16", "byte", "i8": {
        Schema s = Schema.create(Schema.Type.INT);
        s.addProp(INT_TYPE, ref.name().equals("i16") ? "i16" : "byte");
        return s;
      }
      case "list", "set": {
        Schema s = Schema.createArray(typeToAvro(ref.params().get(0), done, inProgress, at));
        if (ref.name().equals("set")) s.addProp(CONTAINER, "set");
        return s;
      }
      case "map": {
        Schema key = typeToAvro(ref.params().get(0), done, inProgress, at);
        Schema value = typeToAvro(ref.params().get(1), done, inProgress, at);
        if (key.getType() == Schema.Type.STRING) return Schema.createMap(value);
        throw new IllegalArgumentException(at + ": map keys must be strings here (got "
            + ref.params().get(0).name() + "): a table column cannot key a map by " + key.getType());
      }
      default: {
        String name = ref.name();
        if (typedefs.containsKey(name)) return typeToAvro(typedefs.get(name), done, inProgress, at);
        if (enums.containsKey(name)) return enumToAvro(enums.get(name), done);
        if (structs.containsKey(name)) return toAvro(structs.get(name), done, inProgress, at);
        throw new IllegalArgumentException(at + ": unknown type '" + ref.name() + "'");
      }
    }
  }

  private static Schema enumToAvro(EnumDef e, Map<String, Schema> done) {
    Schema existing = done.get(e.name());
    if (existing != null) return existing;
    String simple = e.name().substring(e.name().lastIndexOf('.') + 1);
    Schema s = Schema.createEnum(simple, null, "thrift", e.symbols());
    s.addProp(ENUM_VALUES, e.values());
    done.put(e.name(), s);
    return s;
  }

  private static String unquote(String s) {
    return s.length() >= 2 && (s.charAt(0) == '"' || s.charAt(0) == '\'') ? s.substring(1, s.length() - 1) : s;
  }

  /** Tokens of an IDL file, comments dropped, each with its line for error messages. */
  private static final class Tokens {
    private final List<String> tokens = new ArrayList<>();
    private final List<Integer> lines = new ArrayList<>();
    private final String file;
    private int pos;

    Tokens(String text, String file) {
      this.file = file;
      int line = 1;
      int i = 0;
      while (i < text.length()) {
        char c = text.charAt(i);
        if (c == '\n') { line++; i++; }
        else if (Character.isWhitespace(c)) i++;
        else if (c == '#' || text.startsWith("//", i)) { while (i < text.length() && text.charAt(i) != '\n') i++; }
        else if (text.startsWith("/*", i)) {
          int end = text.indexOf("*/", i + 2);
          if (end < 0) throw new IllegalArgumentException(file + ":" + line + ": unterminated comment");
          for (int k = i; k < end; k++) if (text.charAt(k) == '\n') line++;
          i = end + 2;
        } else if (c == '"' || c == '\'') {
          int end = text.indexOf(c, i + 1);
          if (end < 0) throw new IllegalArgumentException(file + ":" + line + ": unterminated string");
          add(text.substring(i, end + 1), line);
          i = end + 1;
        } else if (Character.isLetterOrDigit(c) || c == '_' || c == '.' || c == '-' || c == '+') {
          int start = i;
          while (i < text.length() && (Character.isLetterOrDigit(text.charAt(i)) || "_.-+".indexOf(text.charAt(i)) >= 0)) i++;
          add(text.substring(start, i), line);
        } else {
          add(String.valueOf(c), line);
          i++;
        }
      }
    }

    private void add(String token, int line) {
      tokens.add(token);
      lines.add(line);
    }

    boolean hasNext() { return pos < tokens.size(); }
    String file() { return file; }
    int line() { return lines.get(Math.min(pos, lines.size() - 1)); }

    String peek() { return peek(0); }

    String peek(int ahead) {
      return pos + ahead < tokens.size() ? tokens.get(pos + ahead) : "";
    }

    boolean peekIsNumber() {
      String p = peek();
      return !p.isEmpty() && (Character.isDigit(p.charAt(0)) || (p.charAt(0) == '-' && p.length() > 1));
    }

    String next() {
      if (!hasNext()) throw new IllegalArgumentException(file + ": unexpected end of file");
      return tokens.get(pos++);
    }

    void expect(String token) {
      String got = next();
      if (!got.equals(token)) {
        pos--;
        throw error("expected '" + token + "' but found '" + got + "'");
      }
    }

    void skipSeparator() {
      if (peek().equals(",") || peek().equals(";")) pos++;
    }

    void skipAnnotations() {
      if (peek().equals("(")) skipBalanced("(", ")");
    }

    void skipBalanced(String open, String close) {
      expect(open);
      int depth = 1;
      while (depth > 0) {
        String s = next();
        if (s.equals(open)) depth++;
        else if (s.equals(close)) depth--;
      }
    }

    /** A constant value: a literal, or a [list] / {map} literal. */
    void skipValue() {
      if (peek().equals("[")) skipBalanced("[", "]");
      else if (peek().equals("{")) skipBalanced("{", "}");
      else next();
    }

    IllegalArgumentException error(String message) {
      return new IllegalArgumentException(file + ":" + line() + ": " + message);
    }
  }
}
