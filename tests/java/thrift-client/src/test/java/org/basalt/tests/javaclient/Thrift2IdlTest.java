package org.basalt.tests.javaclient;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.LogQueryFilter;
import org.apache.hadoop.hbase.client.OnlineLogRecord;
import org.apache.hadoop.hbase.thrift2.generated.THBaseService;
import org.apache.hadoop.hbase.thrift2.generated.THRegionLocation;
import org.apache.hadoop.hbase.thrift2.generated.TIOError;
import org.apache.hadoop.hbase.thrift2.generated.TLogQueryFilter;
import org.apache.hadoop.hbase.thrift2.generated.TServerName;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolUtil;
import org.apache.thrift.protocol.TStruct;
import org.apache.thrift.protocol.TType;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.layered.TFramedTransport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Thrift2 calls as a client generated from HBase's IDL makes them (hbase-thrift's own
 * THBaseService.Client), and through ThriftAdmin where it has them: the slow-log calls and
 * grant/revoke, which HBase answers in its default configuration (no slow log buffer, no access
 * controller).
 */
class Thrift2IdlTest extends ThriftClientTest {
  private TTransport transport;
  private THBaseService.Client client;

  @BeforeEach
  void open() throws TException {
    TSocket socket = new TSocket(target.host, target.thrift2Port);
    socket.setTimeout(60_000);
    transport = target.framed ? new TFramedTransport(socket) : socket;
    transport.open();
    client = new THBaseService.Client(new TBinaryProtocol(transport));
  }

  @AfterEach
  void close() {
    transport.close();
  }

  /** The region server of a table's first region: the server a slow-log call names. */
  private TServerName serverOf(TableName table) throws TException {
    List<THRegionLocation> locations =
        client.getAllRegionLocations(ByteBuffer.wrap(table.getName()));
    assertFalse(locations.isEmpty());
    return locations.get(0).getServerName();
  }

  @Test
  void slowLogsOfAServerWithoutABufferAreEmptyAndNeverCleared() throws Exception {
    TServerName server = serverOf(createTable("jslow", "f"));
    assertEquals(List.of(), client.getSlowLogResponses(Set.of(), new TLogQueryFilter()));
    assertEquals(List.of(), client.getSlowLogResponses(Set.of(server), new TLogQueryFilter()));
    assertEquals(List.of(), client.clearSlowLogResponses(Set.of()));
    assertEquals(List.of(false), client.clearSlowLogResponses(Set.of(server)));

    ServerName name =
        ServerName.valueOf(server.getHostName(), server.getPort(), server.getStartCode());
    try (Admin admin = connection.getAdmin()) {
      List<OnlineLogRecord> records = admin.getSlowLogResponses(Set.of(name), new LogQueryFilter());
      assertEquals(List.of(), records);
      assertEquals(List.of(false), admin.clearSlowLogResponses(Set.of(name)));
    }
  }

  /**
   * grant and revoke are in the Thrift2 IDL from HBase 3.0 on (HBASE-26037), not in HBase 2.6's,
   * so hbase-thrift 2.6 has no client method for them: the call is written by hand, as a client
   * generated from the newer IDL writes it.
   */
  private void rawAccessControlCall(String method) throws TException, IOException {
    TProtocol out = new TBinaryProtocol(transport);
    out.writeMessageBegin(new TMessage(method, TMessageType.CALL, 7));
    out.writeStructBegin(new TStruct(method + "_args"));
    out.writeFieldBegin(new TField("info", TType.STRUCT, (short) 1));
    out.writeStructBegin(new TStruct("TAccessControlEntity"));
    out.writeFieldBegin(new TField("username", TType.STRING, (short) 1));
    out.writeString("alice");
    out.writeFieldEnd();
    out.writeFieldBegin(new TField("scope", TType.I32, (short) 2));
    out.writeI32(1); // NAMESPACE
    out.writeFieldEnd();
    out.writeFieldBegin(new TField("actions", TType.STRING, (short) 4));
    out.writeString("RW");
    out.writeFieldEnd();
    out.writeFieldBegin(new TField("nsName", TType.STRING, (short) 6));
    out.writeString("default");
    out.writeFieldEnd();
    out.writeFieldStop();
    out.writeStructEnd();
    out.writeFieldEnd();
    out.writeFieldStop();
    out.writeStructEnd();
    out.writeMessageEnd();
    transport.flush();

    TProtocol in = new TBinaryProtocol(transport);
    TMessage reply = in.readMessageBegin();
    if (reply.type == TMessageType.EXCEPTION) {
      TApplicationException e = TApplicationException.readFrom(in);
      in.readMessageEnd();
      throw e;
    }
    // The whole reply is read before anything is thrown: the connection carries the next call.
    TIOError error = null;
    short answered = -1;
    in.readStructBegin();
    for (TField field = in.readFieldBegin(); field.type != TType.STOP; field = in.readFieldBegin()) {
      if (field.id == 1 && field.type == TType.STRUCT) {
        error = new TIOError();
        error.read(in);
      } else {
        answered = field.id;
        TProtocolUtil.skip(in, field.type);
      }
      in.readFieldEnd();
    }
    in.readStructEnd();
    in.readMessageEnd();
    if (error != null) throw error;
    fail(method + " answered field " + answered + " instead of an error");
  }

  @Test
  void grantAndRevokeAreAnsweredAsWithoutAnAccessController() throws Exception {
    for (String method : List.of("grant", "revoke")) {
      try {
        rawAccessControlCall(method);
      } catch (TIOError e) {
        // HBase 3.0's answer, and basalt's.
        assertTrue(target.isBasalt(), "HBase 2.6 has no " + method + ": " + e);
        assertTrue(e.getMessage().contains("AccessController is not loaded"), e.getMessage());
        assertFalse(e.isCanRetry());
      } catch (TApplicationException e) {
        assertFalse(target.isBasalt(), "basalt serves " + method + ": " + e);
        assertEquals(TApplicationException.UNKNOWN_METHOD, e.getType(), e.toString());
      }
      // The connection goes on.
      assertFalse(client.listNamespaces().isEmpty());
    }
  }
}
