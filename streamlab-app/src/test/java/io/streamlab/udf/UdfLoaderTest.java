package io.streamlab.udf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UdfLoaderTest {
  @TempDir Path dir;

  @Test
  void defaultIsTheIdentity() {
    assertInstanceOf(IdentityFunction.class, UdfLoader.IDENTITY.newInstance());
  }

  @Test
  void loadsAClassFromTheClasspath() {
    assertInstanceOf(BoomFunction.class, new UdfLoader(BoomFunction.class.getName(), null).newInstance());
  }

  /** A real jar, compiled here, that is not on the classpath: --udfJar is what makes it loadable. */
  @Test
  void loadsAClassFromAJar() throws Exception {
    Path src = dir.resolve("src/acme/Upper.java");
    Files.createDirectories(src.getParent());
    Files.writeString(src, """
        package acme;
        import org.apache.avro.generic.GenericRecord;
        public class Upper implements io.streamlab.udf.EventFunction {
          public GenericRecord apply(GenericRecord e) { e.put(0, e.get(0).toString().toUpperCase()); return e; }
        }
        """);
    Path classes = dir.resolve("classes");
    Files.createDirectories(classes);
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    assertEquals(0, javac.run(null, null, null, "-cp", System.getProperty("java.class.path"),
        "-d", classes.toString(), src.toString()));
    Path jar = dir.resolve("upper.jar");
    try (JarOutputStream j = new JarOutputStream(Files.newOutputStream(jar))) {
      j.putNextEntry(new JarEntry("acme/Upper.class"));
      j.write(Files.readAllBytes(classes.resolve("acme/Upper.class")));
      j.closeEntry();
    }

    IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
        () -> new UdfLoader("acme.Upper", null).check());
    assertEquals("--udfClassName acme.Upper: no such class on the classpath (give the jar with --udfJar)", missing.getMessage());

    EventFunction f = new UdfLoader("acme.Upper", jar.toString()).newInstance();
    Schema s = SchemaBuilder.record("E").fields().requiredString("name").endRecord();
    GenericRecord e = new GenericData.Record(s);
    e.put(0, "quiet");
    assertEquals("QUIET", f.apply(e).get(0));
  }

  @Test
  void everyUnusableClassIsAClearStartUpError() {
    assertEquals("--udfClassName java.lang.String does not implement io.streamlab.udf.EventFunction",
        assertThrows(IllegalArgumentException.class, () -> new UdfLoader("java.lang.String", null).check()).getMessage());
    assertEquals("--udfJar /no/such.jar: no such file",
        assertThrows(IllegalArgumentException.class, () -> new UdfLoader("a.B", "/no/such.jar").check()).getMessage());
    assertEquals("--udfClassName " + NoDefaultConstructor.class.getName() + " needs a public no-argument constructor",
        assertThrows(IllegalArgumentException.class,
            () -> new UdfLoader(NoDefaultConstructor.class.getName(), null).check()).getMessage());
  }

  public static final class NoDefaultConstructor implements EventFunction {
    public NoDefaultConstructor(int unused) {}

    @Override
    public GenericRecord apply(GenericRecord event) {
      return event;
    }
  }

  @Test
  void ingestRefusesToStartWithAnUnloadableUdf() {
    var out = new java.io.StringWriter();
    var cl = io.streamlab.cli.Main.commandLine();
    cl.setErr(new java.io.PrintWriter(out));
    int code = cl.execute(List.of("ingest", "--bootstrapServers=127.0.0.1:1", "--db=" + dir.resolve("x.duckdb"),
        "--udfClassName=com.example.Missing").toArray(String[]::new));
    assertEquals(2, code);
    assertEquals("streamlab: --udfClassName com.example.Missing: no such class on the classpath (give the jar with --udfJar)",
        out.toString().trim());
  }
}
