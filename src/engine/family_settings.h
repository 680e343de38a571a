// The settings of a family that decide which cells are visible: read by the read path and by the
// compaction filter. Altering a family swaps in a new FamilySettings; the compaction filter of a
// running compaction keeps the one it started with.

#ifndef BASALT_ENGINE_FAMILY_SETTINGS_H_
#define BASALT_ENGINE_FAMILY_SETTINGS_H_

#include <cstdint>
#include <memory>

#include "basalt/schema.h"
#include "util/mutex.h"

namespace basalt::engine {

struct FamilySettings {
  int32_t max_versions = 1;
  int32_t min_versions = 0;
  int64_t ttl_ms = INT64_MAX;  // INT64_MAX: forever
  KeepDeletedCells keep_deleted_cells = KeepDeletedCells::kFalse;

  static FamilySettings From(const FamilyDescriptor& d) {
    FamilySettings s;
    s.max_versions = d.max_versions;
    s.min_versions = d.min_versions;
    s.ttl_ms = d.ttl_seconds == kForeverTtl ? INT64_MAX : int64_t{d.ttl_seconds} * 1000;
    s.keep_deleted_cells = d.keep_deleted_cells;
    return s;
  }

  // Whether a cell with timestamp `ts` has outlived the TTL at time `now_ms`.
  bool Expired(int64_t ts, int64_t now_ms) const {
    return ttl_ms != INT64_MAX && ts < now_ms - ttl_ms;
  }
};

// A FamilySettings that can be replaced while readers hold the old one. Thread-safe.
class FamilySettingsCell {
 public:
  explicit FamilySettingsCell(FamilySettings s)
      : current_(std::make_shared<const FamilySettings>(s)) {}

  std::shared_ptr<const FamilySettings> Get() const {
    util::MutexLock l(mu_);
    return current_;
  }
  void Set(FamilySettings s) {
    auto next = std::make_shared<const FamilySettings>(s);
    util::MutexLock l(mu_);
    current_ = std::move(next);
  }

 private:
  mutable util::Mutex mu_;
  std::shared_ptr<const FamilySettings> current_ BASALT_GUARDED_BY(mu_);
};

}  // namespace basalt::engine

#endif  // BASALT_ENGINE_FAMILY_SETTINGS_H_
