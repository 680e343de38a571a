package org.basalt.tests.javaclient;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.BinaryPrefixComparator;
import org.apache.hadoop.hbase.filter.ColumnCountGetFilter;
import org.apache.hadoop.hbase.filter.ColumnPaginationFilter;
import org.apache.hadoop.hbase.filter.ColumnPrefixFilter;
import org.apache.hadoop.hbase.filter.ColumnRangeFilter;
import org.apache.hadoop.hbase.filter.FamilyFilter;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.filter.FuzzyRowFilter;
import org.apache.hadoop.hbase.filter.InclusiveStopFilter;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.filter.LongComparator;
import org.apache.hadoop.hbase.filter.MultipleColumnPrefixFilter;
import org.apache.hadoop.hbase.filter.PageFilter;
import org.apache.hadoop.hbase.filter.PrefixFilter;
import org.apache.hadoop.hbase.filter.QualifierFilter;
import org.apache.hadoop.hbase.filter.RegexStringComparator;
import org.apache.hadoop.hbase.filter.RowFilter;
import org.apache.hadoop.hbase.filter.SingleColumnValueExcludeFilter;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.filter.SkipFilter;
import org.apache.hadoop.hbase.filter.SubstringComparator;
import org.apache.hadoop.hbase.filter.TimestampsFilter;
import org.apache.hadoop.hbase.filter.ValueFilter;
import org.apache.hadoop.hbase.filter.WhileMatchFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.Pair;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * HBase's filters as a Java application builds them. ThriftConnection sends each as the
 * protobuf bytes of HBase's Java client (TScan/TGet filterBytes), so the server must decode them
 * and apply HBase's rules. Scans run with a small caching too: ThriftConnection sends the filter
 * again with every batch.
 */
class FilterTest extends ThriftClientTest {
  private TableName name;

  @BeforeAll
  void load() throws IOException {
    name = createTable("jfilter", 3, "f", "g");
    try (Table t = connection.getTable(name)) {
      List<Put> puts = new ArrayList<>();
      puts.add(person("a1", "alice", 30, "paris", "x"));
      puts.add(person("a2", "alan", 17, "rome", null));
      puts.add(person("b1", "bob", 45, "paris", "y"));
      puts.add(person("b2", "bea", 22, null, null));
      puts.add(person("b3", "bert", 61, "oslo", "x"));
      puts.add(person("c1", "carol", 30, "Paris", null));
      t.put(puts);
      // a1 moved: its newest city is lyon, an older version says paris.
      t.put(new Put(b("a1")).addColumn(b("f"), b("city"), 20, b("lyon")));
    }
  }

  private static Put person(String row, String nameValue, long age, String city, String tag) {
    Put p = new Put(b(row));
    p.addColumn(b("f"), b("name"), 10, b(nameValue));
    p.addColumn(b("f"), b("age"), 10, Bytes.toBytes(age));
    if (city != null) p.addColumn(b("f"), b("city"), 10, b(city));
    if (tag != null) p.addColumn(b("g"), b("tag"), 10, b(tag));
    return p;
  }

  private List<String> scanRows(Filter filter) throws IOException {
    List<String> wide = rows(name, new Scan().setFilter(filter));
    // One row per batch: the filter travels with each getScannerResults call.
    assertEquals(wide, rows(name, new Scan().setFilter(filter).setCaching(1)), "caching 1");
    return wide;
  }

  /** "row: family:qualifier" of every cell a scan returns (the values are not all text). */
  private List<String> columns(Scan scan) throws IOException {
    List<String> out = new ArrayList<>();
    try (Table t = connection.getTable(name);
        ResultScanner scanner = t.getScanner(scan)) {
      for (Result r : scanner) {
        StringBuilder sb = new StringBuilder(s(r.getRow())).append(':');
        for (Cell c : r.rawCells()) {
          sb.append(' ')
              .append(s(CellUtil.cloneFamily(c)))
              .append(':')
              .append(s(CellUtil.cloneQualifier(c)));
        }
        out.add(sb.toString());
      }
    }
    return out;
  }

  @Test
  void prefixFilter() throws IOException {
    assertEquals(List.of("b1", "b2", "b3"), scanRows(new PrefixFilter(b("b"))));
    assertEquals(List.of(), scanRows(new PrefixFilter(b("z"))));
  }

  @Test
  void pageFilterAsAnApplicationReadsAPage() throws IOException {
    // As YCSB's HBase binding: a PageFilter of n and the scan read up to n rows. (ThriftConnection
    // sends the filter with every batch, so a scan read on past n gets the next pages too.)
    for (int caching : new int[] {1, 2, 100}) {
      try (Table t = connection.getTable(name);
          ResultScanner scanner =
              t.getScanner(
                  new Scan()
                      .withStartRow(b("a2"))
                      .setFilter(new PageFilter(3))
                      .setCaching(caching))) {
        List<String> page = new ArrayList<>();
        for (Result r : scanner.next(3)) page.add(s(r.getRow()));
        assertEquals(List.of("a2", "b1", "b2"), page, "caching " + caching);
      }
    }
  }

  @Test
  void filterListsOfBothOperators() throws IOException {
    FilterList all =
        new FilterList(
            FilterList.Operator.MUST_PASS_ALL,
            new PrefixFilter(b("b")),
            new SingleColumnValueFilter(
                b("f"), b("city"), CompareOperator.EQUAL, new BinaryComparator(b("paris"))));
    assertEquals(List.of("b1", "b2"), scanRows(all), "b2 has no city: kept without filterIfMissing");
    FilterList one =
        new FilterList(
            FilterList.Operator.MUST_PASS_ONE,
            new PrefixFilter(b("c")),
            new RowFilter(CompareOperator.EQUAL, new BinaryComparator(b("a2"))));
    assertEquals(List.of("a2", "c1"), scanRows(one));
    FilterList nested =
        new FilterList(
            FilterList.Operator.MUST_PASS_ALL,
            one,
            new ColumnPrefixFilter(b("na")));
    assertEquals(List.of("a2: f:name", "c1: f:name"), columns(new Scan().setFilter(nested)));
    assertEquals(6, scanRows(new FilterList()).size(), "an empty list keeps everything");
  }

  @Test
  void singleColumnValueFilters() throws IOException {
    SingleColumnValueFilter paris =
        new SingleColumnValueFilter(
            b("f"), b("city"), CompareOperator.EQUAL, new BinaryComparator(b("paris")));
    assertEquals(List.of("b1", "b2"), scanRows(paris), "the latest version; missing passes");
    paris.setFilterIfMissing(true);
    assertEquals(List.of("b1"), scanRows(paris));
    SingleColumnValueFilter anyVersion =
        new SingleColumnValueFilter(
            b("f"), b("city"), CompareOperator.EQUAL, new BinaryComparator(b("paris")));
    anyVersion.setFilterIfMissing(true);
    anyVersion.setLatestVersionOnly(false);
    assertEquals(
        List.of("a1", "b1"), rows(name, new Scan().setFilter(anyVersion).readVersions(3)));
    // With one version read, HBase still shows the filter every version the family keeps, so a1's
    // older city matches (the row comes back with its newest city); basalt's filter sees the
    // versions the scan reads (docs/data-model.md).
    assertEquals(
        target.isBasalt() ? List.of("b1") : List.of("a1", "b1"), scanRows(anyVersion));

    SingleColumnValueFilter older =
        new SingleColumnValueFilter(
            b("f"), b("age"), CompareOperator.GREATER, new LongComparator(40));
    assertEquals(List.of("b1", "b3"), scanRows(older), "ages above 40, compared as longs");

    SingleColumnValueExcludeFilter exclude =
        new SingleColumnValueExcludeFilter(
            b("f"), b("city"), CompareOperator.EQUAL, new BinaryComparator(b("paris")));
    exclude.setFilterIfMissing(true);
    assertEquals(
        List.of("b1: f:age f:name g:tag"),
        columns(new Scan().setFilter(exclude)),
        "the tested column is left out");
  }

  @Test
  void valueFiltersWithEachComparator() throws IOException {
    // HBase 2: with one version, a cell filter returns the newest version it keeps, so a1's older
    // city matches.
    assertEquals(
        List.of("a1: f:city", "b1: f:city"),
        columns(
            new Scan()
                .setFilter(
                    new ValueFilter(CompareOperator.EQUAL, new BinaryComparator(b("paris"))))));
    assertEquals(
        List.of("a1", "a2"),
        scanRows(new ValueFilter(CompareOperator.EQUAL, new BinaryPrefixComparator(b("al")))));
    assertEquals(
        List.of("a1", "b1", "c1"),
        scanRows(new ValueFilter(CompareOperator.EQUAL, new SubstringComparator("ARI"))),
        "substring is case-insensitive");
    assertEquals(
        List.of("b1: f:name", "b2: f:name", "b3: f:name"),
        columns(
            new Scan()
                .setFilter(
                    new ValueFilter(CompareOperator.EQUAL, new RegexStringComparator("^b[eo]")))));
    assertEquals(
        List.of("a2: f:age", "b2: f:age"),
        columns(
            new Scan()
                .addColumn(b("f"), b("age"))
                .setFilter(new ValueFilter(CompareOperator.LESS, new LongComparator(25)))),
        "LESS keeps what is less than 25");
    assertEquals(
        List.of("c1: f:age f:city"),
        columns(
            new Scan()
                .withStartRow(b("c1"))
                .setFilter(
                    new ValueFilter(CompareOperator.NOT_EQUAL, new BinaryComparator(b("carol"))))));
  }

  @Test
  void rowQualifierAndFamilyFilters() throws IOException {
    assertEquals(
        List.of("a1", "a2", "b1"),
        scanRows(new RowFilter(CompareOperator.LESS, new BinaryComparator(b("b2")))));
    assertEquals(
        List.of("b2", "b3", "c1"),
        scanRows(new RowFilter(CompareOperator.GREATER_OR_EQUAL, new BinaryComparator(b("b2")))));
    assertEquals(
        List.of("a1: g:tag", "b1: g:tag", "b3: g:tag"),
        columns(
            new Scan().setFilter(new FamilyFilter(CompareOperator.EQUAL, new BinaryComparator(b("g"))))));
    assertEquals(
        List.of("a1: f:name", "a2: f:name"),
        columns(
            new Scan()
                .withStopRow(b("b"))
                .setFilter(
                    new QualifierFilter(CompareOperator.EQUAL, new BinaryComparator(b("name"))))));
  }

  @Test
  void columnPrefixAndRangeFilters() throws IOException {
    assertEquals(
        List.of("a1: f:city", "a2: f:city", "b1: f:city", "b3: f:city", "c1: f:city"),
        columns(new Scan().setFilter(new ColumnPrefixFilter(b("ci")))));
    assertEquals(
        List.of("a1: f:age f:name", "a2: f:age f:name"),
        columns(
            new Scan()
                .withStopRow(b("b"))
                .setFilter(new MultipleColumnPrefixFilter(new byte[][] {b("na"), b("ag")}))));
    assertEquals(
        List.of("a1: f:age f:city", "a2: f:age f:city"),
        columns(
            new Scan()
                .withStopRow(b("b"))
                .setFilter(new ColumnRangeFilter(b("age"), true, b("city"), true))));
    assertEquals(
        List.of("a1: f:city", "a2: f:city"),
        columns(
            new Scan()
                .withStopRow(b("b"))
                .setFilter(new ColumnRangeFilter(b("age"), false, b("name"), false))));
  }

  @Test
  void keyOnlyAndFirstKeyOnly() throws IOException {
    try (Table t = connection.getTable(name);
        ResultScanner scanner =
            t.getScanner(new Scan().withStopRow(b("a2")).setFilter(new KeyOnlyFilter()))) {
      Result r = scanner.next();
      assertEquals(4, r.size());
      for (Cell c : r.rawCells()) assertEquals(0, c.getValueLength());
    }
    try (Table t = connection.getTable(name);
        ResultScanner scanner =
            t.getScanner(new Scan().withStopRow(b("a2")).setFilter(new KeyOnlyFilter(true)))) {
      Result r = scanner.next();
      // The value is the length of the original, as a 4-byte int.
      assertArrayEquals(Bytes.toBytes(5), r.getValue(b("f"), b("name")));
      assertArrayEquals(Bytes.toBytes(8), r.getValue(b("f"), b("age")));
    }
    assertEquals(
        List.of("a1: f:age", "a2: f:age", "b1: f:age", "b2: f:age", "b3: f:age", "c1: f:age"),
        columns(new Scan().setFilter(new FirstKeyOnlyFilter())));
  }

  @Test
  void columnCountAndPagination() throws IOException {
    try (Table t = connection.getTable(name)) {
      Result r = t.get(new Get(b("a1")).setFilter(new ColumnCountGetFilter(2)));
      assertEquals(2, r.size());
      assertTrue(r.containsColumn(b("f"), b("age")) && r.containsColumn(b("f"), b("city")));
    }
    assertEquals(
        List.of("a1: f:city", "a2: f:city", "b1: f:city", "b2: f:name", "b3: f:city", "c1: f:city"),
        columns(new Scan().setFilter(new ColumnPaginationFilter(1, 1))));
  }

  @Test
  void stopAndWhileMatchAndSkip() throws IOException {
    assertEquals(List.of("a1", "a2", "b1"), scanRows(new InclusiveStopFilter(b("b1"))));
    assertEquals(
        List.of("a1", "a2"),
        scanRows(
            new WhileMatchFilter(
                new RowFilter(CompareOperator.NOT_EQUAL, new BinaryComparator(b("b1"))))));
    assertEquals(
        List.of("a2", "b1", "b2", "c1"),
        scanRows(
            new SkipFilter(new ValueFilter(CompareOperator.NOT_EQUAL, new BinaryComparator(b("x"))))),
        "rows holding a value x are skipped whole");
  }

  @Test
  void timestampsAndFuzzyRows() throws IOException {
    assertEquals(
        List.of("a1: f:city"), columns(new Scan().setFilter(new TimestampsFilter(List.of(20L)))));
    FuzzyRowFilter fuzzy =
        new FuzzyRowFilter(List.of(new Pair<>(b("?1"), new byte[] {1, 0})));
    assertEquals(List.of("a1", "b1", "c1"), scanRows(fuzzy));
  }

  @Test
  void reversedScansTakeFiltersToo() throws IOException {
    for (int caching : new int[] {1, 100}) {
      assertEquals(
          List.of("b3", "b2", "b1"),
          rows(name, new Scan().setReversed(true).setFilter(new PrefixFilter(b("b"))).setCaching(caching)));
      assertEquals(
          List.of("c1", "b1", "a1"),
          rows(
              name,
              new Scan()
                  .setReversed(true)
                  .setCaching(caching)
                  .setFilter(new FuzzyRowFilter(List.of(new Pair<>(b("?1"), new byte[] {1, 0}))))));
    }
  }

  @Test
  void getsTakeFiltersToo() throws IOException {
    try (Table t = connection.getTable(name)) {
      Result r = t.get(new Get(b("b3")).setFilter(new ColumnPrefixFilter(b("na"))));
      assertEquals("b3: f:name=bert", describe(r));
      Result none =
          t.get(
              new Get(b("b3"))
                  .setFilter(
                      new SingleColumnValueFilter(
                          b("f"), b("city"), CompareOperator.EQUAL, new BinaryComparator(b("rome")))));
      assertTrue(none.isEmpty());
      assertTrue(
          t.exists(new Get(b("b3")).setFilter(new ValueFilter(CompareOperator.EQUAL, new BinaryComparator(b("oslo"))))));
    }
  }
}
