package io.streamlab.pipeline.write;

import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.Hidden;
import org.apache.beam.sdk.options.PipelineOptions;

/** What {@link WriteStage#configure} leaves in the pipeline's options for the writers to read where they run. */
@Hidden
public interface WriterOptions extends PipelineOptions {
  @Description("How old a batch's first row may get before the batch is appended, in ms, where the runner's bundles "
      + "last longer than that (a writer that holds its appends while behind); 0: the runner's bundle time.")
  @Default.Long(0)
  long getAppendMaxAgeMillis();

  void setAppendMaxAgeMillis(long value);
}
