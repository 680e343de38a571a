package org.basalt.tests.javaclient;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HColumnDescriptor;
import org.apache.hadoop.hbase.HTableDescriptor;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.PrefixFilter;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.rest.Constants;
import org.apache.hadoop.hbase.rest.client.Client;
import org.apache.hadoop.hbase.rest.client.Cluster;
import org.apache.hadoop.hbase.rest.client.RemoteAdmin;
import org.apache.hadoop.hbase.rest.client.RemoteHTable;
import org.apache.hadoop.hbase.rest.client.Response;
import org.apache.hadoop.hbase.rest.model.CellSetModel;
import org.apache.hadoop.hbase.rest.model.StorageClusterStatusModel;
import org.apache.hadoop.hbase.rest.model.TableListModel;
import org.apache.hadoop.hbase.rest.model.TableModel;
import org.apache.hadoop.hbase.rest.model.TableSchemaModel;
import org.apache.hadoop.hbase.rest.model.VersionModel;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * HBase's REST Java client: {@code Client} on a {@code Cluster}, and {@code RemoteAdmin} and
 * {@code RemoteHTable} (HBase's test-jar), which speak the protobuf representation ({@code
 * application/x-protobuf}) for every call but RemoteAdmin's cluster version (XML).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RestClientTest {
  private final Target target = Target.get();
  private Client client;
  private Configuration conf;
  private RemoteAdmin admin;
  private String table;
  private RemoteHTable remote;

  private static byte[] b(String s) {
    return Bytes.toBytes(s);
  }

  private static String s(byte[] bytes) {
    return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
  }

  @BeforeAll
  void createTable() throws IOException {
    client = new Client(new Cluster().add(target.host, target.restPort));
    conf = HBaseConfiguration.create();
    // A failure is a failure at once: the client retries only HBase's 509 (busy).
    conf.setInt("hbase.rest.client.max.retries", 2);
    conf.setLong("hbase.rest.client.sleep", 100);
    admin = new RemoteAdmin(client, conf);
    table = target.uniqueName("jrest");
    HTableDescriptor desc = new HTableDescriptor(TableName.valueOf(table));
    HColumnDescriptor f = new HColumnDescriptor("f");
    f.setMaxVersions(3);
    desc.addFamily(f);
    desc.addFamily(new HColumnDescriptor("g"));
    admin.createTable(desc);
    remote = new RemoteHTable(client, conf, table);
  }

  @AfterAll
  void dropTable() throws IOException {
    try {
      admin.deleteTable(table);
      assertFalse(admin.isTableAvailable(table));
    } finally {
      client.shutdown();
    }
  }

  private static String describe(Result r) {
    StringBuilder sb = new StringBuilder(s(r.getRow())).append(':');
    for (Cell c : r.rawCells()) {
      sb.append(' ')
          .append(s(CellUtil.cloneFamily(c)))
          .append(':')
          .append(s(CellUtil.cloneQualifier(c)))
          .append('=')
          .append(s(CellUtil.cloneValue(c)));
    }
    return sb.toString();
  }

  private static List<Long> timestamps(Result r, String family, String qualifier) {
    return r.getColumnCells(b(family), b(qualifier)).stream()
        .map(Cell::getTimestamp)
        .collect(Collectors.toList());
  }

  @Test
  void versionStatusAndTableList() throws IOException {
    VersionModel version = admin.getRestVersion();
    assertNotNull(version.getRESTVersion());
    assertFalse(version.getRESTVersion().isEmpty());
    StorageClusterStatusModel status = admin.getClusterStatus();
    assertFalse(status.getLiveNodes().isEmpty(), "at least one live server");
    assertFalse(admin.getClusterVersion().getVersion().isEmpty(), "the XML version call");
    TableListModel list = admin.getTableList();
    List<String> names =
        list.getTables().stream().map(TableModel::getName).collect(Collectors.toList());
    assertTrue(names.contains(table), names.toString());
    assertTrue(admin.isTableAvailable(table));
    assertFalse(admin.isTableAvailable(target.uniqueName("jrestmissing")));
  }

  @Test
  void schemaOfTheTable() throws IOException {
    TableDescriptor d = remote.getDescriptor();
    assertEquals(TableName.valueOf(table), d.getTableName());
    ColumnFamilyDescriptor f = d.getColumnFamily(b("f"));
    assertNotNull(f);
    assertEquals(3, f.getMaxVersions());
    assertNotNull(d.getColumnFamily(b("g")));

    // The same through the raw client, in the protobuf representation.
    Response response = client.get("/" + table + "/schema", Constants.MIMETYPE_PROTOBUF);
    assertEquals(200, response.getCode());
    TableSchemaModel model = new TableSchemaModel();
    model.getObjectFromMessage(response.getBody());
    assertEquals(table, model.getName());
    assertEquals(2, model.getColumns().size());
  }

  @Test
  void putAndGetOfCellsVersionsAndTimeRanges() throws IOException {
    remote.put(new Put(b("pg")).addColumn(b("f"), b("a"), b("1")).addColumn(b("g"), b("b"), b("2")));
    Result r = remote.get(new Get(b("pg")));
    assertEquals("pg: f:a=1 g:b=2", describe(r));
    assertEquals("pg: f:a=1", describe(remote.get(new Get(b("pg")).addFamily(b("f")))));
    assertEquals("pg: g:b=2", describe(remote.get(new Get(b("pg")).addColumn(b("g"), b("b")))));

    for (long ts = 100; ts <= 400; ts += 100) {
      remote.put(new Put(b("ver")).addColumn(b("f"), b("q"), ts, b("v" + ts)));
    }
    assertEquals(List.of(400L), timestamps(remote.get(new Get(b("ver"))), "f", "q"));
    assertEquals(
        List.of(400L, 300L, 200L),
        timestamps(remote.get(new Get(b("ver")).readVersions(3)), "f", "q"));
    assertEquals(
        List.of(300L, 200L),
        timestamps(
            remote.get(new Get(b("ver")).addFamily(b("f")).setTimeRange(200, 400).readVersions(3)),
            "f",
            "q"));

    Result missing = remote.get(new Get(b("no such row")));
    assertTrue(missing.isEmpty());
    assertTrue(remote.exists(new Get(b("pg"))));
    assertFalse(remote.exists(new Get(b("no such row"))));
  }

  @Test
  void multiPutAndMultiGet() throws IOException {
    List<Put> puts = new ArrayList<>();
    for (int i = 0; i < 5; i++) puts.add(new Put(b("mg" + i)).addColumn(b("f"), b("n"), b("v" + i)));
    remote.put(puts);
    Result[] results =
        remote.get(List.of(new Get(b("mg3")), new Get(b("mg9")), new Get(b("mg0")), new Get(b("mg4"))));
    // REST's multiget answers the rows that exist, in the order asked.
    assertEquals(
        List.of("mg3: f:n=v3", "mg0: f:n=v0", "mg4: f:n=v4"),
        java.util.Arrays.stream(results).map(RestClientTest::describe).collect(Collectors.toList()));
  }

  @Test
  void deletesOfRowsFamiliesColumnsAndVersions() throws IOException {
    remote.put(new Put(b("d1")).addColumn(b("f"), b("a"), b("1")).addColumn(b("g"), b("b"), b("2")));
    remote.delete(new Delete(b("d1")));
    assertTrue(remote.get(new Get(b("d1"))).isEmpty());

    remote.put(new Put(b("d2")).addColumn(b("f"), b("a"), b("1")).addColumn(b("g"), b("b"), b("2")));
    remote.delete(new Delete(b("d2")).addFamily(b("g")));
    assertEquals("d2: f:a=1", describe(remote.get(new Get(b("d2")))));

    for (long ts = 1; ts <= 3; ts++) {
      remote.put(new Put(b("d3")).addColumn(b("f"), b("q"), ts, b("v" + ts)));
    }
    remote.put(new Put(b("d3")).addColumn(b("f"), b("other"), 1, b("kept")));
    remote.delete(new Delete(b("d3")).addColumns(b("f"), b("q")));
    assertEquals("d3: f:other=kept", describe(remote.get(new Get(b("d3")).readVersions(3))));

    for (long ts = 1; ts <= 3; ts++) {
      remote.put(new Put(b("d4")).addColumn(b("f"), b("q"), ts, b("v" + ts)));
    }
    // A column delete with a timestamp: REST deletes every version up to it (HBase's RowResource
    // makes it Delete.addColumns), whatever kind of delete the Java client meant.
    remote.delete(new Delete(b("d4"), 2).addColumn(b("f"), b("q"), 2));
    assertEquals(List.of(3L), timestamps(remote.get(new Get(b("d4")).readVersions(3)), "f", "q"));
  }

  @Test
  void checkAndPutAndCheckAndDelete() throws IOException {
    remote.put(new Put(b("cp")).addColumn(b("f"), b("state"), b("new")));
    assertFalse(
        remote
            .checkAndMutate(b("cp"), b("f"))
            .qualifier(b("state"))
            .ifEquals(b("old"))
            .thenPut(new Put(b("cp")).addColumn(b("f"), b("state"), b("x"))));
    assertTrue(
        remote
            .checkAndMutate(b("cp"), b("f"))
            .qualifier(b("state"))
            .ifEquals(b("new"))
            .thenPut(new Put(b("cp")).addColumn(b("f"), b("state"), b("running"))));
    assertEquals("running", s(remote.get(new Get(b("cp"))).getValue(b("f"), b("state"))));
    assertFalse(
        remote
            .checkAndMutate(b("cp"), b("f"))
            .qualifier(b("state"))
            .ifEquals(b("new"))
            .thenDelete(new Delete(b("cp")).addColumns(b("f"), b("state"))));
    assertTrue(
        remote
            .checkAndMutate(b("cp"), b("f"))
            .qualifier(b("state"))
            .ifEquals(b("running"))
            .thenDelete(new Delete(b("cp")).addColumns(b("f"), b("state"))));
    // REST's check=delete deletes each cell of the body at its timestamp, the latest version here
    // (HBase's RowResource makes it Delete.addColumn): the older version shows again.
    assertEquals("new", s(remote.get(new Get(b("cp"))).getValue(b("f"), b("state"))));
  }

  @Test
  void scannersWithBoundsColumnsBatchesAndFilters() throws IOException {
    List<Put> puts = new ArrayList<>();
    List<String> all = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      String row = String.format("s%02d", i);
      all.add(row);
      puts.add(
          new Put(b(row))
              .addColumn(b("f"), b("a"), b("a" + i))
              .addColumn(b("f"), b("parity"), b(i % 2 == 0 ? "even" : "odd")));
    }
    remote.put(puts);

    assertEquals(all, scanRows(new Scan().withStartRow(b("s")).withStopRow(b("t"))));
    assertEquals(
        all.subList(3, 7),
        scanRows(new Scan().withStartRow(b("s03")).withStopRow(b("s07")).setCaching(2)));
    // A batch of 4 cells per fetch: the 2-cell rows come back whole.
    assertEquals(
        all, scanRows(new Scan().withStartRow(b("s")).withStopRow(b("t")).setBatch(4)));

    try (ResultScanner scanner =
        remote.getScanner(
            new Scan().withStartRow(b("s")).withStopRow(b("s02")).addColumn(b("f"), b("a")))) {
      List<String> got = new ArrayList<>();
      for (Result r : scanner) got.add(describe(r));
      assertEquals(List.of("s00: f:a=a0", "s01: f:a=a1"), got);
    }

    SingleColumnValueFilter even =
        new SingleColumnValueFilter(
            b("f"), b("parity"), CompareOperator.EQUAL, new BinaryComparator(b("even")));
    FilterList both =
        new FilterList(FilterList.Operator.MUST_PASS_ALL, new PrefixFilter(b("s0")), even);
    assertEquals(List.of("s00", "s02", "s04", "s06", "s08"), scanRows(new Scan().setFilter(both)));
  }

  private List<String> scanRows(Scan scan) throws IOException {
    List<String> out = new ArrayList<>();
    try (ResultScanner scanner = remote.getScanner(scan)) {
      Result r;
      while ((r = scanner.next()) != null) out.add(s(r.getRow()));
      assertNull(scanner.next(), "the end stays the end");
    }
    return out;
  }

  @Test
  void rawClientCellSetRoundTrip() throws IOException {
    remote.put(new Put(b("raw")).addColumn(b("f"), b("q"), 77, b("bytes\u0000\u00ff")));
    Response response = client.get("/" + table + "/raw/f:q", Constants.MIMETYPE_PROTOBUF);
    assertEquals(200, response.getCode());
    CellSetModel model = new CellSetModel();
    model.getObjectFromMessage(response.getBody());
    assertEquals(1, model.getRows().size());
    assertArrayEquals(b("raw"), model.getRows().get(0).getKey());
    assertEquals(77, model.getRows().get(0).getCells().get(0).getTimestamp());
    assertArrayEquals(b("bytes\u0000\u00ff"), model.getRows().get(0).getCells().get(0).getValue());
    assertEquals(404, client.get("/" + table + "/nothing", Constants.MIMETYPE_PROTOBUF).getCode());
  }

  @Test
  void writesToAMissingTableFail() {
    RemoteHTable missing = new RemoteHTable(client, conf, target.uniqueName("jrestnone"));
    assertThrows(
        IOException.class, () -> missing.put(new Put(b("r")).addColumn(b("f"), b("q"), b("v"))));
  }
}
