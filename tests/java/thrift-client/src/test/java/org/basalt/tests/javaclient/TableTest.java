package org.basalt.tests.javaclient;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Append;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Table's reads and writes through ThriftConnection (its ThriftTable) or the native client (its
 * HTable). Each test uses rows of its own in one table of two families: f (3 versions) and g (1
 * version).
 */
class TableTest extends ThriftClientTest {
  private TableName name;

  @BeforeAll
  void createTheTable() throws IOException {
    name = TableName.valueOf(target.uniqueName("jtable"));
    try (var admin = connection.getAdmin()) {
      admin.createTable(
          org.apache.hadoop.hbase.client.TableDescriptorBuilder.newBuilder(name)
              .setColumnFamily(
                  org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder.newBuilder(b("f"))
                      .setMaxVersions(3)
                      .build())
              .setColumnFamily(
                  org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder.of("g"))
              .build());
    }
    dropLater(name);
  }

  private Table table() throws IOException {
    return connection.getTable(name);
  }

  private static List<Long> timestamps(Result r, String family, String qualifier) {
    List<Long> out = new ArrayList<>();
    for (Cell c : r.getColumnCells(b(family), b(qualifier))) out.add(c.getTimestamp());
    return out;
  }

  @Test
  void putThenGetReturnsTheCells() throws IOException {
    try (Table t = table()) {
      t.put(
          new Put(b("pg"))
              .addColumn(b("f"), b("a"), b("1"))
              .addColumn(b("f"), b("b"), b("2"))
              .addColumn(b("g"), b("c"), b("3")));
      Result r = t.get(new Get(b("pg")));
      assertEquals("pg", s(r.getRow()));
      assertEquals(3, r.size());
      assertEquals("1", s(r.getValue(b("f"), b("a"))));
      assertEquals("2", s(r.getValue(b("f"), b("b"))));
      assertEquals("3", s(r.getValue(b("g"), b("c"))));
      // HBase's cell order: family, then qualifier.
      assertEquals("pg: f:a=1 f:b=2 g:c=3", describe(r));
      Cell c = r.getColumnLatestCell(b("f"), b("a"));
      assertEquals(Cell.Type.Put, c.getType());
      assertTrue(c.getTimestamp() > 1_600_000_000_000L, "a server timestamp in ms");
      assertEquals(
          r.getColumnLatestCell(b("f"), b("a")).getTimestamp(),
          r.getColumnLatestCell(b("g"), b("c")).getTimestamp(),
          "one put, one timestamp");

      Result onlyF = t.get(new Get(b("pg")).addFamily(b("f")));
      assertEquals("pg: f:a=1 f:b=2", describe(onlyF));
      Result oneColumn = t.get(new Get(b("pg")).addColumn(b("f"), b("b")));
      assertEquals("pg: f:b=2", describe(oneColumn));
    }
  }

  @Test
  void getOfAMissingRowIsEmpty() throws IOException {
    try (Table t = table()) {
      Result r = t.get(new Get(b("no such row")));
      assertTrue(r.isEmpty());
      assertNull(r.getRow());
      assertEquals(0, r.size());
    }
  }

  @Test
  void versionsAndTimeRangesSelectCells() throws IOException {
    try (Table t = table()) {
      for (long ts = 1000; ts <= 5000; ts += 1000) {
        t.put(new Put(b("ver")).addColumn(b("f"), b("q"), ts, b("v" + ts)));
      }
      assertEquals("v5000", s(t.get(new Get(b("ver"))).getValue(b("f"), b("q"))));
      // The family keeps 3 versions.
      Result all = t.get(new Get(b("ver")).readAllVersions());
      assertEquals(List.of(5000L, 4000L, 3000L), timestamps(all, "f", "q"));
      Result two = t.get(new Get(b("ver")).readVersions(2));
      assertEquals(List.of(5000L, 4000L), timestamps(two, "f", "q"));
      Result range = t.get(new Get(b("ver")).setTimeRange(3000, 5000).readAllVersions());
      assertEquals(List.of(4000L, 3000L), timestamps(range, "f", "q"));
      Result at = t.get(new Get(b("ver")).setTimestamp(4000));
      assertEquals("v4000", s(at.getValue(b("f"), b("q"))));
    }
  }

  @Test
  void putOfManyRowsAndMultiGet() throws IOException {
    try (Table t = table()) {
      List<Put> puts = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        puts.add(new Put(b("mp" + i)).addColumn(b("f"), b("n"), Bytes.toBytes(i)));
      }
      t.put(puts);
      List<Get> gets = new ArrayList<>();
      gets.add(new Get(b("mp3")));
      gets.add(new Get(b("missing")));
      gets.add(new Get(b("mp7")).addColumn(b("f"), b("n")));
      gets.add(new Get(b("mp0")));
      Result[] results = t.get(gets);
      assertEquals(4, results.length);
      assertEquals(3, Bytes.toInt(results[0].getValue(b("f"), b("n"))));
      assertTrue(results[1].isEmpty());
      assertEquals(7, Bytes.toInt(results[2].getValue(b("f"), b("n"))));
      assertEquals(0, Bytes.toInt(results[3].getValue(b("f"), b("n"))));
    }
  }

  @Test
  void existsOfOneAndOfMany() throws IOException {
    try (Table t = table()) {
      t.put(new Put(b("ex")).addColumn(b("f"), b("q"), b("v")));
      assertTrue(t.exists(new Get(b("ex"))));
      assertTrue(t.exists(new Get(b("ex")).addColumn(b("f"), b("q"))));
      assertFalse(t.exists(new Get(b("ex")).addColumn(b("g"), b("q"))));
      assertFalse(t.exists(new Get(b("not there"))));
      boolean[] many =
          t.exists(List.of(new Get(b("not there")), new Get(b("ex")), new Get(b("nor here"))));
      assertArrayEquals(new boolean[] {false, true, false}, many);
    }
  }

  @Test
  void deleteOfTheWholeRow() throws IOException {
    try (Table t = table()) {
      t.put(new Put(b("dr")).addColumn(b("f"), b("a"), b("1")).addColumn(b("g"), b("b"), b("2")));
      t.delete(new Delete(b("dr")));
      assertTrue(t.get(new Get(b("dr"))).isEmpty());
      // A later put shows again.
      t.put(new Put(b("dr")).addColumn(b("f"), b("a"), b("3")));
      assertEquals("dr: f:a=3", describe(t.get(new Get(b("dr")))));
    }
  }

  @Test
  void deleteOfAFamily() throws IOException {
    try (Table t = table()) {
      t.put(new Put(b("df")).addColumn(b("f"), b("a"), b("1")).addColumn(b("g"), b("b"), b("2")));
      t.delete(new Delete(b("df")).addFamily(b("f")));
      assertEquals("df: g:b=2", describe(t.get(new Get(b("df")))));
    }
  }

  @Test
  void deleteOfEveryVersionOfAColumn() throws IOException {
    try (Table t = table()) {
      for (long ts = 1; ts <= 3; ts++) {
        t.put(new Put(b("dcs")).addColumn(b("f"), b("q"), ts, b("v" + ts)));
      }
      t.put(new Put(b("dcs")).addColumn(b("f"), b("other"), 1, b("kept")));
      t.delete(new Delete(b("dcs")).addColumns(b("f"), b("q")));
      assertEquals("dcs: f:other=kept", describe(t.get(new Get(b("dcs")).readAllVersions())));
    }
  }

  @Test
  void deleteOfVersionsUpToATimestamp() throws IOException {
    try (Table t = table()) {
      for (long ts = 1; ts <= 3; ts++) {
        t.put(new Put(b("dct")).addColumn(b("f"), b("q"), ts, b("v" + ts)));
      }
      t.delete(new Delete(b("dct")).addColumns(b("f"), b("q"), 2));
      assertEquals(List.of(3L), timestamps(t.get(new Get(b("dct")).readAllVersions()), "f", "q"));
    }
  }

  @Test
  void deleteOfTheLatestVersionAndOfOneVersion() throws IOException {
    try (Table t = table()) {
      for (long ts = 1; ts <= 3; ts++) {
        t.put(new Put(b("dc")).addColumn(b("f"), b("q"), ts, b("v" + ts)));
      }
      t.delete(new Delete(b("dc")).addColumn(b("f"), b("q")));
      assertEquals(List.of(2L, 1L), timestamps(t.get(new Get(b("dc")).readAllVersions()), "f", "q"));
      t.put(new Put(b("dc")).addColumn(b("f"), b("q"), 5, b("v5")));
      t.delete(new Delete(b("dc")).addColumn(b("f"), b("q"), 2));
      assertEquals(List.of(5L, 1L), timestamps(t.get(new Get(b("dc")).readAllVersions()), "f", "q"));
    }
  }

  @Test
  void deleteOfAFamilyVersion() throws IOException {
    try (Table t = table()) {
      t.put(new Put(b("dfv")).addColumn(b("f"), b("a"), 7, b("a7")).addColumn(b("f"), b("b"), 7, b("b7")));
      t.put(new Put(b("dfv")).addColumn(b("f"), b("a"), 8, b("a8")));
      t.delete(new Delete(b("dfv")).addFamilyVersion(b("f"), 7));
      Result r = t.get(new Get(b("dfv")).readAllVersions());
      assertEquals(List.of(8L), timestamps(r, "f", "a"));
      assertEquals(List.of(), timestamps(r, "f", "b"));
    }
  }

  @Test
  void deleteOfManyRows() throws IOException {
    try (Table t = table()) {
      for (String row : List.of("dm1", "dm2", "dm3")) {
        t.put(new Put(b(row)).addColumn(b("f"), b("q"), b(row)));
      }
      List<Delete> deletes = new ArrayList<>();
      deletes.add(new Delete(b("dm1")));
      deletes.add(new Delete(b("dm3")).addColumns(b("f"), b("q")));
      t.delete(deletes);
      assertTrue(t.get(new Get(b("dm1"))).isEmpty());
      assertEquals("dm2", s(t.get(new Get(b("dm2"))).getValue(b("f"), b("q"))));
      assertTrue(t.get(new Get(b("dm3"))).isEmpty());
    }
  }

  @Test
  void checkAndMutateWritesOnlyWhenTheCheckHolds() throws IOException {
    try (Table t = table()) {
      byte[] row = b("cam");
      t.put(new Put(row).addColumn(b("f"), b("state"), b("new")));
      Put next = new Put(row).addColumn(b("f"), b("state"), b("running"));
      assertFalse(
          t.checkAndMutate(row, b("f")).qualifier(b("state")).ifEquals(b("old")).thenPut(next));
      assertTrue(
          t.checkAndMutate(row, b("f")).qualifier(b("state")).ifEquals(b("new")).thenPut(next));
      assertEquals("running", s(t.get(new Get(row)).getValue(b("f"), b("state"))));

      // HBase's direction: the check is "expected OP stored".
      Delete del = new Delete(row).addColumns(b("f"), b("state"));
      assertFalse(
          t.checkAndMutate(row, b("f"))
              .qualifier(b("state"))
              .ifMatches(CompareOperator.GREATER, b("running"))
              .thenDelete(del));
      assertTrue(
          t.checkAndMutate(row, b("f"))
              .qualifier(b("state"))
              .ifMatches(CompareOperator.LESS, b("aaa"))
              .thenDelete(del));
      assertTrue(t.get(new Get(row)).isEmpty());

      t.put(new Put(row).addColumn(b("f"), b("state"), b("x")));
      RowMutations rm = new RowMutations(row);
      rm.add(new Put(row).addColumn(b("g"), b("moved"), b("x")));
      rm.add(new Delete(row).addColumns(b("f"), b("state")));
      assertTrue(
          t.checkAndMutate(row, b("f"))
              .qualifier(b("state"))
              .ifMatches(CompareOperator.NOT_EQUAL, b("y"))
              .thenMutate(rm));
      assertEquals("cam: g:moved=x", describe(t.get(new Get(row))));
    }
  }

  @Test
  void checkAndMutateIfNotExists() throws IOException {
    try (Table t = table()) {
      byte[] row = b("camx");
      Put first = new Put(row).addColumn(b("f"), b("state"), b("new"));
      if (hbaseThriftGateway()) {
        // HBase 2.6's gateway dereferences the absent expected value (a NullPointerException in
        // its checkAndMutate handler): every ifNotExists through ThriftConnection fails there.
        IOException e =
            assertThrows(
                IOException.class,
                () ->
                    t.checkAndMutate(row, b("f"))
                        .qualifier(b("state"))
                        .ifNotExists()
                        .thenPut(first));
        assertTrue(
            e.getMessage().contains("Internal error processing checkAndMutate"), e.getMessage());
        assertTrue(t.get(new Get(row)).isEmpty());
        return;
      }
      assertTrue(t.checkAndMutate(row, b("f")).qualifier(b("state")).ifNotExists().thenPut(first));
      assertFalse(
          t.checkAndMutate(row, b("f")).qualifier(b("state")).ifNotExists().thenPut(first),
          "it exists now");
      assertEquals("new", s(t.get(new Get(row)).getValue(b("f"), b("state"))));
    }
  }

  @Test
  void incrementCountsAndReturnsTheNewValues() throws IOException {
    try (Table t = table()) {
      Result r = t.increment(new Increment(b("inc")).addColumn(b("g"), b("n"), 5));
      assertEquals(5, Bytes.toLong(r.getValue(b("g"), b("n"))));
      r =
          t.increment(
              new Increment(b("inc")).addColumn(b("g"), b("n"), -2).addColumn(b("g"), b("m"), 10));
      assertEquals(3, Bytes.toLong(r.getValue(b("g"), b("n"))));
      assertEquals(10, Bytes.toLong(r.getValue(b("g"), b("m"))));
      assertEquals(4, t.incrementColumnValue(b("inc"), b("g"), b("n"), 1));
      assertEquals(4, Bytes.toLong(t.get(new Get(b("inc"))).getValue(b("g"), b("n"))));

      t.put(new Put(b("inc")).addColumn(b("g"), b("text"), b("not a counter")));
      assertThrows(
          IOException.class,
          () -> t.increment(new Increment(b("inc")).addColumn(b("g"), b("text"), 1)));
    }
  }

  @Test
  void appendAddsBytesToTheValue() throws IOException {
    try (Table t = table()) {
      Result r = t.append(new Append(b("app")).addColumn(b("g"), b("log"), b("a")));
      assertEquals("a", s(r.getValue(b("g"), b("log"))));
      r = t.append(new Append(b("app")).addColumn(b("g"), b("log"), b("bc")));
      assertEquals("abc", s(r.getValue(b("g"), b("log"))));
      assertEquals("abc", s(t.get(new Get(b("app"))).getValue(b("g"), b("log"))));
    }
  }

  @Test
  void mutateRowAppliesPutsAndDeletesTogether() throws IOException {
    try (Table t = table()) {
      byte[] row = b("mr");
      t.put(new Put(row).addColumn(b("f"), b("old"), b("1")).addColumn(b("g"), b("keep"), b("2")));
      RowMutations rm = new RowMutations(row);
      rm.add(new Put(row).addColumn(b("f"), b("new"), b("3")));
      rm.add(new Delete(row).addColumns(b("f"), b("old")));
      t.mutateRow(rm);
      assertEquals("mr: f:new=3 g:keep=2", describe(t.get(new Get(row))));
    }
  }

  @Test
  void binaryKeysQualifiersAndValuesRoundTrip() throws IOException {
    byte[] row = {0, 1, (byte) 0xff, (byte) 0x80, 'k'};
    byte[] qualifier = {(byte) 0xfe, 0, 'q'};
    byte[] value = new byte[256];
    for (int i = 0; i < value.length; i++) value[i] = (byte) i;
    try (Table t = table()) {
      t.put(new Put(row).addColumn(b("f"), qualifier, value));
      Result r = t.get(new Get(row));
      assertArrayEquals(row, r.getRow());
      Cell c = r.rawCells()[0];
      assertArrayEquals(qualifier, CellUtil.cloneQualifier(c));
      assertArrayEquals(value, CellUtil.cloneValue(c));
      t.put(new Put(row).addColumn(b("f"), new byte[0], b("empty qualifier")));
      assertEquals("empty qualifier", s(t.get(new Get(row)).getValue(b("f"), new byte[0])));
    }
  }

  @Test
  void writesWithADurabilityAndAnExplicitTimestamp() throws IOException {
    try (Table t = table()) {
      t.put(new Put(b("dur"), 42).addColumn(b("g"), b("q"), b("v")).setDurability(Durability.SKIP_WAL));
      Cell c = t.get(new Get(b("dur"))).getColumnLatestCell(b("g"), b("q"));
      assertEquals(42, c.getTimestamp());
      t.put(new Put(b("dur")).addColumn(b("g"), b("q"), b("w")).setDurability(Durability.FSYNC_WAL));
      assertEquals("w", s(t.get(new Get(b("dur"))).getValue(b("g"), b("q"))));
    }
  }

  @Test
  void incrementAndAppendWithoutReturningResults() throws IOException {
    try (Table t = table()) {
      Result r =
          t.increment(
              new Increment(b("quiet")).addColumn(b("g"), b("n"), 3).setReturnResults(false));
      assertTrue(r.isEmpty());
      Result a =
          t.append(new Append(b("quiet")).addColumn(b("g"), b("s"), b("x")).setReturnResults(false));
      assertTrue(a.isEmpty());
      Result stored = t.get(new Get(b("quiet")));
      assertEquals(3, Bytes.toLong(stored.getValue(b("g"), b("n"))));
      assertEquals("x", s(stored.getValue(b("g"), b("s"))));
    }
  }

  @Test
  void getWithAPerFamilyLimitAndOffset() throws IOException {
    try (Table t = table()) {
      Put p = new Put(b("lim"));
      for (String q : List.of("a", "b", "c", "d")) p.addColumn(b("f"), b(q), b(q));
      p.addColumn(b("g"), b("x"), b("x")).addColumn(b("g"), b("y"), b("y"));
      t.put(p);
      Result r = t.get(new Get(b("lim")).setMaxResultsPerColumnFamily(2).setRowOffsetPerColumnFamily(1));
      assertEquals("lim: f:b=b f:c=c g:y=y", describe(r));
    }
  }

  @Test
  void deleteOfARowUpToATimestamp() throws IOException {
    try (Table t = table()) {
      t.put(new Put(b("drt")).addColumn(b("f"), b("q"), 10, b("old")).addColumn(b("g"), b("q"), 30, b("new")));
      t.put(new Put(b("drt")).addColumn(b("f"), b("q"), 20, b("mid")));
      t.delete(new Delete(b("drt"), 20));
      Result r = t.get(new Get(b("drt")).readAllVersions());
      assertEquals("drt: g:q=new", describe(r));
    }
  }

  @Test
  void oneMebibyteValuesAndFiveHundredRowMultiGets() throws IOException {
    byte[] big = new byte[1 << 20];
    for (int i = 0; i < big.length; i++) big[i] = (byte) (i * 31);
    try (Table t = table()) {
      t.put(new Put(b("big")).addColumn(b("g"), b("blob"), big));
      assertArrayEquals(big, t.get(new Get(b("big"))).getValue(b("g"), b("blob")));
      List<Put> puts = new ArrayList<>();
      List<Get> gets = new ArrayList<>();
      for (int i = 0; i < 500; i++) {
        puts.add(new Put(b("many" + i)).addColumn(b("g"), b("i"), Bytes.toBytes(i)));
        gets.add(new Get(b("many" + (499 - i))));
      }
      t.put(puts);
      Result[] results = t.get(gets);
      assertEquals(500, results.length);
      for (int i = 0; i < 500; i++) {
        assertEquals(499 - i, Bytes.toInt(results[i].getValue(b("g"), b("i"))));
      }
    }
  }

  @Test
  void writesToAMissingFamilyFail() throws IOException {
    try (Table t = table()) {
      assertThrows(
          IOException.class, () -> t.put(new Put(b("nf")).addColumn(b("nope"), b("q"), b("v"))));
      assertTrue(t.get(new Get(b("nf"))).isEmpty());
    }
  }
}
