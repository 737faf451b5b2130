package io.streamlab.loadtest;

/** Which sides of the test this process runs. */
public enum Role {
  /** Publishers and subscribers: missing and duplicates are exact (acknowledged vs received). */
  BOTH,
  /** Producer-only, e.g. to fill a topic another process subscribes to. */
  PUBLISH,
  /** Consumer-only against an existing topic: missing counts sequence gaps per producer. */
  SUBSCRIBE;

  boolean publishes() {
    return this != SUBSCRIBE;
  }

  boolean subscribes() {
    return this != PUBLISH;
  }
}
