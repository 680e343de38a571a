#include "basalt/types.h"

namespace basalt {

std::string_view CellTypeName(CellType type) {
  switch (type) {
    case CellType::kPut:
      return "Put";
    case CellType::kDelete:
      return "Delete";
    case CellType::kDeleteFamilyVersion:
      return "DeleteFamilyVersion";
    case CellType::kDeleteColumn:
      return "DeleteColumn";
    case CellType::kDeleteFamily:
      return "DeleteFamily";
  }
  return "Unknown";
}

std::string_view DurabilityName(Durability d) {
  switch (d) {
    case Durability::kUseDefault:
      return "USE_DEFAULT";
    case Durability::kSkipWal:
      return "SKIP_WAL";
    case Durability::kAsyncWal:
      return "ASYNC_WAL";
    case Durability::kSyncWal:
      return "SYNC_WAL";
    case Durability::kFsyncWal:
      return "FSYNC_WAL";
  }
  return "UNKNOWN";
}

std::string_view CompareOpName(CompareOp op) {
  switch (op) {
    case CompareOp::kLess:
      return "LESS";
    case CompareOp::kLessOrEqual:
      return "LESS_OR_EQUAL";
    case CompareOp::kEqual:
      return "EQUAL";
    case CompareOp::kNotEqual:
      return "NOT_EQUAL";
    case CompareOp::kGreaterOrEqual:
      return "GREATER_OR_EQUAL";
    case CompareOp::kGreater:
      return "GREATER";
    case CompareOp::kNoOp:
      return "NO_OP";
  }
  return "UNKNOWN";
}

std::string_view CompareOpSymbol(CompareOp op) {
  switch (op) {
    case CompareOp::kLess:
      return "<";
    case CompareOp::kLessOrEqual:
      return "<=";
    case CompareOp::kEqual:
      return "=";
    case CompareOp::kNotEqual:
      return "!=";
    case CompareOp::kGreaterOrEqual:
      return ">=";
    case CompareOp::kGreater:
      return ">";
    case CompareOp::kNoOp:
      return "";
  }
  return "";
}

bool CompareOpHolds(CompareOp op, int cmp) {
  switch (op) {
    case CompareOp::kLess:
      return cmp < 0;
    case CompareOp::kLessOrEqual:
      return cmp <= 0;
    case CompareOp::kEqual:
      return cmp == 0;
    case CompareOp::kNotEqual:
      return cmp != 0;
    case CompareOp::kGreaterOrEqual:
      return cmp >= 0;
    case CompareOp::kGreater:
      return cmp > 0;
    case CompareOp::kNoOp:
      return false;
  }
  return false;
}

}  // namespace basalt
