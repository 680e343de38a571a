#include "shell/family_options.h"

#include <gtest/gtest.h>

#include "shell/parser.h"

namespace basalt::shell {
namespace {

// The options of the first family hash in `command` (create 't', {NAME => 'f', ...}), applied
// one by one as the shell's create does.
Status ApplyHash(std::string_view command, FamilyDescriptor* f) {
  auto parsed = ParseCommands(command);
  if (!parsed.ok()) return parsed.status();
  for (const HashEntry& e : (*parsed)[0].args[1].entries) {
    if (e.key.text == "NAME") continue;
    BASALT_RETURN_IF_ERROR(ApplyFamilyOption(e.key.text, e.key.text, e.value, f));
  }
  return Status::OK();
}

TEST(FamilyOptionsTest, ShellHashAndCommandLineListSetTheSameFamily) {
  FamilyDescriptor from_shell("f");
  ASSERT_TRUE(ApplyHash("create 't', {NAME => 'f', VERSIONS => 3, MIN_VERSIONS => 1, TTL => "
                        "FOREVER, KEEP_DELETED_CELLS => 'ttl', COMPRESSION => 'zstd', "
                        "BLOOMFILTER => 'ROWCOL', BLOCKSIZE => 4096}",
                        &from_shell)
                  .ok());
  FamilyDescriptor from_cli("f");
  ASSERT_TRUE(ApplyFamilyOptionList("versions=3,min_versions=1,ttl=forever,keep_deleted_cells=ttl,"
                                    "compression=zstd,bloom=rowcol,blocksize=4096",
                                    &from_cli)
                  .ok());
  EXPECT_EQ(from_cli.max_versions, 3);
  EXPECT_EQ(from_cli.min_versions, 1);
  EXPECT_EQ(from_cli.ttl_seconds, kForeverTtl);
  EXPECT_EQ(from_cli.keep_deleted_cells, KeepDeletedCells::kTtl);
  EXPECT_EQ(from_cli.compression, Compression::kZstd);
  EXPECT_EQ(from_cli.bloom_filter, BloomFilter::kRowCol);
  EXPECT_EQ(from_cli.block_size, 4096);
  EXPECT_EQ(from_shell.max_versions, from_cli.max_versions);
  EXPECT_EQ(from_shell.min_versions, from_cli.min_versions);
  EXPECT_EQ(from_shell.ttl_seconds, from_cli.ttl_seconds);
  EXPECT_EQ(from_shell.keep_deleted_cells, from_cli.keep_deleted_cells);
  EXPECT_EQ(from_shell.compression, from_cli.compression);
  EXPECT_EQ(from_shell.bloom_filter, from_cli.bloom_filter);
  EXPECT_EQ(from_shell.block_size, from_cli.block_size);
}

TEST(FamilyOptionsTest, BothFormsRefuseTheSameValuesNamingTheOptionAsWritten) {
  FamilyDescriptor f("f");
  Status shell = ApplyHash("create 't', {NAME => 'f', VERSIONS => 0}", &f);
  Status cli = ApplyFamilyOptionList("versions=0", &f);
  EXPECT_TRUE(shell.IsInvalidArgument());
  EXPECT_TRUE(cli.IsInvalidArgument());
  EXPECT_EQ(shell.message(), "VERSIONS must be between 1 and 2147483647, not 0");
  EXPECT_EQ(cli.message(), "versions must be between 1 and 2147483647, not 0");
  EXPECT_EQ(ApplyFamilyOptionList("ttl=soon", &f).message(),
            "ttl (seconds) must be an integer, not 'soon'");
  EXPECT_TRUE(ApplyFamilyOptionList("compression=brotli", &f).IsInvalidArgument());
  EXPECT_TRUE(
      ApplyHash("create 't', {NAME => 'f', COMPRESSION => 'brotli'}", &f).IsInvalidArgument());
}

TEST(FamilyOptionsTest, CommandLineListRefusesUnknownNamesAndMalformedItems) {
  FamilyDescriptor f("f");
  EXPECT_EQ(ApplyFamilyOptionList("colour=red", &f).message(),
            "unknown family option 'colour' (versions, min_versions, ttl, keep_deleted_cells, "
            "compression, bloom, blocksize)");
  EXPECT_EQ(ApplyFamilyOptionList("versions", &f).message(),
            "family option must be NAME=VALUE, not 'versions'");
  EXPECT_TRUE(ApplyFamilyOptionList("", &f).ok());
  EXPECT_EQ(f.max_versions, FamilyDescriptor("f").max_versions);
}

TEST(FamilyOptionsTest, KeptAttributesAreStoredAsTextAndOthersRefused) {
  FamilyDescriptor f("f");
  ASSERT_TRUE(
      ApplyHash("create 't', {NAME => 'f', IN_MEMORY => true, DFS_REPLICATION => 3}", &f).ok());
  EXPECT_EQ(f.attributes["IN_MEMORY"], "true");
  EXPECT_EQ(f.attributes["DFS_REPLICATION"], "3");
  EXPECT_TRUE(ApplyHash("create 't', {NAME => 'f', COLOUR => 'red'}", &f).IsInvalidArgument());
}

}  // namespace
}  // namespace basalt::shell
