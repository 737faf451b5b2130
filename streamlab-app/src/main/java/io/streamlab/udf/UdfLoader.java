package io.streamlab.udf;

import java.io.Serializable;
import java.lang.reflect.InvocationTargetException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Loads the user function named on the command line. Unlike the original suite, which silently
 * fell back to the identity when the class could not be loaded, every problem is a start-up
 * error naming the class and jar: a run with the wrong UDF would otherwise look healthy.
 *
 * @param className fully qualified class implementing {@link EventFunction}; null = identity
 * @param jar jar holding the class; null = the class is on streamlab's own classpath
 */
public record UdfLoader(String className, String jar) implements Serializable {
  public static final UdfLoader IDENTITY = new UdfLoader(null, null);

  /** Loaders of jars, one per jar per JVM: every worker thread shares the loaded classes. */
  private static final java.util.Map<String, ClassLoader> JAR_LOADERS = new java.util.concurrent.ConcurrentHashMap<>();

  public boolean isIdentity() {
    return className == null || className.isBlank();
  }

  /** Loads the class and makes one instance, so a bad --udfClassName fails before the pipeline starts. */
  public void check() {
    newInstance();
  }

  /** @throws IllegalArgumentException naming the class and jar when it cannot be used */
  public EventFunction newInstance() {
    if (isIdentity()) {
      if (jar != null) throw new IllegalArgumentException("--udfJar " + jar + " given without --udfClassName");
      return new IdentityFunction();
    }
    String where = jar == null ? "on the classpath" : "in " + jar;
    Class<?> c;
    try {
      c = Class.forName(className, true, loader());
    } catch (ClassNotFoundException e) {
      throw new IllegalArgumentException("--udfClassName " + className + ": no such class " + where
          + (jar == null ? " (give the jar with --udfJar)" : ""));
    } catch (LinkageError e) {
      throw new IllegalArgumentException("--udfClassName " + className + ": cannot load the class " + where + ": " + e);
    }
    if (!EventFunction.class.isAssignableFrom(c)) {
      throw new IllegalArgumentException("--udfClassName " + className + " does not implement " + EventFunction.class.getName());
    }
    try {
      return (EventFunction) c.getDeclaredConstructor().newInstance();
    } catch (NoSuchMethodException e) {
      throw new IllegalArgumentException("--udfClassName " + className + " needs a public no-argument constructor");
    } catch (InvocationTargetException e) {
      throw new IllegalArgumentException("--udfClassName " + className + ": the constructor threw " + e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalArgumentException("--udfClassName " + className + " cannot be instantiated: " + e);
    }
  }

  private ClassLoader loader() {
    ClassLoader parent = EventFunction.class.getClassLoader();
    if (jar == null) return parent;
    Path path = Path.of(jar).toAbsolutePath().normalize();
    if (!Files.isRegularFile(path)) throw new IllegalArgumentException("--udfJar " + jar + ": no such file");
    return JAR_LOADERS.computeIfAbsent(path.toString(), p -> {
      try {
        return new URLClassLoader(new URL[] {path.toUri().toURL()}, parent);
      } catch (MalformedURLException e) {
        throw new IllegalArgumentException("--udfJar " + jar + ": " + e.getMessage());
      }
    });
  }
}
