package io.streamlab.pipeline.source;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.streamlab.cli.RunnerOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.Test;

/** --kafkaReader: AUTO by default, streamlab's reader on Flink and the direct runner, KafkaIO on Dataflow. */
class KafkaReaderTest {
  @Test
  void autoIsTheDefaultAndMeansThePolledReaderExceptOnDataflow() {
    KafkaReader byDefault = PipelineOptionsFactory.fromArgs().as(RunnerOptions.class).getKafkaReader();
    assertEquals(KafkaReader.AUTO, byDefault);
    assertEquals(KafkaReader.POLLED, byDefault.on(false));
    assertEquals(KafkaReader.KAFKAIO, byDefault.on(true));
  }

  @Test
  void aChosenReaderStaysChosen() {
    for (boolean dataflow : new boolean[] {false, true}) {
      assertEquals(KafkaReader.KAFKAIO, KafkaReader.KAFKAIO.on(dataflow));
      assertEquals(KafkaReader.POLLED, KafkaReader.POLLED.on(dataflow)); // refused on Dataflow before this (IngestCommand)
    }
  }
}
