package io.streamlab.store;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * Finds and masks credentials in JDBC URLs, whatever form they take: user-info
 * ({@code //user:pass@host}, Oracle's {@code thin:user/pass@}), a password parameter after
 * {@code ?}, {@code &} or {@code ;} (SQL Server), properties-style ({@code password: x} or
 * {@code {password=x}}), and any of these URL-encoded ({@code pass%77ord=}). A URL that holds
 * credentials is refused where it enters streamlab, because it would travel into child command
 * lines, Flink's job graph and results.json; the text of an error that may hold a URL is masked
 * before it is printed.
 */
public final class JdbcUrls {
  /** Parameter names whose value is a secret (matched case-insensitively). */
  private static final String SECRET_KEYS =
      "password|passwd|pwd|pass|sslpassword|secret|token|access[_-]?token|api[_-]?key|access[_-]?key|secret[_-]?key";
  private static final Pattern SECRET_PARAM = Pattern.compile(
      "(?i)((?:^|[?&;{,\\s])\\s*(?:" + SECRET_KEYS + ")\\s*[=:]\\s*)([^&;,}\\s]*)");
  /** {@code scheme://userinfo@}: anything but a path/query start between // and @. */
  private static final Pattern USER_INFO = Pattern.compile("(//)([^/?#;\\s@]+)@");
  /** Oracle thin: {@code jdbc:oracle:thin:user/pass@host}. */
  private static final Pattern ORACLE_USER_INFO = Pattern.compile("(?i)(jdbc:oracle:[a-z]+:)([^@\\s/]+/[^@\\s]*)@");

  private JdbcUrls() {}

  /** True if the URL holds user-info or a password-like parameter, in any encoding. */
  public static boolean hasCredentials(String url) {
    if (url == null) return false;
    for (String form : new String[] {url, decoded(url)}) {
      if (SECRET_PARAM.matcher(form).find() || USER_INFO.matcher(form).find()
          || ORACLE_USER_INFO.matcher(form).find()) {
        return true;
      }
    }
    return false;
  }

  /**
   * The text with every credential replaced by {@code ***}. Works on any text that may hold a
   * URL (a driver's error message too). URL-encoded credentials are masked in the decoded form,
   * which is what is then shown.
   */
  public static String mask(String text) {
    if (text == null) return null;
    String masked = maskPlain(text);
    String decoded = decoded(text);
    return decoded.equals(text) || !hasCredentials(decoded) || maskPlain(decoded).equals(decoded)
        ? masked : maskPlain(decoded);
  }

  private static String maskPlain(String text) {
    String s = SECRET_PARAM.matcher(text).replaceAll("$1***");
    s = USER_INFO.matcher(s).replaceAll("$1***@");
    return ORACLE_USER_INFO.matcher(s).replaceAll("$1***@");
  }

  private static String decoded(String url) {
    try {
      return URLDecoder.decode(url.replace("+", "%2B"), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException malformed) {
      return url; // a stray % is not an encoding; the plain form is still checked
    }
  }
}
