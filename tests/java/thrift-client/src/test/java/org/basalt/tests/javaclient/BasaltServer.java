package org.basalt.tests.javaclient;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One {@code basalt serve} on a fresh store, on free loopback ports (HTTP, Thrift2; Thrift1 off),
 * for the whole JVM. It prints its Thrift2 port and then its HTTP port once it accepts
 * connections; at the JVM's exit it gets SIGTERM, and its exit status is written to {@code
 * basalt-serve.exit} in the work directory ({@code JAVA_SUITE_WORK_DIR}) beside its log, {@code
 * basalt-serve.log}: scripts/java-suite.sh fails the run unless it is 0. Without that variable the
 * work directory is a temporary one, removed at the exit with the store.
 *
 * <p>For the native client it also serves HBase's RPC ({@code --hbase-rpc-port}, every service on
 * one port, advertised as 127.0.0.1 and that port): basalt takes no 0 there, so the port is one
 * this JVM found free, and the server counts as started once that port accepts a connection.
 */
final class BasaltServer {
  private static final Pattern THRIFT2 = Pattern.compile("thrift2 on [0-9.]+:(\\d+)");
  private static final Pattern HTTP = Pattern.compile("listening on http://[0-9.]+:(\\d+)");

  private static final long RPC_READY_MILLIS = 30_000;

  final int thrift2Port;
  final int restPort;
  /** HBase's RPC port, or -1 when not asked for. */
  final int hbaseRpcPort;
  private final Process process;
  private final Path workDir;
  private final Path dataDir;
  private final boolean temporary;

  private BasaltServer(
      Process process,
      Path workDir,
      Path dataDir,
      boolean temporary,
      int thrift2Port,
      int restPort,
      int hbaseRpcPort) {
    this.process = process;
    this.workDir = workDir;
    this.dataDir = dataDir;
    this.temporary = temporary;
    this.thrift2Port = thrift2Port;
    this.restPort = restPort;
    this.hbaseRpcPort = hbaseRpcPort;
  }

  /** A loopback port free now (another process may take it before basalt does: rare). */
  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket()) {
      s.bind(new InetSocketAddress("127.0.0.1", 0));
      return s.getLocalPort();
    }
  }

  /** Whether something accepts TCP connections on the loopback port, polled until the deadline. */
  private static boolean accepts(int port, Process process, long deadline)
      throws InterruptedException {
    while (System.currentTimeMillis() < deadline && process.isAlive()) {
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
        return true;
      } catch (IOException notYet) {
        Thread.sleep(100);
      }
    }
    return false;
  }

  static BasaltServer start(String binary, boolean framed, boolean hbaseRpc) {
    try {
      String dir = System.getenv("JAVA_SUITE_WORK_DIR");
      boolean temporary = dir == null || dir.isEmpty();
      Path workDir =
          temporary
              ? Files.createTempDirectory("basalt-java-suite-")
              : Files.createDirectories(Path.of(dir));
      Path dataDir = Files.createTempDirectory(workDir, "data-");
      Path log = workDir.resolve("basalt-serve.log");
      List<String> args = new ArrayList<>();
      args.add(binary);
      args.add("serve");
      args.add("--data");
      args.add(dataDir.toString());
      args.add("--bind");
      args.add("127.0.0.1");
      args.add("--port");
      args.add("0");
      args.add("--thrift-port");
      args.add("0");
      args.add("--no-thrift1");
      if (framed) args.add("--thrift-framed");
      int rpcPort = -1;
      if (hbaseRpc) {
        rpcPort = freePort();
        args.add("--hbase-rpc-port");
        args.add(Integer.toString(rpcPort));
      } else {
        args.add("--no-hbase-rpc");
      }
      ProcessBuilder pb = new ProcessBuilder(args);
      pb.redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
      pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
      Process process = pb.start();
      BufferedReader out =
          new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      int thrift2 = -1;
      int http = -1;
      StringBuilder seen = new StringBuilder();
      String line;
      while (http < 0 && (line = out.readLine()) != null) {
        seen.append(line).append('\n');
        Matcher t = THRIFT2.matcher(line);
        if (t.find()) thrift2 = Integer.parseInt(t.group(1));
        Matcher h = HTTP.matcher(line);
        if (h.find()) http = Integer.parseInt(h.group(1));
      }
      if (thrift2 < 0 || http < 0) {
        process.destroyForcibly();
        throw new IllegalStateException(
            "basalt serve did not start; it printed:\n" + seen + "(its log: " + log + ")");
      }
      // Keep reading stdout so that the server never blocks on a full pipe.
      Thread drain =
          new Thread(
              () -> {
                try {
                  while (out.readLine() != null) {}
                } catch (IOException ignored) {
                  // the process ended
                }
              },
              "basalt-serve-stdout");
      drain.setDaemon(true);
      drain.start();
      if (hbaseRpc && !accepts(rpcPort, process, System.currentTimeMillis() + RPC_READY_MILLIS)) {
        process.destroyForcibly();
        throw new IllegalStateException(
            "basalt serve took no connection on --hbase-rpc-port "
                + rpcPort
                + " within "
                + RPC_READY_MILLIS / 1000
                + " s; it printed:\n"
                + seen
                + "(its log: "
                + log
                + ")");
      }
      BasaltServer server =
          new BasaltServer(process, workDir, dataDir, temporary, thrift2, http, rpcPort);
      Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "basalt-serve-stop"));
      return server;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while basalt serve started", e);
    }
  }

  private void stop() {
    String status;
    try {
      process.destroy(); // SIGTERM: the server drains and closes its store
      if (process.waitFor(30, TimeUnit.SECONDS)) {
        status = Integer.toString(process.exitValue());
      } else {
        process.destroyForcibly();
        status = "did not exit within 30 s of SIGTERM";
      }
    } catch (InterruptedException e) {
      status = "interrupted while waiting for it";
    }
    try {
      Files.writeString(workDir.resolve("basalt-serve.exit"), status + "\n");
      try (Stream<Path> walk = Files.walk(temporary ? workDir : dataDir)) {
        walk.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
      }
    } catch (IOException ignored) {
      // the JVM is exiting; the script reports a missing status file
    }
  }
}
