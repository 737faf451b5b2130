package io.streamlab.pipeline.dataflow;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.runners.dataflow.DataflowRunner;
import org.apache.beam.runners.dataflow.options.DataflowPipelineOptions;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.extensions.gcp.auth.NoopCredentialFactory;
import org.apache.beam.sdk.extensions.gcp.storage.NoopPathValidator;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * The Dataflow job a pipeline would be, written as JSON without credentials and without network.
 *
 * <p>It is Beam's own DataflowRunner doing its whole submission path (overrides for the Dataflow
 * service such as its native Pub/Sub read, translation into steps, options, worker pool) with the
 * few things that reach Google replaced: the job is written the way Beam writes a classic template
 * ({@code --templateLocation}, after which the runner returns without calling the service; Beam's
 * {@code --dataflowJobFile} would write the same JSON but then submit), files are named but not
 * uploaded ({@link DryRunStager}), paths are not checked against Cloud Storage and no credentials
 * are looked up. Missing project, region or temp location get placeholders (nothing is contacted,
 * so any name does); the caller prints them. Transforms' own validation is skipped too: BigQueryIO
 * checks that the dataset exists, which needs BigQuery (a real submission does check it).
 */
public final class DataflowDryRun {
  static final String PROJECT = "dry-run-project";
  static final String REGION = "us-central1";
  static final String TEMP_LOCATION = "gs://dry-run-bucket/temp";

  private DataflowDryRun() {}

  /**
   * Sets {@code options} for a dry run writing the job to {@code file}; call before
   * {@code Pipeline.create} (which already builds the runner).
   *
   * @return the placeholders used for options the user did not give, as {@code --name=value}
   */
  public static List<String> prepare(PipelineOptions options, Path file) {
    DataflowPipelineOptions o = options.as(DataflowPipelineOptions.class);
    List<String> placeholders = new ArrayList<>();
    if (o.getProject() == null || o.getProject().isBlank()) {
      o.setProject(PROJECT);
      placeholders.add("--project=" + PROJECT);
    }
    if (o.getRegion() == null || o.getRegion().isBlank()) {
      o.setRegion(REGION);
      placeholders.add("--region=" + REGION);
    }
    if (o.getTempLocation() == null || o.getTempLocation().isBlank()) {
      o.setTempLocation(TEMP_LOCATION); // without one the runner would create a bucket
      placeholders.add("--tempLocation=" + TEMP_LOCATION);
    }
    // set rather than derived (even reading it would derive it): deriving it looks the bucket up in
    // Cloud Storage; the staging location is then derived from it locally
    o.setGcpTempLocation(o.getTempLocation());
    o.setCredentialFactoryClass(NoopCredentialFactory.class);
    o.setPathValidatorClass(NoopPathValidator.class);
    o.setStagerClass(DryRunStager.class);
    o.setDataflowJobFile(null);
    o.setTemplateLocation(file.toAbsolutePath().toString());
    o.setRunner(DataflowRunner.class);
    return placeholders;
  }

  /** Translates {@code pipeline}, created with options {@link #prepare}d, and writes its job. */
  public static void writeJob(Pipeline pipeline) {
    PipelineOptions o = pipeline.getOptions();
    if (o.as(DataflowPipelineOptions.class).getTemplateLocation() == null) {
      throw new IllegalStateException("the pipeline's options were not prepared for a dry run");
    }
    FileSystems.setDefaultPipelineOptions(o);
    DataflowRunner.fromOptions(o).run(pipeline);
  }
}
