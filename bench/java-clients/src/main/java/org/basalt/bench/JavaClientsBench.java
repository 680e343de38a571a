package org.basalt.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.rest.client.Client;
import org.apache.hadoop.hbase.rest.client.Cluster;
import org.apache.hadoop.hbase.rest.client.RemoteHTable;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * HBase's stock Java clients timed against one or more servers on the same data: the native
 * {@code Connection} (HBase's RPC, bootstrapped with RpcConnectionRegistry), hbase-thrift's
 * {@code ThriftConnection} (Thrift2, binary protocol, buffered transport) and hbase-rest's {@code
 * RemoteHTable} (REST, protobuf representation).
 *
 * <p>Each target gets the same table (rows {@code row0000000...}, one family, {@code --columns}
 * qualifiers of {@code --value-bytes} bytes from a fixed seed), loaded once through the native
 * client. Then, round by round, every (client, operation) runs on each target in turn, the target
 * that goes first alternating, so that the machine's bursts land on both alike:
 *
 * <ul>
 *   <li>{@code get}: one thread, {@code --gets} point Gets of a random row (after {@code --warmup}
 *       untimed ones): latency p50 and p99;
 *   <li>{@code scan10}: one thread, {@code --scans} scans of 10 rows from a random start, caching
 *       10, limit 10: latency p50 and p99 of the whole scan (open, rows, close);
 *   <li>{@code get16}: {@code --threads} threads doing point Gets for {@code --seconds} after one
 *       untimed second: operations per second. The native threads share one Connection (HBase's
 *       recommended use: its client multiplexes calls over one socket per server), each with its
 *       own Table; the Thrift2 threads share one ThriftConnection, whose every Table is a socket of
 *       its own; each REST thread has a Client of its own (one HTTP connection each).
 * </ul>
 *
 * Every answer is checked (a Get returns all the row's cells, a scan 10 rows in order); a wrong
 * one fails the run. One line per (round, target, client, operation) on stdout:
 *
 * <pre>result round=R target=T client=C op=O n=N p50_us=X p99_us=Y ops_s=Z</pre>
 *
 * Targets: {@code --target NAME,HOST,RPC_PORT,THRIFT2_PORT,REST_PORT} (repeatable; a port of 0
 * skips that client on that target).
 */
public final class JavaClientsBench {
  private static final byte[] FAMILY = Bytes.toBytes("f");
  private static final long SEED = 20261202L;

  private static final class Options {
    final List<TargetSpec> targets = new ArrayList<>();
    List<String> clients = List.of("native", "thrift", "rest");
    List<String> ops = List.of("get", "scan10", "get16");
    int rows = 10_000;
    int columns = 10;
    int valueBytes = 100;
    int gets = 5_000;
    int scans = 2_000;
    int warmup = 1_000;
    int threads = 16;
    double seconds = 10;
    int rounds = 1;
    boolean keepTable = false;
  }

  private record TargetSpec(String name, String host, int rpcPort, int thrift2Port, int restPort) {}

  /** One client kind opened on one target: a way to get a Table for the calling thread. */
  private interface Opened extends AutoCloseable {
    Table table() throws IOException;

    @Override
    void close() throws IOException;
  }

  private final Options options;
  private final TableName tableName;

  private JavaClientsBench(Options options) {
    this.options = options;
    this.tableName = TableName.valueOf("javaclients_bench_" + ProcessHandle.current().pid());
  }

  public static void main(String[] args) throws Exception {
    Options options = parse(args);
    new JavaClientsBench(options).run();
    // ThriftConnection and the REST client leave non-daemon threads behind.
    System.exit(0);
  }

  private static Options parse(String[] args) {
    Options o = new Options();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--keep-table")) {
        o.keepTable = true;
        continue;
      }
      if (i + 1 >= args.length) usage("missing value after " + a);
      String v = args[++i];
      switch (a) {
        case "--target":
          {
            String[] p = v.split(",");
            if (p.length != 5) usage("--target NAME,HOST,RPC_PORT,THRIFT2_PORT,REST_PORT");
            o.targets.add(
                new TargetSpec(
                    p[0],
                    p[1],
                    Integer.parseInt(p[2]),
                    Integer.parseInt(p[3]),
                    Integer.parseInt(p[4])));
            break;
          }
        case "--clients":
          o.clients = Arrays.asList(v.split(","));
          break;
        case "--ops":
          o.ops = Arrays.asList(v.split(","));
          break;
        case "--rows":
          o.rows = Integer.parseInt(v);
          break;
        case "--columns":
          o.columns = Integer.parseInt(v);
          break;
        case "--value-bytes":
          o.valueBytes = Integer.parseInt(v);
          break;
        case "--gets":
          o.gets = Integer.parseInt(v);
          break;
        case "--scans":
          o.scans = Integer.parseInt(v);
          break;
        case "--warmup":
          o.warmup = Integer.parseInt(v);
          break;
        case "--threads":
          o.threads = Integer.parseInt(v);
          break;
        case "--seconds":
          o.seconds = Double.parseDouble(v);
          break;
        case "--rounds":
          o.rounds = Integer.parseInt(v);
          break;
        default:
          usage("unknown option " + a);
      }
    }
    if (o.targets.isEmpty()) usage("give at least one --target");
    if (o.rows < 11) usage("--rows must be at least 11");
    return o;
  }

  private static void usage(String why) {
    System.err.println("JavaClientsBench: " + why);
    System.err.println(
        "usage: JavaClientsBench --target NAME,HOST,RPC,THRIFT2,REST [--target ...]"
            + " [--clients native,thrift,rest] [--ops get,scan10,get16] [--rows N] [--columns N]"
            + " [--value-bytes N] [--gets N] [--scans N] [--warmup N] [--threads N]"
            + " [--seconds S] [--rounds N] [--keep-table]");
    System.exit(2);
  }

  private static byte[] rowKey(int i) {
    return Bytes.toBytes(String.format("row%07d", i));
  }

  private static byte[] qualifier(int c) {
    return Bytes.toBytes(String.format("q%02d", c));
  }

  private static void note(String s) {
    System.err.println("JavaClientsBench: " + s);
  }

  // ---- configuration of each client, as an application sets it ----

  private static Configuration nativeConfiguration(TargetSpec t) {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.client.registry.impl", "org.apache.hadoop.hbase.client.RpcConnectionRegistry");
    conf.set("hbase.client.bootstrap.servers", t.host() + ":" + t.rpcPort());
    conf.setInt("hbase.client.retries.number", 3);
    conf.setInt("hbase.rpc.timeout", 30_000);
    conf.setInt("hbase.client.operation.timeout", 60_000);
    conf.setInt("hbase.ipc.client.socket.timeout.read", 30_000);
    return conf;
  }

  private static Configuration thriftConfiguration(TargetSpec t) {
    Configuration conf = HBaseConfiguration.create();
    conf.set(
        "hbase.client.connection.impl", "org.apache.hadoop.hbase.thrift2.client.ThriftConnection");
    conf.set("hbase.thrift.server.name", t.host());
    conf.setInt("hbase.thrift.server.port", t.thrift2Port());
    conf.setBoolean("hbase.regionserver.thrift.framed", false);
    conf.setBoolean("hbase.regionserver.thrift.compact", false);
    conf.setInt("hbase.client.operation.timeout", 60_000);
    return conf;
  }

  private boolean serves(TargetSpec t, String client) {
    switch (client) {
      case "native":
        return t.rpcPort() > 0;
      case "thrift":
        return t.thrift2Port() > 0;
      case "rest":
        return t.restPort() > 0;
      default:
        throw new IllegalArgumentException("unknown client " + client);
    }
  }

  private Opened open(TargetSpec t, String client) throws IOException {
    switch (client) {
      case "native":
      case "thrift":
        {
          Connection connection =
              ConnectionFactory.createConnection(
                  client.equals("native") ? nativeConfiguration(t) : thriftConfiguration(t));
          return new Opened() {
            @Override
            public Table table() throws IOException {
              return connection.getTable(tableName);
            }

            @Override
            public void close() throws IOException {
              connection.close();
            }
          };
        }
      case "rest":
        {
          Configuration conf = HBaseConfiguration.create();
          List<Client> clients = new ArrayList<>();
          return new Opened() {
            @Override
            public synchronized Table table() {
              Client c = new Client(new Cluster().add(t.host(), t.restPort()));
              clients.add(c);
              return new RemoteHTable(c, conf, tableName.getNameAsString());
            }

            @Override
            public synchronized void close() {
              for (Client c : clients) c.shutdown();
            }
          };
        }
      default:
        throw new IllegalArgumentException("unknown client " + client);
    }
  }

  // ---- the data ----

  private void load(TargetSpec t) throws IOException {
    long start = System.nanoTime();
    try (Connection connection = ConnectionFactory.createConnection(nativeConfiguration(t));
        Admin admin = connection.getAdmin()) {
      admin.createTable(
          TableDescriptorBuilder.newBuilder(tableName)
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of(FAMILY))
              .build());
      Random random = new Random(SEED);
      try (Table table = connection.getTable(tableName)) {
        List<Put> batch = new ArrayList<>();
        for (int i = 0; i < options.rows; i++) {
          Put put = new Put(rowKey(i));
          for (int c = 0; c < options.columns; c++) {
            byte[] value = new byte[options.valueBytes];
            random.nextBytes(value);
            put.addColumn(FAMILY, qualifier(c), value);
          }
          batch.add(put);
          if (batch.size() == 200) {
            table.put(batch);
            batch.clear();
          }
        }
        if (!batch.isEmpty()) table.put(batch);
      }
      // The reads then come from files on both sides, where the server supports a flush.
      try {
        admin.flush(tableName);
        note(t.name() + ": flushed");
      } catch (IOException e) {
        note(t.name() + ": no flush (" + e.getClass().getSimpleName() + "): reads from memory");
      }
    }
    note(
        String.format(
            "%s: loaded %d rows in %.1f s", t.name(), options.rows, (System.nanoTime() - start) / 1e9));
  }

  private void drop(TargetSpec t) {
    try (Connection connection = ConnectionFactory.createConnection(nativeConfiguration(t));
        Admin admin = connection.getAdmin()) {
      admin.disableTable(tableName);
      admin.deleteTable(tableName);
    } catch (IOException e) {
      note(t.name() + ": could not drop " + tableName + ": " + e);
    }
  }

  // ---- the operations, each answer checked ----

  private void checkRow(Result r, int i) {
    if (r.isEmpty() || !Arrays.equals(r.getRow(), rowKey(i)) || r.size() != options.columns) {
      throw new IllegalStateException(
          "row " + i + " came back as " + r.size() + " cells: " + Bytes.toStringBinary(r.getRow()));
    }
  }

  private void get(Table table, int i) throws IOException {
    checkRow(table.get(new Get(rowKey(i))), i);
  }

  private void scan10(Table table, int start) throws IOException {
    Scan scan = new Scan().withStartRow(rowKey(start)).setCaching(10).setLimit(10);
    try (ResultScanner scanner = table.getScanner(scan)) {
      Result[] rows = scanner.next(10);
      if (rows.length != 10) {
        throw new IllegalStateException("a scan from row " + start + " gave " + rows.length + " rows");
      }
      for (int k = 0; k < 10; k++) checkRow(rows[k], start + k);
    }
  }

  private interface Op {
    void run(Table table, Random random) throws IOException;
  }

  private Op op(String name) {
    switch (name) {
      case "get":
      case "get16":
        return (table, random) -> get(table, random.nextInt(options.rows));
      case "scan10":
        return (table, random) -> scan10(table, random.nextInt(options.rows - 10));
      default:
        throw new IllegalArgumentException("unknown operation " + name);
    }
  }

  private static double percentileMicros(long[] sortedNanos, double p) {
    int index = (int) Math.ceil(p * sortedNanos.length) - 1;
    return sortedNanos[Math.max(0, Math.min(sortedNanos.length - 1, index))] / 1e3;
  }

  private String latency(Opened opened, String opName, int count) throws IOException {
    Op op = op(opName);
    try (Table table = opened.table()) {
      Random warm = new Random(SEED + 1);
      for (int i = 0; i < options.warmup; i++) op.run(table, warm);
      Random random = new Random(SEED + 2);
      long[] nanos = new long[count];
      long begin = System.nanoTime();
      for (int i = 0; i < count; i++) {
        long t0 = System.nanoTime();
        op.run(table, random);
        nanos[i] = System.nanoTime() - t0;
      }
      double elapsed = (System.nanoTime() - begin) / 1e9;
      Arrays.sort(nanos);
      return String.format(
          "n=%d p50_us=%.1f p99_us=%.1f ops_s=%.0f",
          count, percentileMicros(nanos, 0.50), percentileMicros(nanos, 0.99), count / elapsed);
    }
  }

  private String throughput(Opened opened, String opName) throws Exception {
    Op op = op(opName);
    int threads = options.threads;
    // 0: warming up, 1: counted, 2: stop.
    AtomicInteger phase = new AtomicInteger();
    long[] counts = new long[threads];
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Table> tables = new ArrayList<>();
    for (int t = 0; t < threads; t++) tables.add(opened.table());
    Thread[] workers = new Thread[threads];
    for (int t = 0; t < threads; t++) {
      final int index = t;
      workers[t] =
          new Thread(
              () -> {
                Random random = new Random(SEED + 100 + index);
                Table table = tables.get(index);
                long n = 0;
                try {
                  while (true) {
                    int p = phase.get();
                    if (p == 2) break;
                    op.run(table, random);
                    if (p == 1) n++;
                  }
                } catch (Throwable e) {
                  failure.compareAndSet(null, e);
                }
                counts[index] = n;
              },
              "bench-" + t);
      workers[t].start();
    }
    Thread.sleep(1000);
    phase.set(1);
    long begin = System.nanoTime();
    Thread.sleep((long) (options.seconds * 1000));
    phase.set(2);
    double elapsed = (System.nanoTime() - begin) / 1e9;
    for (Thread w : workers) w.join();
    for (Table t : tables) t.close();
    if (failure.get() != null) throw new IllegalStateException("a worker failed", failure.get());
    long total = Arrays.stream(counts).sum();
    return String.format("n=%d threads=%d ops_s=%.0f", total, threads, total / elapsed);
  }

  private void run() throws Exception {
    for (TargetSpec t : options.targets) load(t);
    try {
      for (int round = 1; round <= options.rounds; round++) {
        for (String client : options.clients) {
          for (String opName : options.ops) {
            for (int k = 0; k < options.targets.size(); k++) {
              // The target that goes first alternates from one measurement to the next.
              int shift = (round + options.clients.indexOf(client) + options.ops.indexOf(opName));
              TargetSpec t = options.targets.get((k + shift) % options.targets.size());
              if (!serves(t, client)) continue;
              String figures;
              try (Opened opened = open(t, client)) {
                switch (opName) {
                  case "get":
                    figures = latency(opened, opName, options.gets);
                    break;
                  case "scan10":
                    figures = latency(opened, opName, options.scans);
                    break;
                  case "get16":
                    figures = throughput(opened, opName);
                    break;
                  default:
                    throw new IllegalArgumentException("unknown operation " + opName);
                }
              }
              System.out.printf(
                  "result round=%d target=%s client=%s op=%s %s%n",
                  round, t.name(), client, opName, figures);
              System.out.flush();
            }
          }
        }
      }
    } finally {
      if (!options.keepTable) for (TargetSpec t : options.targets) drop(t);
    }
  }
}
