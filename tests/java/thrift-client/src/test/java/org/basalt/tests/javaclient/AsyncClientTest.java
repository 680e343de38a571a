package org.basalt.tests.javaclient;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.AdvancedScanResultConsumer;
import org.apache.hadoop.hbase.client.AsyncAdmin;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.AsyncTable;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.CheckAndMutateResult;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * HBase's asynchronous client (ConnectionFactory.createAsyncConnection, AsyncAdmin, AsyncTable)
 * over HBase's RPC, bootstrapped as the blocking native client is: native mode only
 * (scripts/java-suite.sh --client native runs it; in thrift mode it fails at the connection). Each
 * test waits on every future with a bound, so a call that never completes fails that test.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AsyncClientTest {
  private static final long WAIT_SECONDS = 60;

  private final Target target = Target.get();
  private AsyncConnection connection;
  private TableName name;

  private static <T> T await(CompletableFuture<T> future) throws Exception {
    try {
      return future.get(WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Exception) throw (Exception) e.getCause();
      throw e;
    }
  }

  private static byte[] b(String s) {
    return Bytes.toBytes(s);
  }

  private static String s(byte[] bytes) {
    return bytes == null ? null : Bytes.toString(bytes);
  }

  private static TableDescriptor table(TableName name, String... families) {
    TableDescriptorBuilder builder = TableDescriptorBuilder.newBuilder(name);
    for (String f : families) {
      builder.setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(b(f)).setMaxVersions(3).build());
    }
    return builder.build();
  }

  private static List<String> rowsOf(List<Result> results) {
    List<String> out = new ArrayList<>();
    for (Result r : results) out.add(s(r.getRow()));
    return out;
  }

  @BeforeAll
  void connectAndCreateTheTable() throws Exception {
    connection = await(target.connectAsync());
    name = TableName.valueOf(target.uniqueName("jasync"));
    await(connection.getAdmin().createTable(table(name, "f", "g")));
  }

  @AfterAll
  void dropTheTableAndClose() throws Exception {
    try {
      AsyncAdmin admin = connection.getAdmin();
      if (await(admin.tableExists(name))) {
        if (await(admin.isTableEnabled(name))) await(admin.disableTable(name));
        await(admin.deleteTable(name));
      }
    } finally {
      connection.close();
    }
  }

  private AsyncTable<AdvancedScanResultConsumer> t() {
    return connection.getTable(name);
  }

  @Test
  void adminCreatesListsDisablesAndDeletesATable() throws Exception {
    AsyncAdmin admin = connection.getAdmin();
    TableName other = TableName.valueOf(target.uniqueName("jasyncadmin"));
    assertFalse(await(admin.tableExists(other)));
    await(admin.createTable(table(other, "x")));
    try {
      assertTrue(await(admin.tableExists(other)));
      assertTrue(await(admin.isTableEnabled(other)));
      assertTrue(await(admin.isTableAvailable(other)));
      List<TableName> listed = await(admin.listTableNames(Pattern.compile(other.getNameAsString()), false));
      assertEquals(List.of(other), listed);
      assertTrue(await(admin.listTableNames()).contains(name));
      TableDescriptor got = await(admin.getDescriptor(other));
      assertEquals(3, got.getColumnFamily(b("x")).getMaxVersions());

      Exception twice = assertThrows(Exception.class, () -> await(admin.createTable(table(other, "x"))));
      assertTrue(twice.toString().contains(other.getNameAsString()), twice.toString());
      Exception enabled = assertThrows(Exception.class, () -> await(admin.deleteTable(other)));
      assertInstanceOf(IOException.class, enabled, "a table must be disabled to be deleted");

      await(admin.disableTable(other));
      assertTrue(await(admin.isTableDisabled(other)));
      assertFalse(await(admin.isTableEnabled(other)));
      await(admin.deleteTable(other));
      assertFalse(await(admin.tableExists(other)));
      assertFalse(await(admin.listTableNames()).contains(other));
    } finally {
      if (await(admin.tableExists(other))) {
        if (await(admin.isTableEnabled(other))) await(admin.disableTable(other));
        await(admin.deleteTable(other));
      }
    }
  }

  @Test
  void putThenGet() throws Exception {
    await(t().put(new Put(b("pg")).addColumn(b("f"), b("a"), b("1")).addColumn(b("g"), b("b"), b("2"))));
    Result r = await(t().get(new Get(b("pg"))));
    assertEquals("pg", s(r.getRow()));
    assertEquals(2, r.size());
    assertEquals("1", s(r.getValue(b("f"), b("a"))));
    assertEquals("2", s(r.getValue(b("g"), b("b"))));
    assertEquals(1, await(t().get(new Get(b("pg")).addFamily(b("g")))).size());
    Result missing = await(t().get(new Get(b("pg-missing"))));
    assertTrue(missing.isEmpty());
    assertNull(missing.getRow());
    assertTrue(await(t().exists(new Get(b("pg")))));
    assertFalse(await(t().exists(new Get(b("pg-missing")))));
  }

  @Test
  void putsOfManyRowsAndGetsOfMany() throws Exception {
    List<Put> puts = new ArrayList<>();
    for (int i = 0; i < 20; i++) puts.add(new Put(b("many" + i)).addColumn(b("f"), b("n"), Bytes.toBytes(i)));
    await(t().putAll(puts));
    List<Get> gets = List.of(new Get(b("many7")), new Get(b("many-none")), new Get(b("many19")));
    List<Result> got = await(t().getAll(gets));
    assertEquals(3, got.size());
    assertEquals(7, Bytes.toInt(got.get(0).getValue(b("f"), b("n"))));
    assertTrue(got.get(1).isEmpty());
    assertEquals(19, Bytes.toInt(got.get(2).getValue(b("f"), b("n"))));
  }

  @Test
  void scanAllInOrderForwardAndReversedWithALimit() throws Exception {
    List<Put> puts = new ArrayList<>();
    List<String> rows = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      String row = String.format("scan%02d", i);
      rows.add(row);
      puts.add(new Put(b(row)).addColumn(b("f"), b("q"), b("v" + i)));
    }
    await(t().putAll(puts));
    Scan base = new Scan().withStartRow(b("scan")).withStopRow(b("scan~"));
    assertEquals(rows, rowsOf(await(t().scanAll(new Scan(base)))));
    assertEquals(rows, rowsOf(await(t().scanAll(new Scan(base).setCaching(1)))), "one row a call");
    assertEquals(rows.subList(0, 5), rowsOf(await(t().scanAll(new Scan(base).setLimit(5)))));
    assertEquals(
        rows.subList(0, 5),
        rowsOf(await(t().scanAll(new Scan(base).setLimit(5).setCaching(2)))),
        "a limit across calls");

    List<String> reversed = new ArrayList<>(rows);
    java.util.Collections.reverse(reversed);
    Scan back = new Scan().withStartRow(b("scan~")).withStopRow(b("scan")).setReversed(true);
    assertEquals(reversed, rowsOf(await(t().scanAll(back))));
    assertEquals(reversed.subList(0, 3), rowsOf(await(t().scanAll(new Scan(back).setLimit(3)))));
    assertEquals(
        List.of("scan07", "scan06", "scan05"),
        rowsOf(
            await(
                t().scanAll(
                        new Scan()
                            .withStartRow(b("scan07"))
                            .withStopRow(b("scan04"))
                            .setReversed(true)
                            .setCaching(1)))),
        "reversed: from the start row, inclusive, down to the stop row, exclusive");
  }

  @Test
  void checkAndMutateWritesOnlyWhenTheCheckHolds() throws Exception {
    byte[] row = b("cam");
    CheckAndMutateResult first =
        await(
            t().checkAndMutate(
                    CheckAndMutate.newBuilder(row)
                        .ifNotExists(b("f"), b("state"))
                        .build(new Put(row).addColumn(b("f"), b("state"), b("new")))));
    assertTrue(first.isSuccess());
    CheckAndMutateResult again =
        await(
            t().checkAndMutate(
                    CheckAndMutate.newBuilder(row)
                        .ifNotExists(b("f"), b("state"))
                        .build(new Put(row).addColumn(b("f"), b("state"), b("again")))));
    assertFalse(again.isSuccess(), "it exists now");
    assertFalse(
        await(
                t().checkAndMutate(
                        CheckAndMutate.newBuilder(row)
                            .ifEquals(b("f"), b("state"), b("old"))
                            .build(new Put(row).addColumn(b("f"), b("state"), b("running")))))
            .isSuccess());
    assertTrue(
        await(
                t().checkAndMutate(
                        CheckAndMutate.newBuilder(row)
                            .ifMatches(b("f"), b("state"), CompareOperator.EQUAL, b("new"))
                            .build(new Put(row).addColumn(b("f"), b("state"), b("running")))))
            .isSuccess());
    assertEquals("running", s(await(t().get(new Get(row))).getValue(b("f"), b("state"))));
    // The fluent form, with a delete.
    assertTrue(
        await(
            t().checkAndMutate(row, b("f"))
                .qualifier(b("state"))
                .ifEquals(b("running"))
                .thenDelete(new Delete(row).addColumns(b("f"), b("state")))));
    assertTrue(await(t().get(new Get(row))).isEmpty());
  }

  @Test
  void incrementCountsAndReturnsTheNewValues() throws Exception {
    Result r = await(t().increment(new Increment(b("inc")).addColumn(b("g"), b("n"), 5)));
    assertEquals(5, Bytes.toLong(r.getValue(b("g"), b("n"))));
    r = await(t().increment(new Increment(b("inc")).addColumn(b("g"), b("n"), -2).addColumn(b("g"), b("m"), 10)));
    assertEquals(3, Bytes.toLong(r.getValue(b("g"), b("n"))));
    assertEquals(10, Bytes.toLong(r.getValue(b("g"), b("m"))));
    assertEquals(4L, await(t().incrementColumnValue(b("inc"), b("g"), b("n"), 1)));
    assertEquals(4, Bytes.toLong(await(t().get(new Get(b("inc")))).getValue(b("g"), b("n"))));
  }

  @Test
  void batchOfPutsGetsAndDeletes() throws Exception {
    await(t().put(new Put(b("bt-old")).addColumn(b("f"), b("q"), b("gone soon"))));
    await(t().put(new Put(b("bt-read")).addColumn(b("f"), b("q"), b("read me"))));
    List<Row> actions =
        List.of(
            new Put(b("bt-new")).addColumn(b("f"), b("q"), b("written")),
            new Get(b("bt-read")),
            new Delete(b("bt-old")),
            new Get(b("bt-none")),
            new Increment(b("bt-count")).addColumn(b("g"), b("n"), 2));
    List<Object> results = await(t().batchAll(actions));
    assertEquals(5, results.size());
    assertTrue(((Result) results.get(0)).isEmpty(), "a put's result is empty");
    assertEquals("read me", s(((Result) results.get(1)).getValue(b("f"), b("q"))));
    assertTrue(((Result) results.get(2)).isEmpty(), "a delete's result is empty");
    assertTrue(((Result) results.get(3)).isEmpty(), "a missing row");
    assertEquals(2, Bytes.toLong(((Result) results.get(4)).getValue(b("g"), b("n"))));
    assertEquals("written", s(await(t().get(new Get(b("bt-new")))).getValue(b("f"), b("q"))));
    assertTrue(await(t().get(new Get(b("bt-old")))).isEmpty());
  }

  @Test
  void writesToAMissingFamilyFail() throws Exception {
    Exception e =
        assertThrows(
            Exception.class,
            () -> await(t().put(new Put(b("nf")).addColumn(b("nope"), b("q"), b("v")))));
    assertInstanceOf(IOException.class, e);
    assertTrue(await(t().get(new Get(b("nf")))).isEmpty());
  }

  @Test
  void binaryRowsRoundTrip() throws Exception {
    byte[] row = {0, (byte) 0xff, 1, (byte) 0x80};
    byte[] value = new byte[300];
    for (int i = 0; i < value.length; i++) value[i] = (byte) i;
    await(t().put(new Put(row).addColumn(b("g"), new byte[] {(byte) 0xfe, 0}, value)));
    Result r = await(t().get(new Get(row)));
    assertArrayEquals(row, r.getRow());
    assertArrayEquals(value, r.getValue(b("g"), new byte[] {(byte) 0xfe, 0}));
  }
}
