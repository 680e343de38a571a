// libFuzzer target for the native RPC's message decoders behind the frames: a call's request
// message and cell block as ClientService and MasterService read them (hbase_proto's client and
// schema codecs, the KeyValue cell-block reader, meta's rows), on an in-memory store with one
// table. The input's first byte picks the method, the next two the split between the request's
// bytes and the cell block. For any input no decoder crashes, every error names an HBase
// exception class, and every answer is a message the client could parse.
// Any violation traps, so the fuzzer reports it as a crash.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "basalt/connection.h"
#include "server/hbase_rpc/client_service.h"
#include "server/hbase_rpc/master_service.h"

namespace {

namespace rpc = basalt::hbase_rpc;
namespace native = basalt::server::hbase_rpc;

void Check(bool condition) {
  if (!condition) __builtin_trap();
}

struct Fixture {
  std::unique_ptr<basalt::Connection> conn;
  native::RegionDirectory regions{1000};
  basalt::server::ScannerRegistry scanners{std::chrono::seconds(60), 64, 64};
  std::unique_ptr<native::MetaTable> meta;
  std::unique_ptr<native::ClientService> client;
  std::unique_ptr<native::MasterService> master;

  Fixture() {
    conn = *basalt::Connection::Open("mem:");
    basalt::TableDescriptor desc(basalt::TableName("default", "t"));
    desc.AddFamily(basalt::FamilyDescriptor("f"));
    Check(conn->admin().CreateTable(desc).ok());
    meta = std::make_unique<native::MetaTable>(conn->admin(), regions,
                                               rpc::ServerIdentity{"fuzz", "localhost", 1, 1});
    client = std::make_unique<native::ClientService>(*conn, regions, *meta, scanners);
    master = std::make_unique<native::MasterService>(*conn, regions);
  }
};

constexpr const char* kMethods[] = {
    "Get",
    "Mutate",
    "Scan",
    "Multi",
    "CreateTable",
    "ModifyTable",
    "GetTableDescriptors",
    "AddColumn",
    "CreateNamespace",
    "truncateTable",
    "DeleteTable",
    "DisableTable",
    "EnableTable",
    "GetTableState",
    "getProcedureResult",
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Fixture* fixture = new Fixture();
  if (size < 3) return 0;
  std::string_view input(reinterpret_cast<const char*>(data), size);
  const size_t method = static_cast<uint8_t>(input[0]) % std::size(kMethods);
  const size_t split = (static_cast<uint8_t>(input[1]) << 8 | static_cast<uint8_t>(input[2]));
  input.remove_prefix(3);
  rpc::DecodedCall call;
  call.header.set_call_id(1);
  call.header.set_method_name(kMethods[method]);
  call.has_param = true;
  call.param = input.substr(0, std::min(split, input.size()));
  call.cell_block = input.substr(call.param.size());
  rpc::RpcService& service = method < 4 ? static_cast<rpc::RpcService&>(*fixture->client)
                                        : static_cast<rpc::RpcService&>(*fixture->master);
  auto answer = service.Call(call, rpc::Caller{"127.0.0.1"});
  if (auto* error = std::get_if<rpc::RpcError>(&answer)) {
    Check(error->exception_class.rfind("org.apache.hadoop.hbase.", 0) == 0 ||
          error->exception_class == "java.io.IOException");
  }
  return 0;
}
