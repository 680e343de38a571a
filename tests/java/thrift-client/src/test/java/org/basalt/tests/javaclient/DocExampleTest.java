package org.basalt.tests.javaclient;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.apache.hadoop.hbase.TableName;
import org.junit.jupiter.api.Test;

/**
 * docs/hbase.md's Java example (the block after {@code <!-- java-example -->}), compiled and run
 * as written, against the suite's server: only its host, port, transport and table name are
 * replaced, and the test fails if any of them is no longer where it expects it.
 */
class DocExampleTest extends ThriftClientTest {
  private static final Path DOC = Path.of(System.getProperty("basalt.docs"), "hbase.md");

  private static String replaceOnce(String text, String from, String to) {
    int at = text.indexOf(from);
    assertTrue(at >= 0 && text.indexOf(from, at + 1) < 0, "the example must hold " + from + " once");
    return text.substring(0, at) + to + text.substring(at + from.length());
  }

  @Test
  void theDocumentedExampleRunsAsWritten() throws Exception {
    String doc = Files.readString(DOC);
    int marker = doc.indexOf("<!-- java-example -->");
    assertTrue(marker >= 0, "docs/hbase.md has no java-example");
    int start = doc.indexOf("```java\n", marker) + "```java\n".length();
    String code = doc.substring(start, doc.indexOf("```\n", start));

    TableName table = TableName.valueOf(target.uniqueName("jdoc"));
    code = replaceOnce(code, "\"127.0.0.1\"", "\"" + target.host + "\"");
    code = replaceOnce(code, "9090", Integer.toString(target.thrift2Port));
    code = replaceOnce(code, "\"hbase.regionserver.thrift.framed\", false", "\"hbase.regionserver.thrift.framed\", " + target.framed);
    code = replaceOnce(code, "TableName.valueOf(\"users\")", "TableName.valueOf(\"" + table + "\")");
    dropLater(table);

    Path dir = Files.createTempDirectory("basalt-doc-example-");
    String source =
        "import org.apache.hadoop.conf.Configuration;\n"
            + "import org.apache.hadoop.hbase.*;\n"
            + "import org.apache.hadoop.hbase.client.*;\n"
            + "import org.apache.hadoop.hbase.filter.*;\n"
            + "import org.apache.hadoop.hbase.util.Bytes;\n"
            + "public class Example {\n"
            + "  public static void main(String[] args) throws Exception {\n"
            + code
            + "  }\n"
            + "}\n";
    Path file = dir.resolve("Example.java");
    Files.writeString(file, source);
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
    int status =
        javac.run(
            null,
            diagnostics,
            diagnostics,
            "-classpath",
            System.getProperty("java.class.path"),
            "-d",
            dir.toString(),
            file.toString());
    assertEquals(0, status, "the example does not compile:\n" + diagnostics);

    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    PrintStream saved = System.out;
    try (URLClassLoader loader =
        new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader())) {
      Method main = loader.loadClass("Example").getMethod("main", String[].class);
      System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
      main.invoke(null, (Object) new String[0]);
    } finally {
      System.setOut(saved);
    }
    assertEquals(List.of("Alice", "alice"), printed.toString(StandardCharsets.UTF_8).lines().toList());
  }
}
