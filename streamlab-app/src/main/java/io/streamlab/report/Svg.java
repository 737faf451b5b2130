package io.streamlab.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Small self-contained SVG charts (line and bar), so a report opens anywhere with no network and
 * no script. Axes get "nice" ticks (1, 2, 5 x 10^n). The one chart style of every streamlab page
 * (run, study, loadtest).
 */
public final class Svg {
  static final String[] PALETTE = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"};
  private static final int W = 760, H = 280, LEFT = 70, RIGHT = 150, TOP = 34, BOTTOM = 42;

  private Svg() {}

  /** One line of a line chart; a null y leaves a gap. */
  public record Line(String name, double[] xs, Double[] ys) {
    /** A line without gaps. */
    public static Line of(String name, double[] xs, double[] ys) {
      Double[] boxed = new Double[ys.length];
      for (int i = 0; i < ys.length; i++) boxed[i] = ys[i];
      return new Line(name, xs, boxed);
    }
  }

  /** One bar of a bar chart. */
  public record Bar(String label, double value) {}

  public static String lineChart(String title, String xLabel, String yLabel, List<Line> lines) {
    return lineChart(title, xLabel, yLabel, lines, null);
  }

  /**
   * @param categories null for a numeric x axis; else x is the index of a category (a sweep's
   *     points), each labelled with its name
   */
  public static String lineChart(String title, String xLabel, String yLabel, List<Line> lines, List<String> categories) {
    double maxX = 0, maxY = 0;
    for (Line l : lines) {
      for (double x : l.xs()) maxX = Math.max(maxX, x);
      for (Double y : l.ys()) if (y != null) maxY = Math.max(maxY, y);
    }
    double[] yTicks = ticks(maxY), xTicks = categories == null ? ticks(maxX) : null;
    double yTop = yTicks[yTicks.length - 1];
    double xRight = categories == null ? xTicks[xTicks.length - 1] : Math.max(1, categories.size() - 1);
    StringBuilder sb = open(title);
    axes(sb, xTicks, yTicks, xRight, yTop, xLabel, yLabel);
    if (categories != null) {
      for (int i = 0; i < categories.size(); i++) {
        sb.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"11\">%s</text>%n",
            x(i, xRight), H - BOTTOM + 16, esc(categories.get(i))));
      }
    }
    for (int k = 0; k < lines.size(); k++) {
      Line l = lines.get(k);
      String color = PALETTE[k % PALETTE.length];
      List<String> segment = new ArrayList<>();
      for (int i = 0; i <= l.xs().length; i++) {
        Double y = i < l.xs().length ? l.ys()[i] : null;
        if (y == null) {
          if (segment.size() > 1) {
            sb.append("<polyline fill=\"none\" stroke=\"").append(color).append("\" stroke-width=\"1.6\" points=\"")
                .append(String.join(" ", segment)).append("\"/>\n");
          } else if (segment.size() == 1) {
            String[] p = segment.get(0).split(",");
            sb.append(String.format(Locale.ROOT, "<circle cx=\"%s\" cy=\"%s\" r=\"2\" fill=\"%s\"/>%n", p[0], p[1], color));
          }
          segment.clear();
          continue;
        }
        segment.add(String.format(Locale.ROOT, "%.1f,%.1f", x(l.xs()[i], xRight), y(y, yTop)));
      }
      legend(sb, k, l.name(), color);
    }
    return sb.append("</svg>\n").toString();
  }

  /** Bars with an optional dashed reference line (e.g. the study's figure). */
  public static String barChart(String title, String yLabel, List<Bar> bars, Double reference, String referenceLabel) {
    double maxY = reference == null ? 0 : reference;
    for (Bar b : bars) maxY = Math.max(maxY, b.value());
    double[] yTicks = ticks(maxY);
    double yTop = yTicks[yTicks.length - 1];
    StringBuilder sb = open(title);
    axes(sb, null, yTicks, 1, yTop, null, yLabel);
    int n = Math.max(1, bars.size());
    double slot = (W - LEFT - RIGHT) / (double) n, bw = Math.min(70, slot * 0.6);
    for (int i = 0; i < bars.size(); i++) {
      Bar b = bars.get(i);
      double cx = LEFT + slot * (i + 0.5), top = y(b.value(), yTop);
      sb.append(String.format(Locale.ROOT,
          "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>%s: %s</title></rect>%n",
          cx - bw / 2, top, bw, H - BOTTOM - top, PALETTE[i % PALETTE.length], esc(b.label()), number(b.value())));
      sb.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"11\">%s</text>%n",
          cx, top - 4, number(b.value())));
      sb.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"11\">%s</text>%n",
          cx, H - BOTTOM + 16, esc(shorten(b.label(), (int) (slot / 6.5)))));
    }
    if (reference != null) {
      double ry = y(reference, yTop);
      sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#444\" "
          + "stroke-dasharray=\"6,4\"/>%n", LEFT, W - RIGHT, ry, ry));
      sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" font-size=\"11\">%s</text>%n",
          W - RIGHT + 6, ry + 4, esc(referenceLabel)));
    }
    return sb.append("</svg>\n").toString();
  }

  private static StringBuilder open(String title) {
    StringBuilder sb = new StringBuilder();
    sb.append(String.format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
        + "font-family=\"sans-serif\" role=\"img\">%n", W, H, W, H));
    sb.append("<text x=\"").append(LEFT).append("\" y=\"20\" font-size=\"14\" font-weight=\"bold\">")
        .append(esc(title)).append("</text>\n");
    return sb;
  }

  private static void axes(StringBuilder sb, double[] xTicks, double[] yTicks, double xRight, double yTop,
      String xLabel, String yLabel) {
    for (double t : yTicks) {
      double yy = y(t, yTop);
      sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>%n",
          LEFT, W - RIGHT, yy, yy));
      sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" font-size=\"11\">%s</text>%n",
          LEFT - 6, yy + 4, number(t)));
    }
    if (xTicks != null) {
      for (double t : xTicks) {
        double xx = x(t, xRight);
        sb.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"11\">%s</text>%n",
            xx, H - BOTTOM + 16, number(t)));
      }
    }
    sb.append(String.format("<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"#333\"/>%n",
        LEFT, W - RIGHT, H - BOTTOM, H - BOTTOM));
    sb.append(String.format("<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"#333\"/>%n", LEFT, LEFT, TOP, H - BOTTOM));
    if (xLabel != null) {
      sb.append(String.format("<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"12\">%s</text>%n",
          (LEFT + W - RIGHT) / 2, H - 8, esc(xLabel)));
    }
    if (yLabel != null) {
      sb.append(String.format("<text x=\"14\" y=\"%d\" font-size=\"12\" transform=\"rotate(-90 14 %d)\" "
          + "text-anchor=\"middle\">%s</text>%n", (TOP + H - BOTTOM) / 2, (TOP + H - BOTTOM) / 2, esc(yLabel)));
    }
  }

  private static void legend(StringBuilder sb, int k, String name, String color) {
    int ly = TOP + 6 + 18 * k;
    sb.append(String.format("<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"3\" fill=\"%s\"/>%n", W - RIGHT + 10, ly, color));
    sb.append(String.format("<text x=\"%d\" y=\"%d\" font-size=\"11\">%s</text>%n", W - RIGHT + 28, ly + 5, esc(name)));
  }

  private static double x(double v, double xRight) {
    return LEFT + (W - LEFT - RIGHT) * (xRight <= 0 ? 0 : v / xRight);
  }

  private static double y(double v, double yTop) {
    return H - BOTTOM - (H - TOP - BOTTOM) * (yTop <= 0 ? 0 : v / yTop);
  }

  /** 0 and "nice" steps up to at least {@code max}: 4 to 6 ticks. */
  static double[] ticks(double max) {
    if (!(max > 0)) return new double[] {0, 1};
    double raw = max / 5, mag = Math.pow(10, Math.floor(Math.log10(raw))), step;
    double f = raw / mag;
    step = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
    int n = (int) Math.ceil(max / step - 1e-9);
    double[] t = new double[n + 1];
    for (int i = 0; i <= n; i++) t[i] = i * step;
    return t;
  }

  public static String number(double v) {
    double a = Math.abs(v);
    if (a >= 1e6) return trim(String.format(Locale.ROOT, "%.2fM", v / 1e6));
    if (a >= 1e4) return trim(String.format(Locale.ROOT, "%.1fk", v / 1e3));
    if (a >= 100 || v == Math.rint(v)) return String.format(Locale.ROOT, "%,.0f", v);
    return trim(String.format(Locale.ROOT, "%.2f", v));
  }

  private static String trim(String s) {
    return s.replaceAll("\\.0+([kM]?)$", "$1").replaceAll("(\\.\\d*?)0+([kM]?)$", "$1$2");
  }

  private static String shorten(String s, int max) {
    return s.length() <= Math.max(4, max) ? s : s.substring(0, Math.max(3, max - 1)) + "…";
  }

  public static String esc(String s) {
    return s == null ? "" : s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
