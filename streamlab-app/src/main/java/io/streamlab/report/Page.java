package io.streamlab.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Map;

/** The frame shared by streamlab's HTML pages (run, study, loadtest): head and style, tables of figures and of settings. */
public final class Page {
  private Page() {}

  public static void open(StringBuilder h, String title) {
    h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>").append(Svg.esc(title))
        .append("</title>\n<style>body{font-family:sans-serif;max-width:1000px;margin:24px auto;color:#222}"
            + "table{border-collapse:collapse;margin:8px 0 18px}td,th{border:1px solid #ccc;padding:4px 10px;"
            + "text-align:right}th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}"
            + ".sub{color:#555}.ok{color:#176117;font-weight:bold}.bad{color:#b00;font-weight:bold}"
            + "svg{display:block;margin:10px 0}</style></head><body>\n");
  }

  public static void close(StringBuilder h) {
    h.append("<p class=\"sub\">Written by streamlab. Charts are inline SVG; the page needs no network.</p>\n</body></html>\n");
  }

  static void row(StringBuilder h, String name, String ours, String study) {
    h.append("<tr><td>").append(name).append("</td><td>").append(ours).append("</td><td>").append(study).append("</td></tr>\n");
  }

  static void keyValues(StringBuilder h, JsonNode object) {
    h.append("<table>\n");
    for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      h.append("<tr><td>").append(Svg.esc(e.getKey())).append("</td><td>")
          .append(Svg.esc(e.getValue().isValueNode() ? e.getValue().asText() : e.getValue().toString()))
          .append("</td></tr>\n");
    }
    h.append("</table>\n");
  }
}
