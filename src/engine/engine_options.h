// EngineOptions: what the embedded engine takes beyond the public ConnectionOptions. Internal:
// nothing in include/basalt/ exposes it. Tests use it to run the engine on a fault-injecting
// file system (tests/crash/fault_injection_fs.h).

#ifndef BASALT_ENGINE_ENGINE_OPTIONS_H_
#define BASALT_ENGINE_ENGINE_OPTIONS_H_

#include <functional>

namespace rocksdb {
class Env;
}  // namespace rocksdb

namespace basalt::engine {

struct EngineOptions {
  // The Env through which RocksDB does all its file I/O. Null: the default one (or an in-memory
  // Env with ConnectionOptions::in_memory, which this overrides). Not owned; must outlive the
  // engine.
  rocksdb::Env* env = nullptr;

  // For tests: called by a schema change that makes column families (CreateTable, AddFamily,
  // TruncateTable) once they exist and before the catalog record naming them is written, so
  // that a test can cut the power there: a crash at that point leaves column families that no
  // table owns, which the next open drops. Null: nothing is called.
  std::function<void()> TEST_families_created;

  // For tests: every read (Get, scan, the reads of a write) takes FamilyRowReader's per-column
  // rules alone, with none of the shortcuts that decide a row or a column from its first key and
  // no simple-rows scan. A differential test (row_reader_test.cc) runs each read with the
  // shortcuts and without, and the two must agree cell for cell.
  bool TEST_no_read_fast_paths = false;
};

}  // namespace basalt::engine

#endif  // BASALT_ENGINE_ENGINE_OPTIONS_H_
