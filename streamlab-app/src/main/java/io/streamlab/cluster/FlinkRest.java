package io.streamlab.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** The few calls of Flink's REST API streamlab needs: cluster overview, running jobs, a job's vertices, cancel. */
public final class FlinkRest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final String base;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  /** @param master host:port of the JobManager's REST endpoint */
  public FlinkRest(String master) {
    this.base = "http://" + master;
  }

  /** {"taskmanagers":N, "slots-total":N, "slots-available":N, "jobs-running":N, ...} */
  public JsonNode overview() throws IOException, InterruptedException {
    return get("/overview");
  }

  public int taskManagers() throws IOException, InterruptedException {
    return overview().path("taskmanagers").asInt();
  }

  /** State (RUNNING, RESTARTING, ...) of the newest job of that name, or null if none. */
  public String jobState(String jobName) throws IOException, InterruptedException {
    JsonNode newest = newestJob(jobName);
    return newest == null ? null : newest.path("state").asText();
  }

  /** Id of the newest job of that name, or null if none. */
  public String newestJobId(String jobName) throws IOException, InterruptedException {
    JsonNode newest = newestJob(jobName);
    return newest == null ? null : newest.path("jid").asText();
  }

  /** The overview entry of the newest job of that name (a resubmitted job keeps its name), or null. */
  private JsonNode newestJob(String jobName) throws IOException, InterruptedException {
    JsonNode newest = null;
    for (JsonNode j : get("/jobs/overview").path("jobs")) {
      if (j.path("name").asText().equals(jobName)
          && (newest == null || j.path("start-time").asLong() > newest.path("start-time").asLong())) newest = j;
    }
    return newest;
  }

  /** A job's details: its vertices and its plan (each plan node lists the vertices it reads from as "inputs"). */
  public JsonNode job(String jobId) throws IOException, InterruptedException {
    return get("/jobs/" + jobId);
  }

  /** One vertex of a job: its current subtask attempts, each with its I/O metrics ("write-bytes", ...). */
  public JsonNode vertex(String jobId, String vertexId) throws IOException, InterruptedException {
    return get("/jobs/" + jobId + "/vertices/" + vertexId);
  }

  /** Cancels every job of that name that has not ended; returns how many. */
  public int cancel(String jobName) throws IOException, InterruptedException {
    int n = 0;
    for (JsonNode j : get("/jobs/overview").path("jobs")) {
      String state = j.path("state").asText();
      if (j.path("name").asText().equals(jobName) && !state.equals("FINISHED") && !state.equals("CANCELED")
          && !state.equals("FAILED")) {
        send(HttpRequest.newBuilder(URI.create(base + "/jobs/" + j.path("jid").asText() + "?mode=cancel"))
            .method("PATCH", HttpRequest.BodyPublishers.noBody()));
        n++;
      }
    }
    return n;
  }

  private JsonNode get(String path) throws IOException, InterruptedException {
    return JSON.readTree(send(HttpRequest.newBuilder(URI.create(base + path)).GET()));
  }

  private String send(HttpRequest.Builder request) throws IOException, InterruptedException {
    HttpResponse<String> r = http.send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() / 100 != 2) {
      throw new IOException("Flink REST " + r.request().method() + " " + r.uri() + ": HTTP " + r.statusCode() + " " + r.body());
    }
    return r.body();
  }
}
