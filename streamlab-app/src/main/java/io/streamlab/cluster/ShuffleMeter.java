package io.streamlab.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Bytes a job on a Flink cluster moved between its vertices, i.e. through network shuffles:
 * Flink's own numBytesOut ("write-bytes" in the REST API) of every vertex that another vertex
 * reads from, summed over subtasks. It counts serialized records plus Flink's small framing, for
 * every shuffle of the job (Beam's Kafka read shuffles its few partition descriptors too), where
 * an embedded run counts the write stage's shuffle coder only.
 *
 * <p>Each task attempt counts from zero, so a job restarted after a TaskManager was killed would
 * seem to have shuffled less: the meter keeps every attempt's last value it saw and adds them up.
 * What an attempt sent after the last sample before it died (a second or two, polled every status
 * interval, REST metrics refreshed every second) is missing.
 */
final class ShuffleMeter {
  private final FlinkRest flink;
  private final String jobName;
  /** job/vertex/subtask/attempt -> the highest write-bytes seen. */
  private final Map<String, Long> perAttempt = new HashMap<>();
  private final Set<String> warned = new HashSet<>();

  ShuffleMeter(FlinkRest flink, String jobName) {
    this.flink = flink;
    this.jobName = jobName;
  }

  /** Samples the job's vertices now; returns the bytes shuffled so far over every attempt. */
  long bytes() throws IOException, InterruptedException {
    String jobId = flink.newestJobId(jobName);
    if (jobId != null) {
      Set<String> feeding = new HashSet<>();
      for (JsonNode node : flink.job(jobId).path("plan").path("nodes")) {
        for (JsonNode in : node.path("inputs")) feeding.add(in.path("id").asText());
      }
      for (String vertex : feeding) {
        try {
          for (JsonNode st : flink.vertex(jobId, vertex).path("subtasks")) {
            String key = jobId + "/" + vertex + "/" + st.path("subtask").asInt() + "/" + st.path("attempt").asInt();
            perAttempt.merge(key, st.path("metrics").path("write-bytes").asLong(), Math::max);
          }
        } catch (IOException e) {
          warnOnce("vertex " + vertex + ": " + e.getMessage());
        }
      }
    }
    return perAttempt.values().stream().mapToLong(Long::longValue).sum();
  }

  /** A failed sample goes to the ingestion log once per kind: a lagging figure should be explainable. */
  private void warnOnce(String problem) {
    if (warned.add(problem.replaceAll("\\d+", "#"))) {
      System.err.println("[streamlab] shuffle bytes: a Flink REST sample failed (" + problem + "); keeping the last values");
    }
  }
}
