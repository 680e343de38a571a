package org.basalt.tests.javaclient;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * What the Connection tests share: one {@code Connection} made by {@code ConnectionFactory} from
 * the target's configuration (a ThriftConnection, or in native mode HBase's own client, as any
 * Java HBase application gets either), and the tables a test class creates, dropped when the
 * class ends. ThriftConnection's Admin and Table are not thread-safe and each holds a socket of
 * its own, so each is opened and closed where it is used, as ThriftConnection's documentation
 * asks (the native client's are cheap to open too).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ThriftClientTest {
  final Target target = Target.get();
  Connection connection;
  private final List<TableName> created = new ArrayList<>();

  @BeforeAll
  void openConnection() throws IOException {
    connection = target.connect();
    // The client is the one the mode names, so that a native run never passes on Thrift. HBase
    // 2.6's own blocking Connection is ConnectionImplementation; HBase 3's is the asynchronous one
    // behind ConnectionOverAsyncConnection.
    String got = connection.getClass().getSimpleName();
    if (target.isNative()) {
      assertTrue(
          got.equals("ConnectionImplementation") || got.equals("ConnectionOverAsyncConnection"),
          got);
    } else {
      assertEquals("ThriftConnection", got);
    }
  }

  @AfterAll
  void dropTablesAndClose() throws IOException {
    try (Admin admin = connection.getAdmin()) {
      for (TableName name : created) {
        if (!admin.tableExists(name)) continue;
        if (admin.isTableEnabled(name)) admin.disableTable(name);
        admin.deleteTable(name);
      }
    } finally {
      connection.close();
    }
  }

  /** A new table of families with default settings; dropped when the class ends. */
  TableName createTable(String prefix, String... families) throws IOException {
    return createTable(prefix, 1, families);
  }

  /** The same, each family keeping `versions` versions. */
  TableName createTable(String prefix, int versions, String... families) throws IOException {
    TableName name = TableName.valueOf(target.uniqueName(prefix));
    TableDescriptorBuilder builder = TableDescriptorBuilder.newBuilder(name);
    for (String f : families) {
      builder.setColumnFamily(
          ColumnFamilyDescriptorBuilder.newBuilder(b(f)).setMaxVersions(versions).build());
    }
    try (Admin admin = connection.getAdmin()) {
      admin.createTable(builder.build());
    }
    created.add(name);
    return name;
  }

  /** Drops `name` at the end of the class (a test that created it through Admin itself). */
  void dropLater(TableName name) {
    created.add(name);
  }

  /**
   * HBase's Thrift2 gateway over framed transport reads some byte arguments wrong: it copies them
   * with ByteBuffer.array(), which there is the whole request frame (split keys, the family of
   * deleteColumnFamily, descriptor attributes). The tests that meet it expect its answer there.
   */
  boolean hbaseFramed() {
    return !target.isBasalt() && target.framed;
  }

  /** Whether the calls go through HBase's own Thrift2 gateway (whose bugs some tests expect). */
  boolean hbaseThriftGateway() {
    return !target.isBasalt() && !target.isNative();
  }

  static byte[] b(String s) {
    return Bytes.toBytes(s);
  }

  static String s(byte[] bytes) {
    return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
  }

  /** The row keys a scan returns, in order. */
  List<String> rows(TableName name, Scan scan) throws IOException {
    List<String> out = new ArrayList<>();
    try (Table table = connection.getTable(name);
        ResultScanner scanner = table.getScanner(scan)) {
      for (Result r : scanner) out.add(s(r.getRow()));
    }
    return out;
  }

  /** Every row of a scan as "row: family:qualifier=value ..." lines. */
  List<String> cells(TableName name, Scan scan) throws IOException {
    List<String> out = new ArrayList<>();
    try (Table table = connection.getTable(name);
        ResultScanner scanner = table.getScanner(scan)) {
      for (Result r : scanner) out.add(describe(r));
    }
    return out;
  }

  static String describe(Result r) {
    StringBuilder sb = new StringBuilder(s(r.getRow())).append(':');
    for (var cell : r.rawCells()) {
      sb.append(' ')
          .append(Bytes.toStringBinary(cell.getFamilyArray(), cell.getFamilyOffset(), cell.getFamilyLength()))
          .append(':')
          .append(
              Bytes.toStringBinary(
                  cell.getQualifierArray(), cell.getQualifierOffset(), cell.getQualifierLength()))
          .append('=')
          .append(
              Bytes.toStringBinary(cell.getValueArray(), cell.getValueOffset(), cell.getValueLength()));
    }
    return sb.toString();
  }

  static void assertRows(List<String> expected, List<String> actual) {
    assertEquals(expected, actual);
  }
}
