package org.basalt.tests.javaclient;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
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
 */
final class Target {
  enum Kind {
    BASALT,
    HBASE
  }

  private static Target instance;

  final Kind kind;
  final String host;
  final int thrift2Port;
  final int restPort;
  final boolean framed;
  private final AtomicInteger names = new AtomicInteger();

  private Target(Kind kind, String host, int thrift2Port, int restPort, boolean framed) {
    this.kind = kind;
    this.host = host;
    this.thrift2Port = thrift2Port;
    this.restPort = restPort;
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
    switch (kind) {
      case "basalt":
        {
          String binary = env("BASALT_BINARY", "");
          if (binary.isEmpty()) {
            throw new IllegalStateException("set BASALT_BINARY to the basalt binary");
          }
          BasaltServer server = BasaltServer.start(binary, framed);
          return new Target(Kind.BASALT, "127.0.0.1", server.thrift2Port, server.restPort, framed);
        }
      case "hbase":
        return new Target(
            Kind.HBASE,
            env("HBASE_HOST", "127.0.0.1"),
            Integer.parseInt(required("HBASE_THRIFT2_PORT")),
            Integer.parseInt(required("HBASE_REST_PORT")),
            framed);
      default:
        throw new IllegalStateException("JAVA_SUITE_TARGET must be basalt or hbase, not " + kind);
    }
  }

  boolean isBasalt() {
    return kind == Kind.BASALT;
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

  Connection connect() throws IOException {
    return ConnectionFactory.createConnection(thriftConfiguration());
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

  private static String required(String name) {
    String v = System.getenv(name);
    if (v == null || v.isEmpty()) throw new IllegalStateException("set " + name);
    return v;
  }
}
