package io.streamlab.store.duckdb;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.ListVector;

/**
 * Sizes a batch's fresh vectors before they are filled: every vector for the batch's row count,
 * variable-width ones (strings, bytes; nested ones too) for the bytes per value the previous
 * batch had. Left to themselves the vectors start at a few thousand values of 8 bytes and double
 * as they fill, copying their buffers every time (for 50,000 rows of 40-byte strings: about
 * ten copies per column).
 */
final class VectorSizes {
  /** Bytes per value of each variable-width vector, in pre-order over the vector tree; empty until learnt. */
  private double[] bytesPerValue = new double[0];

  void presize(List<FieldVector> vectors, int rows) {
    int[] next = {0};
    for (FieldVector v : vectors) presize(v, Math.max(rows, 1), next);
  }

  private void presize(FieldVector v, int rows, int[] next) {
    if (v instanceof BaseVariableWidthVector var) {
      int k = next[0]++;
      if (k < bytesPerValue.length && bytesPerValue[k] > 0) var.setInitialCapacity(rows, bytesPerValue[k]);
      else var.setInitialCapacity(rows);
      return;
    }
    v.setInitialCapacity(rows);
    // a list's elements are not one per row: leave them to the list's own default
    if (v instanceof ListVector) return;
    for (FieldVector child : v.getChildrenFromFields()) presize(child, rows, next);
  }

  /** Remembers the bytes per value of a batch that has its row count set. */
  void learn(List<FieldVector> vectors) {
    List<Double> learnt = new ArrayList<>();
    for (FieldVector v : vectors) learn(v, learnt);
    bytesPerValue = learnt.stream().mapToDouble(Double::doubleValue).toArray();
  }

  private static void learn(FieldVector v, List<Double> learnt) {
    if (v instanceof BaseVariableWidthVector var) {
      int values = var.getValueCount();
      // a little headroom, so a batch slightly fatter than the last does not double the buffer
      learnt.add(values == 0 ? 0.0 : 1.1 * var.sizeOfValueBuffer() / values);
      return;
    }
    if (v instanceof ListVector) return;
    for (FieldVector child : v.getChildrenFromFields()) learn(child, learnt);
  }
}
