package io.streamlab.loadtest;

import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The payload sizes a publisher sends: one fixed size ({@code 1KB}), a uniform range
 * ({@code 512B-64KB}) or a weighted mix ({@code 1KB:80,64KB:15,1MB:5}). Units B, KB, MB are
 * powers of 1000 as in the original framework's presets (1 KB = 1000 bytes).
 */
@JsonSerialize(using = ToStringSerializer.class) // in loadtest.json as its spec: "1KB"
public final class MessageSizes {
  private final String spec;
  private final int[] sizes;
  private final double[] cumulativeWeights;
  private final boolean uniformRange;

  private MessageSizes(String spec, int[] sizes, double[] cumulativeWeights, boolean uniformRange) {
    this.spec = spec;
    this.sizes = sizes;
    this.cumulativeWeights = cumulativeWeights;
    this.uniformRange = uniformRange;
  }

  public static MessageSizes fixed(int bytes) {
    return parse(bytes + "B");
  }

  /** @throws IllegalArgumentException naming the part of {@code spec} that is not a size */
  public static MessageSizes parse(String spec) {
    String s = spec.trim();
    if (s.contains(",") || s.contains(":")) {
      List<int[]> parts = new ArrayList<>();
      double total = 0;
      List<Double> weights = new ArrayList<>();
      for (String part : s.split(",")) {
        String[] sw = part.split(":");
        if (sw.length != 2) throw new IllegalArgumentException("--messageSize: '" + part + "' is not SIZE:WEIGHT");
        double w = parseWeight(sw[1], part);
        parts.add(new int[] {bytes(sw[0])});
        weights.add(w);
        total += w;
      }
      int[] sizes = new int[parts.size()];
      double[] cumulative = new double[parts.size()];
      double sum = 0;
      for (int i = 0; i < sizes.length; i++) {
        sizes[i] = parts.get(i)[0];
        sum += weights.get(i) / total;
        cumulative[i] = sum;
      }
      return new MessageSizes(s, sizes, cumulative, false);
    }
    int dash = s.indexOf('-', 1);
    if (dash > 0) {
      int min = bytes(s.substring(0, dash));
      int max = bytes(s.substring(dash + 1));
      if (max < min) throw new IllegalArgumentException("--messageSize: range '" + s + "' has max < min");
      return new MessageSizes(s, new int[] {min, max}, null, true);
    }
    return new MessageSizes(s, new int[] {bytes(s)}, new double[] {1}, false);
  }

  private static double parseWeight(String w, String part) {
    try {
      double v = Double.parseDouble(w.trim());
      if (v <= 0) throw new NumberFormatException();
      return v;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--messageSize: weight in '" + part + "' must be a positive number");
    }
  }

  /** "1KB" -> 1000, "9MB" -> 9000000, "100" or "100B" -> 100. */
  static int bytes(String size) {
    String v = size.trim().toUpperCase(Locale.ROOT);
    long unit = 1;
    if (v.endsWith("KB")) {
      unit = 1_000;
      v = v.substring(0, v.length() - 2);
    } else if (v.endsWith("MB")) {
      unit = 1_000_000;
      v = v.substring(0, v.length() - 2);
    } else if (v.endsWith("B")) {
      v = v.substring(0, v.length() - 1);
    }
    try {
      double n = Double.parseDouble(v.trim()) * unit;
      if (n < 1 || n > 100_000_000) throw new NumberFormatException();
      return (int) n;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--messageSize: '" + size + "' is not a size between 1B and 100MB "
          + "(examples: 1000, 1KB, 9MB)");
    }
  }

  public int next(SplittableRandom random) {
    if (uniformRange) return random.nextInt(sizes[0], sizes[1] + 1);
    if (sizes.length == 1) return sizes[0];
    double u = random.nextDouble();
    for (int i = 0; i < sizes.length; i++) {
      if (u < cumulativeWeights[i]) return sizes[i];
    }
    return sizes[sizes.length - 1];
  }

  public int largest() {
    int max = 0;
    for (int s : sizes) max = Math.max(max, s);
    return max;
  }

  /** Mean payload size, for reports of a mix. */
  public double mean() {
    if (uniformRange) return (sizes[0] + sizes[1]) / 2.0;
    double mean = 0, previous = 0;
    for (int i = 0; i < sizes.length; i++) {
      mean += sizes[i] * (cumulativeWeights[i] - previous);
      previous = cumulativeWeights[i];
    }
    return mean;
  }

  @Override
  public String toString() {
    return spec;
  }
}
