package org.basalt.tests.javaclient;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * The server the suite runs against, chosen by the environment (scripts/java-suite.sh sets it):
 *
 * <ul>
 *   <li>{@code JAVA_SUITE_TARGET=basalt} (the default): a {@code basalt serve} of the suite's own,
 *       started once per JVM from {@code BASALT_BINARY} on free loopback ports;
 *   <li>{@code JAVA_SUITE_TARGET=hbase}: a real HBase's gateways at {@code HBASE_HOST} (default
 *       127.0.0.1), {@code HBASE_THRIFT2_PORT} and {@code HBASE_REST_PORT}.
 * </ul>
 *
 * {@code JAVA_SUITE_TRANSPORT=framed} makes the Thrift2 wire framed (basalt's server is started
 * with {@code --thrift-framed}; HBase's gateway must have been started with {@code -f}); the
 * default is buffered, the protocol always binary, as HBase's defaults.
 *
 * <p>{@code JAVA_SUITE_CLIENT} chooses what {@link #connect()} returns: {@code thrift} (the
 * default) a ThriftConnection to the Thrift2 server; {@code native} HBase's own client, which
 * speaks HBase's RPC to the master and region server. Native mode needs {@code HBASE_MASTER_PORT}
 * against HBase (the port its client bootstraps from); against basalt the server is started with
 * {@code --hbase-rpc-port} on a free port chosen here, one port for every HBase RPC service. The
 * transport is buffered then: it names only the Thrift wire.
 */
final class Target {
  enum Kind {
    BASALT,
    HBASE
  }

  enum Client {
    THRIFT,
    NATIVE
  }

  private static Target instance;

  final Kind kind;
  final Client client;
  final String host;
  final int thrift2Port;
  final int restPort;
  /** The port HBase's native client bootstraps from (native mode only, else -1). */
  final int rpcPort;
  final boolean framed;
  private final AtomicInteger names = new AtomicInteger();

  private Target(
      Kind kind,
      Client client,
      String host,
      int thrift2Port,
      int restPort,
      int rpcPort,
      boolean framed) {
    this.kind = kind;
    this.client = client;
    this.host = host;
    this.thrift2Port = thrift2Port;
    this.restPort = restPort;
    this.rpcPort = rpcPort;
    this.framed = framed;
  }

  static synchronized Target get() {
    if (instance == null) instance = create();
    return instance;
  }

  private static Target create() {
    String kind = env("JAVA_SUITE_TARGET", "basalt");
    String transport = env("JAVA_SUITE_TRANSPORT", "buffered");
    if (!transport.equals("buffered") && !transport.equals("framed")) {
      throw new IllegalStateException("JAVA_SUITE_TRANSPORT must be buffered or framed");
    }
    boolean framed = transport.equals("framed");
    Client client;
    switch (env("JAVA_SUITE_CLIENT", "thrift")) {
      case "thrift":
        client = Client.THRIFT;
        break;
      case "native":
        client = Client.NATIVE;
        if (framed) throw new IllegalStateException("the native client has no Thrift transport");
        break;
      default:
        throw new IllegalStateException("JAVA_SUITE_CLIENT must be thrift or native");
    }
    boolean nativeClient = client == Client.NATIVE;
    switch (kind) {
      case "basalt":
        {
          String binary = env("BASALT_BINARY", "");
          if (binary.isEmpty()) {
            throw new IllegalStateException("set BASALT_BINARY to the basalt binary");
          }
          BasaltServer server = BasaltServer.start(binary, framed, nativeClient);
          return new Target(
              Kind.BASALT,
              client,
              "127.0.0.1",
              server.thrift2Port,
              server.restPort,
              server.hbaseRpcPort,
              framed);
        }
      case "hbase":
        // Native mode needs neither gateway; thrift mode needs no RPC port.
        return new Target(
            Kind.HBASE,
            client,
            env("HBASE_HOST", "127.0.0.1"),
            nativeClient ? optionalPort("HBASE_THRIFT2_PORT") : requiredPort("HBASE_THRIFT2_PORT"),
            nativeClient ? optionalPort("HBASE_REST_PORT") : requiredPort("HBASE_REST_PORT"),
            nativeClient ? requiredPort("HBASE_MASTER_PORT") : -1,
            framed);
      default:
        throw new IllegalStateException("JAVA_SUITE_TARGET must be basalt or hbase, not " + kind);
    }
  }

  boolean isBasalt() {
    return kind == Kind.BASALT;
  }

  /** Whether {@link #connect()} is HBase's own client (HBase's RPC), not a ThriftConnection. */
  boolean isNative() {
    return client == Client.NATIVE;
  }

  /**
   * What a Java HBase application configures to make its {@code Connection} a Thrift2 client
   * (hbase-thrift's ThriftConnection): nothing else in it knows.
   */
  Configuration thriftConfiguration() {
    Configuration conf = HBaseConfiguration.create();
    conf.set(
        "hbase.client.connection.impl",
        "org.apache.hadoop.hbase.thrift2.client.ThriftConnection");
    conf.set("hbase.thrift.server.name", host);
    conf.setInt("hbase.thrift.server.port", thrift2Port);
    conf.setBoolean("hbase.regionserver.thrift.framed", framed);
    conf.setBoolean("hbase.regionserver.thrift.compact", false);
    conf.setInt("hbase.client.operation.timeout", 60_000);
    return conf;
  }

  /**
   * What a Java HBase application configures to reach a cluster through HBase's RPC with no
   * ZooKeeper: the RPC connection registry and the servers it bootstraps from. The rest bounds
   * how long a failure takes to show, in seconds instead of HBase's defaults (15 retries with
   * backoff, 20 minutes an operation): a server that does not answer fails the test that met it
   * rather than the whole run's time budget.
   */
  Configuration nativeConfiguration() {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.client.registry.impl", "org.apache.hadoop.hbase.client.RpcConnectionRegistry");
    conf.set("hbase.client.bootstrap.servers", host + ":" + rpcPort);
    // Three tries, 100 ms apart at first: enough to ride out a region that is still opening
    // after a schema change, and the retries a call that fails for good makes end in a second.
    conf.setInt("hbase.client.retries.number", 3);
    conf.setLong("hbase.client.pause", 100);
    // One RPC and one whole operation (its retries included): a server that accepts and never
    // answers costs a call 15 s, not minutes. A procedure-backed Admin call (create, disable,
    // truncate) waits on the master in polls of its own, each one short RPC, up to the sync wait:
    // those alone may take long on a loaded machine.
    conf.setInt("hbase.rpc.timeout", 5_000);
    conf.setInt("hbase.client.operation.timeout", 15_000);
    conf.setInt("hbase.client.meta.operation.timeout", 15_000);
    conf.setLong("hbase.client.sync.wait.timeout.msec", 60_000);
    // The wait for the answer to a connection's preamble call (the registry's, which 2.6's
    // client sends before the connection header), 20 s by default on every try: a server that
    // accepts and never answers would cost each test a minute.
    conf.setInt("hbase.ipc.client.socket.timeout.read", 5_000);
    return conf;
  }

  Connection connect() throws IOException {
    return ConnectionFactory.createConnection(
        isNative() ? nativeConfiguration() : thriftConfiguration());
  }

  /** HBase's asynchronous client on the native configuration (native mode only). */
  CompletableFuture<AsyncConnection> connectAsync() {
    if (!isNative()) throw new IllegalStateException("AsyncConnection needs the native client");
    return ConnectionFactory.createAsyncConnection(nativeConfiguration());
  }

  /**
   * A table or namespace name no other test (nor another run on a shared HBase) uses: the prefix,
   * this JVM's pid and a count.
   */
  String uniqueName(String prefix) {
    return prefix + "_" + ProcessHandle.current().pid() + "_" + names.incrementAndGet();
  }

  private static String env(String name, String fallback) {
    String v = System.getenv(name);
    return v == null || v.isEmpty() ? fallback : v;
  }

  private static int requiredPort(String name) {
    String v = System.getenv(name);
    if (v == null || v.isEmpty()) throw new IllegalStateException("set " + name);
    return Integer.parseInt(v);
  }

  private static int optionalPort(String name) {
    String v = System.getenv(name);
    return v == null || v.isEmpty() ? -1 : Integer.parseInt(v);
  }
}
