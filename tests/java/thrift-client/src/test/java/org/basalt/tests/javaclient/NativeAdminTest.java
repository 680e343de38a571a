package org.basalt.tests.javaclient;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.NamespaceExistException;
import org.apache.hadoop.hbase.NamespaceNotFoundException;
import org.apache.hadoop.hbase.TableExistsException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.TableNotDisabledException;
import org.apache.hadoop.hbase.TableNotEnabledException;
import org.apache.hadoop.hbase.TableNotFoundException;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.AsyncAdmin;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/**
 * What HBase's shell and other native-client applications ask an Admin beyond what AdminTest
 * asks through both clients: a table's regions and where they are served (the native client
 * routes every call by them), the exception classes a refusal arrives as (the client rebuilds the
 * server's exception by its class name, and the shell reports by that class), and the namespace
 * and truncate calls of the asynchronous Admin. Native mode only.
 */
class NativeAdminTest extends ThriftClientTest {

  private static <T> T await(CompletableFuture<T> future) throws Exception {
    try {
      return future.get(60, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Exception) throw (Exception) e.getCause();
      throw e;
    }
  }

  private static TableDescriptor oneFamily(TableName name) {
    return TableDescriptorBuilder.newBuilder(name)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.of("f"))
        .build();
  }

  private static List<String> startKeys(List<RegionInfo> regions) {
    List<String> out = new ArrayList<>();
    for (RegionInfo r : regions) out.add(Bytes.toStringBinary(r.getStartKey()));
    return out;
  }

  @Test
  void aPresplitTableHasItsRegionsInOrderServedWhereTheClientCanReach() throws IOException {
    TableName name = TableName.valueOf(target.uniqueName("jregions"));
    byte[][] splits = {b("g"), b("p")};
    try (Admin admin = connection.getAdmin()) {
      admin.createTable(oneFamily(name), splits);
      dropLater(name);
      List<RegionInfo> regions = sorted(admin.getRegions(name));
      assertEquals(List.of("", "g", "p"), startKeys(regions));
      assertArrayEquals(b("g"), regions.get(0).getEndKey());
      assertArrayEquals(new byte[0], regions.get(2).getEndKey(), "the last region has no end");
      for (RegionInfo r : regions) assertEquals(name, r.getTable());
    }
    try (RegionLocator locator = connection.getRegionLocator(name)) {
      List<HRegionLocation> locations = locator.getAllRegionLocations();
      assertEquals(3, locations.size());
      for (HRegionLocation l : locations) {
        assertEquals(target.host, l.getServerName().getHostname(), "the advertised host");
      }
      assertEquals("g", s(locator.getRegionLocation(b("h")).getRegion().getStartKey()));
      assertArrayEquals(new byte[][] {new byte[0], b("g"), b("p")}, locator.getStartKeys());
    }
    // Each region takes the rows of its range, and a scan reads them all in order.
    try (Table table = connection.getTable(name)) {
      for (String row : List.of("z", "a", "m", "g", "p")) {
        table.put(new Put(b(row)).addColumn(b("f"), b("q"), b(row)));
      }
      assertEquals("m", s(table.get(new Get(b("m"))).getValue(b("f"), b("q"))));
    }
    assertEquals(List.of("a", "g", "m", "p", "z"), rows(name, new Scan()));
    assertEquals(List.of("m", "p"), rows(name, new Scan().withStartRow(b("h")).withStopRow(b("q"))));
  }

  @Test
  void refusalsArriveAsHBasesExceptionClasses() throws IOException {
    TableName name = createTable("jrefuse", "f");
    TableName missing = TableName.valueOf(target.uniqueName("jmissing"));
    String ns = target.uniqueName("jrefusens");
    try (Admin admin = connection.getAdmin()) {
      assertThrows(TableExistsException.class, () -> admin.createTable(oneFamily(name)));
      assertThrows(TableNotDisabledException.class, () -> admin.deleteTable(name));
      assertThrows(TableNotDisabledException.class, () -> admin.enableTable(name));
      assertThrows(TableNotFoundException.class, () -> admin.getDescriptor(missing));
      assertThrows(TableNotFoundException.class, () -> admin.disableTable(missing));
      assertFalse(admin.tableExists(missing));
      admin.disableTable(name);
      assertThrows(TableNotEnabledException.class, () -> admin.disableTable(name));
      admin.enableTable(name);
      assertTrue(admin.isTableEnabled(name));

      assertThrows(NamespaceNotFoundException.class, () -> admin.getNamespaceDescriptor(ns));
      admin.createNamespace(NamespaceDescriptor.create(ns).build());
      try {
        assertThrows(
            NamespaceExistException.class,
            () -> admin.createNamespace(NamespaceDescriptor.create(ns).build()));
      } finally {
        admin.deleteNamespace(ns);
      }
      assertThrows(NamespaceNotFoundException.class, () -> admin.deleteNamespace(ns));
    }
  }

  @Test
  void asyncAdminNamespacesHoldTablesAndTruncateKeepsTheSplits() throws Exception {
    String ns = target.uniqueName("jasyncns");
    TableName name = TableName.valueOf(ns, "t");
    try (AsyncConnection async = target.connectAsync().get(60, TimeUnit.SECONDS)) {
      AsyncAdmin admin = async.getAdmin();
      await(admin.createNamespace(NamespaceDescriptor.create(ns).addConfiguration("k", "v").build()));
      try {
        assertEquals("v", await(admin.getNamespaceDescriptor(ns)).getConfigurationValue("k"));
        assertTrue(
            await(admin.listNamespaceDescriptors()).stream().anyMatch(d -> d.getName().equals(ns)));
        assertTrue(await(admin.listNamespaces()).contains("default"));

        await(admin.createTable(oneFamily(name), new byte[][] {b("m")}));
        assertTrue(await(admin.tableExists(name)));
        assertEquals(List.of(name), await(admin.listTableNamesByNamespace(ns)));
        assertEquals(name, await(admin.getDescriptor(name)).getTableName());
        await(async.getTable(name).put(new Put(b("x")).addColumn(b("f"), b("q"), b("v"))));
        Exception notEmpty = assertThrows(Exception.class, () -> await(admin.deleteNamespace(ns)));
        assertTrue(notEmpty instanceof IOException, notEmpty.toString());

        await(admin.disableTable(name));
        await(admin.truncateTable(name, true));
        assertTrue(await(admin.isTableEnabled(name)), "truncate leaves the table enabled");
        assertEquals(List.of("", "m"), startKeys(sorted(await(admin.getRegions(name)))));
        assertTrue(await(async.getTable(name).scanAll(new Scan())).isEmpty(), "emptied");

        await(admin.disableTable(name));
        await(admin.truncateTable(name, false));
        assertEquals(List.of(""), startKeys(await(admin.getRegions(name))), "splits dropped");
        await(admin.disableTable(name));
        await(admin.deleteTable(name));
      } finally {
        if (await(admin.tableExists(name))) {
          if (await(admin.isTableEnabled(name))) await(admin.disableTable(name));
          await(admin.deleteTable(name));
        }
        await(admin.deleteNamespace(ns));
      }
      assertFalse(await(admin.listNamespaces()).contains(ns));
    }
  }

  private static List<RegionInfo> sorted(List<RegionInfo> regions) {
    List<RegionInfo> out = new ArrayList<>(regions);
    out.sort(RegionInfo.COMPARATOR);
    return out;
  }

  @Test
  void descriptorsOfNamedTables() throws IOException {
    TableName a = createTable("jdescs", "f");
    TableName b = createTable("jdescs", "g", "h");
    try (Admin admin = connection.getAdmin()) {
      List<TableDescriptor> got = admin.listTableDescriptors(List.of(b, a));
      List<TableName> names = new ArrayList<>();
      for (TableDescriptor d : got) names.add(d.getTableName());
      names.sort(null);
      List<TableName> wanted = new ArrayList<>(List.of(a, b));
      wanted.sort(null);
      assertEquals(wanted, names);
      assertEquals(
          List.of("g", "h"),
          Arrays.stream(admin.getDescriptor(b).getColumnFamilyNames().toArray(new byte[0][]))
              .map(Bytes::toString)
              .sorted()
              .toList());
      assertTrue(admin.isTableAvailable(a));
    }
  }
}
