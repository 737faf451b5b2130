package io.streamlab.pipeline.dataflow;

import com.google.api.services.dataflow.model.DataflowPackage;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.runners.dataflow.options.DataflowPipelineOptions;
import org.apache.beam.runners.dataflow.util.PackageUtil.StagedFile;
import org.apache.beam.runners.dataflow.util.Stager;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * A {@link Stager} for a dry run: uploads nothing, only names where each file would be staged
 * (under {@code --stagingLocation}), so the job lists the same packages a submission would.
 */
public final class DryRunStager implements Stager {
  private final String stagingLocation;

  private DryRunStager(String stagingLocation) {
    this.stagingLocation = stagingLocation.endsWith("/") ? stagingLocation : stagingLocation + "/";
  }

  /** Called by the DataflowRunner (it builds its stager from {@code --stagerClass} this way). */
  public static DryRunStager fromOptions(PipelineOptions options) {
    return new DryRunStager(options.as(DataflowPipelineOptions.class).getStagingLocation());
  }

  @Override
  public List<DataflowPackage> stageFiles(List<StagedFile> files) {
    List<DataflowPackage> packages = new ArrayList<>();
    for (StagedFile f : files) packages.add(named(f.getDestination()));
    return packages;
  }

  @Override
  public DataflowPackage stageToFile(byte[] bytes, String baseName) {
    return named(baseName);
  }

  private DataflowPackage named(String name) {
    return new DataflowPackage().setName(name).setLocation(stagingLocation + name);
  }
}
