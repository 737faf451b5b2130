package io.streamlab.loadtest;

import java.util.Map;

/**
 * Where the Pub/Sub driver connects: Google's service with application-default credentials, or,
 * when {@code PUBSUB_EMULATOR_HOST} is set (as gcloud's emulator prints it), the emulator at
 * that host:port in plaintext without credentials, as Google's own clients do.
 *
 * @param target host:port for gRPC, or null for the client library's default endpoint
 */
public record PubSubEndpoint(String target, boolean plaintextWithoutCredentials) {
  public static final String EMULATOR_VARIABLE = "PUBSUB_EMULATOR_HOST";

  public static PubSubEndpoint fromEnvironment(Map<String, String> env) {
    String emulator = env.get(EMULATOR_VARIABLE);
    if (emulator == null || emulator.isBlank()) return new PubSubEndpoint(null, false);
    String target = emulator.trim();
    if (!target.matches("[^\\s:/]+:\\d{1,5}")) {
      throw new IllegalArgumentException(EMULATOR_VARIABLE + " must be host:port, was '" + emulator + "'");
    }
    return new PubSubEndpoint(target, true);
  }

  public boolean emulator() {
    return plaintextWithoutCredentials;
  }
}
