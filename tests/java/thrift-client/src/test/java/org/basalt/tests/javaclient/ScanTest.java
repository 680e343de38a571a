package org.basalt.tests.javaclient;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Scans through ThriftConnection or the native client. ThriftConnection's scanner is stateless: each batch of {@code caching} rows is
 * one getScannerResults call that starts after the last row returned (reversed: at it, and the
 * repeated row is dropped), so these tests page through more rows than one batch holds.
 */
class ScanTest extends ThriftClientTest {
  private TableName name;
  private final List<String> all = new ArrayList<>();

  @BeforeAll
  void load() throws IOException {
    name = createTable("jscan", 3, "f", "g");
    List<Put> puts = new ArrayList<>();
    for (int i = 0; i < 25; i++) {
      String row = String.format("row%02d", i);
      all.add(row);
      Put p = new Put(b(row));
      p.addColumn(b("f"), b("a"), 100, b("a" + i));
      p.addColumn(b("f"), b("a"), 200, b("A" + i));
      p.addColumn(b("f"), b("b"), 100, b("b" + i));
      if (i % 2 == 0) p.addColumn(b("g"), b("even"), 100, b("e" + i));
      puts.add(p);
    }
    try (Table t = connection.getTable(name)) {
      t.put(puts);
    }
  }

  @Test
  void fullScanReturnsEveryRowInOrderAcrossBatches() throws IOException {
    assertEquals(all, rows(name, new Scan()));
    assertEquals(all, rows(name, new Scan().setCaching(1)));
    assertEquals(all, rows(name, new Scan().setCaching(4)));
    assertEquals(all, rows(name, new Scan().setCaching(1000)));
  }

  @Test
  void startAndStopRows() throws IOException {
    assertEquals(
        all.subList(5, 12),
        rows(name, new Scan().withStartRow(b("row05")).withStopRow(b("row12")).setCaching(3)));
    assertEquals(all.subList(20, 25), rows(name, new Scan().withStartRow(b("row195"))));
    assertEquals(all.subList(0, 3), rows(name, new Scan().withStopRow(b("row03"))));
    assertEquals(List.of(), rows(name, new Scan().withStartRow(b("zzz"))));
  }

  @Test
  void rowPrefix() throws IOException {
    assertEquals(
        List.of("row10", "row11", "row12", "row13", "row14", "row15", "row16", "row17", "row18",
            "row19"),
        rows(name, new Scan().setRowPrefixFilter(b("row1")).setCaching(3)));
  }

  @Test
  void reversedScans() throws IOException {
    List<String> reversed = new ArrayList<>(all);
    java.util.Collections.reverse(reversed);
    assertEquals(reversed, rows(name, new Scan().setReversed(true)));
    assertEquals(reversed, rows(name, new Scan().setReversed(true).setCaching(1)));
    assertEquals(reversed, rows(name, new Scan().setReversed(true).setCaching(7)));
    assertEquals(
        List.of("row10", "row09", "row08", "row07"),
        rows(
            name,
            new Scan()
                .setReversed(true)
                .withStartRow(b("row10"))
                .withStopRow(b("row06"))
                .setCaching(2)));
  }

  @Test
  void columnSelections() throws IOException {
    Scan family = new Scan().addFamily(b("g")).withStopRow(b("row05"));
    assertEquals(List.of("row00: g:even=e0", "row02: g:even=e2", "row04: g:even=e4"), cells(name, family));
    Scan column = new Scan().addColumn(b("f"), b("b")).withStopRow(b("row02"));
    assertEquals(List.of("row00: f:b=b0", "row01: f:b=b1"), cells(name, column));
    Scan mixed =
        new Scan().addColumn(b("f"), b("a")).addFamily(b("g")).withStopRow(b("row02"));
    assertEquals(List.of("row00: f:a=A0 g:even=e0", "row01: f:a=A1"), cells(name, mixed));
  }

  @Test
  void versionsAndTimeRanges() throws IOException {
    Scan versions =
        new Scan().addColumn(b("f"), b("a")).readVersions(2).withStopRow(b("row01"));
    assertEquals(List.of("row00: f:a=A0 f:a=a0"), cells(name, versions));
    Scan range =
        new Scan().setTimeRange(0, 150).addFamily(b("f")).withStopRow(b("row02")).setCaching(1);
    assertEquals(List.of("row00: f:a=a0 f:b=b0", "row01: f:a=a1 f:b=b1"), cells(name, range));
    Scan at = new Scan().setTimestamp(200).withStopRow(b("row02"));
    assertEquals(List.of("row00: f:a=A0", "row01: f:a=A1"), cells(name, at));
    Scan none = new Scan().setTimeRange(300, 400);
    assertEquals(List.of(), cells(name, none));
  }

  @Test
  void perFamilyTimeRangesAreHBaseOnly() throws IOException {
    Scan scan =
        new Scan().setColumnFamilyTimeRange(b("f"), 0, 150).withStopRow(b("row01"));
    if (target.isBasalt()) {
      // basalt's Scan has one time range (docs/hbase.md): a clear refusal, naming the field of
      // the request that asked for more (Thrift2's TScan, or the protobuf Scan of HBase's RPC).
      // The native client opens its scanner in getScanner, ThriftConnection at the first next.
      IOException e;
      try (Table t = connection.getTable(name)) {
        e =
            assertThrows(
                IOException.class,
                () -> {
                  try (ResultScanner scanner = t.getScanner(scan)) {
                    scanner.next();
                  }
                });
      }
      String field = target.isNative() ? "cf_time_range" : "colFamTimeRangeMap";
      assertTrue(e.getMessage().contains(field), e.getMessage());
      return;
    }
    if (hbaseFramed()) {
      // The family reads as the frame up to its end (Bytes.toBytes(ByteBuffer) copies from index
      // 0 of the frame): the range applies to no family.
      assertEquals(List.of("row00: f:a=A0 f:b=b0 g:even=e0"), cells(name, scan));
      return;
    }
    assertEquals(List.of("row00: f:a=a0 f:b=b0 g:even=e0"), cells(name, scan));
  }

  @Test
  void limitWithBatchCountsRowsNotPieces() throws IOException {
    Scan scan = new Scan().addFamily(b("f")).setBatch(1).setLimit(2).setCaching(10);
    if (!target.isNative()) {
      // ThriftConnection's scanner refuses a batch before it sends anything.
      IOException e = assertThrows(IOException.class, () -> cells(name, scan));
      assertTrue(e.getMessage().contains("Batch is not supported"), e.getMessage());
      return;
    }
    assertEquals(
        List.of("row00: f:a=A0", "row00: f:b=b0", "row01: f:a=A1", "row01: f:b=b1"),
        cells(name, scan));
    Scan reversed =
        new Scan().addFamily(b("f")).setBatch(1).setLimit(2).setReversed(true).setCaching(10);
    assertEquals(
        List.of("row24: f:a=A24", "row24: f:b=b24", "row23: f:a=A23", "row23: f:b=b23"),
        cells(name, reversed));
  }

  @Test
  void scannerNextOfManyAndIteration() throws IOException {
    try (Table t = connection.getTable(name);
        ResultScanner scanner = t.getScanner(new Scan().setCaching(4))) {
      Result[] first = scanner.next(6);
      assertEquals(6, first.length);
      assertEquals("row05", s(first[5].getRow()));
      Result next = scanner.next();
      assertEquals("row06", s(next.getRow()));
      int rest = 0;
      for (Result r : scanner) rest++;
      assertEquals(18, rest);
      assertNull(scanner.next());
    }
  }

  @Test
  void scannersOfAFamilyAndOfAColumn() throws IOException {
    try (Table t = connection.getTable(name)) {
      int n = 0;
      try (ResultScanner scanner = t.getScanner(b("g"))) {
        for (Result r : scanner) {
          assertEquals(1, r.size());
          n++;
        }
      }
      assertEquals(13, n, "the even rows");
      try (ResultScanner scanner = t.getScanner(b("f"), b("b"))) {
        Result r = scanner.next();
        assertEquals("row00: f:b=b0", describe(r));
      }
    }
  }
}
