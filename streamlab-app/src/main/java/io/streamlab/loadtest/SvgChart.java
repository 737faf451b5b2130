package io.streamlab.loadtest;

import java.util.List;
import java.util.Locale;

/**
 * A self-contained SVG line chart (no script, no network), for the HTML report. X values are
 * numbers; with tick labels given, x is the index of a category (a sweep's points).
 */
final class SvgChart {
  /** One line. */
  record Series(String name, double[] x, double[] y) {}

  private static final String[] COLORS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"};
  private static final int W = 640, H = 300, LEFT = 64, RIGHT = 16, TOP = 28, BOTTOM = 44;

  private SvgChart() {}

  static String lines(String title, String xLabel, String yLabel, List<Series> series, List<String> xTickLabels) {
    double minX = Double.MAX_VALUE, maxX = -Double.MAX_VALUE, maxY = 0;
    for (Series s : series) {
      for (double x : s.x()) {
        minX = Math.min(minX, x);
        maxX = Math.max(maxX, x);
      }
      for (double y : s.y()) maxY = Math.max(maxY, y);
    }
    if (minX == Double.MAX_VALUE) {
      minX = 0;
      maxX = 1;
    }
    if (maxX == minX) maxX = minX + 1;
    if (maxY == 0) maxY = 1;
    maxY = niceCeiling(maxY);
    StringBuilder svg = new StringBuilder();
    svg.append(String.format(Locale.ROOT,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">%n",
        W, H));
    svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"16\" font-size=\"13\" font-weight=\"bold\">%s</text>%n",
        LEFT, escape(title)));
    int plotW = W - LEFT - RIGHT, plotH = H - TOP - BOTTOM;
    svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#999\"/>%n",
        LEFT, TOP, plotW, plotH));
    for (int i = 0; i <= 4; i++) {
      double v = maxY * i / 4;
      double y = TOP + plotH - plotH * i / 4.0;
      svg.append(String.format(Locale.ROOT,
          "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/><text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n",
          LEFT, LEFT + plotW, y, y, LEFT - 4, y + 4, number(v)));
    }
    if (xTickLabels != null) {
      for (int i = 0; i < xTickLabels.size(); i++) {
        double x = LEFT + plotW * (i - minX) / (maxX - minX);
        svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
            x, TOP + plotH + 14, escape(xTickLabels.get(i))));
      }
    } else {
      for (int i = 0; i <= 4; i++) {
        double v = minX + (maxX - minX) * i / 4;
        svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
            LEFT + plotW * i / 4.0, TOP + plotH + 14, number(v)));
      }
    }
    svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
        LEFT + plotW / 2, H - 6, escape(xLabel)));
    svg.append(String.format(Locale.ROOT,
        "<text x=\"12\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 12 %d)\">%s</text>%n",
        TOP + plotH / 2, TOP + plotH / 2, escape(yLabel)));
    for (int s = 0; s < series.size(); s++) {
      Series line = series.get(s);
      String color = COLORS[s % COLORS.length];
      StringBuilder points = new StringBuilder();
      for (int i = 0; i < line.x().length; i++) {
        double x = LEFT + plotW * (line.x()[i] - minX) / (maxX - minX);
        double y = TOP + plotH - plotH * line.y()[i] / maxY;
        points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
        svg.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2\" fill=\"%s\"/>", x, y, color));
      }
      svg.append(String.format(Locale.ROOT, "%n<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"%s\"/>%n",
          color, points.toString().trim()));
      svg.append(String.format(Locale.ROOT,
          "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"3\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">%s</text>%n",
          LEFT + 8 + 150 * s, TOP + 8, color, LEFT + 22 + 150 * s, TOP + 12, escape(line.name())));
    }
    return svg.append("</svg>\n").toString();
  }

  /** 1, 2 or 5 times a power of ten, at least {@code v}: readable axis ends. */
  static double niceCeiling(double v) {
    double p = Math.pow(10, Math.floor(Math.log10(v)));
    for (double m : new double[] {1, 2, 5, 10}) {
      if (m * p >= v) return m * p;
    }
    return 10 * p;
  }

  private static String number(double v) {
    if (v >= 1e6) return String.format(Locale.ROOT, "%.1fM", v / 1e6);
    if (v >= 1e4) return String.format(Locale.ROOT, "%.0fk", v / 1e3);
    if (v >= 10 || v == 0) return String.format(Locale.ROOT, "%.0f", v);
    return String.format(Locale.ROOT, "%.2g", v);
  }

  static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
