// The command layer through Session, on an in-memory store: what a user types and what the
// shell prints, without a terminal.

#include "shell/session.h"

#include <gtest/gtest.h>

#include <regex>
#include <sstream>

#include "basalt/connection.h"

namespace basalt::shell {
namespace {

class ShellSessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto conn = Connection::Open("mem:");
    ASSERT_TRUE(conn.ok()) << conn.status().ToString();
    conn_ = std::move(*conn);
    session_ = std::make_unique<Session>(*conn_, out_, out_);
  }

  // Runs `text` and returns what it printed, with timings masked.
  std::string Run(std::string_view text) {
    out_.str("");
    last_ = session_->Run(text);
    std::string out =
        std::regex_replace(out_.str(), std::regex(R"(Took \d+\.\d{4} seconds)"), "Took T");
    return std::regex_replace(out, std::regex(R"(timestamp=\d{13})"), "timestamp=T");
  }

  std::unique_ptr<Connection> conn_;
  std::ostringstream out_;
  std::unique_ptr<Session> session_;
  Session::Next last_ = Session::Next::kContinue;
};

TEST_F(ShellSessionTest, CreatePutGetScan) {
  EXPECT_EQ(Run("create 't1', {NAME => 'f', VERSIONS => 3}, 'g'"), "Created table t1\nTook T\n");
  EXPECT_EQ(Run("put 't1', 'r1', 'f:a', 'one', 10; put 't1', 'r1', 'f:a', 'two', 20"),
            "Took T\nTook T\n");
  EXPECT_EQ(Run("put 't1', \"r\\x002\", 'g:b', \"\\xff\", 5"), "Took T\n");
  EXPECT_EQ(Run("get 't1', 'r1'"),
            "COLUMN                        CELL\n"
            " f:a                           timestamp=20, value=two\n"
            "1 row(s)\nTook T\n");
  EXPECT_EQ(Run("get 't1', 'r1', {COLUMN => 'f:a', VERSIONS => 2}"),
            "COLUMN                        CELL\n"
            " f:a                           timestamp=20, value=two\n"
            " f:a                           timestamp=10, value=one\n"
            "1 row(s)\nTook T\n");
  EXPECT_EQ(Run("get 't1', 'r1', {COLUMN => 'f:a', TIMERANGE => [0, 15], VERSIONS => 5}"),
            "COLUMN                        CELL\n"
            " f:a                           timestamp=10, value=one\n"
            "1 row(s)\nTook T\n");
  EXPECT_EQ(Run("scan 't1'"),
            "ROW                           COLUMN+CELL\n"
            " r\\x002                        column=g:b, timestamp=5, value=\\xFF\n"
            " r1                            column=f:a, timestamp=20, value=two\n"
            "2 row(s)\nTook T\n");
  EXPECT_EQ(Run("scan 't1', {REVERSED => true, LIMIT => 1, COLUMNS => ['g']}"),
            "ROW                           COLUMN+CELL\n"
            " r\\x002                        column=g:b, timestamp=5, value=\\xFF\n"
            "1 row(s)\nTook T\n");
  EXPECT_EQ(Run("scan 't1', {FILTER => \"ValueFilter(=, 'binary:one')\", VERSIONS => 3}"),
            "ROW                           COLUMN+CELL\n"
            " r1                            column=f:a, timestamp=10, value=one\n"
            "1 row(s)\nTook T\n");
  EXPECT_EQ(session_->failures(), 0);
}

TEST_F(ShellSessionTest, ErrorsAreReportedAndTheSessionGoesOn) {
  EXPECT_EQ(Run("get 'nope', 'r'; list"),
            "ERROR: NotFound: table 'nope' does not exist\n"
            "TABLE\n0 row(s)\nTook T\n");
  EXPECT_EQ(session_->failures(), 1);
  EXPECT_EQ(Run("gett 't'"),
            "ERROR: InvalidArgument: unknown command 'gett'\n"
            "Did you mean 'get'? Type 'help' for the list of commands.\n");
  EXPECT_EQ(Run("put 't1', 'r1' 'f:q'"),
            "ERROR: InvalidArgument: syntax error at column 16: expected ',' or the end of the "
            "command, found string 'f:q'\n"
            "  put 't1', 'r1' 'f:q'\n"
            "                 ^\n"
            "Strings go in quotes, options in a hash: scan 't1', {LIMIT => 5}\n");
  Run("create 't', 'f'");
  EXPECT_EQ(Run("scan 't', {LIMT => 5}"),
            "ERROR: InvalidArgument: unknown option LIMT for scan (basalt supports: STARTROW, "
            "STOPROW, ROWPREFIXFILTER, LIMIT, REVERSED, COLUMNS, COLUMN, VERSIONS, FILTER, "
            "TIMERANGE, TIMESTAMP, RAW, CACHE)\n"
            "For usage try 'help \"scan\"'\n");
  EXPECT_EQ(Run("put 't', 'r', 'nofamily:q', 'v'"),
            "ERROR: NotFound: column family 'nofamily' does not exist in table 't'\n");
  EXPECT_EQ(Run("drop 't'"),
            "ERROR: FailedPrecondition: Table t is enabled. Disable it first: disable 't'\n");
  EXPECT_EQ(Run("scan 't', {FILTER => \"Nope()\"}").substr(0, 40),
            "ERROR: InvalidArgument: unknown filter '");
  EXPECT_EQ(session_->failures(), 7);
  EXPECT_EQ(Run("count 't'"), "0 row(s)\nTook T\n");
}

TEST_F(ShellSessionTest, ExitStopsTheRestOfTheInput) {
  EXPECT_EQ(Run("list_namespace; exit; list"), "NAMESPACE\ndefault\nhbase\n2 row(s)\nTook T\n");
  EXPECT_EQ(last_, Session::Next::kExit);
  Run("quit");
  EXPECT_EQ(last_, Session::Next::kExit);
}

TEST_F(ShellSessionTest, DdlCommands) {
  EXPECT_EQ(Run("create_namespace 'ns'; create 'ns:t', 'f', SPLITS => ['m']"),
            "Took T\nCreated table ns:t\nTook T\n");
  EXPECT_EQ(Run("exists 'ns:t'; exists 'ns:u'"),
            "Table ns:t does exist\nTook T\nTable ns:u does not exist\nTook T\n");
  EXPECT_EQ(Run("alter 'ns:t', NAME => 'f', VERSIONS => 4; alter 'ns:t', 'g'"), "Took T\nTook T\n");
  EXPECT_EQ(Run("describe 'ns:t'"),
            "Table ns:t is ENABLED\n"
            "ns:t, {TABLE_ATTRIBUTES => {DURABILITY => 'USE_DEFAULT'}}\n"
            "SPLITS => ['m']\n"
            "COLUMN FAMILIES DESCRIPTION\n"
            "{NAME => 'f', VERSIONS => '4', MIN_VERSIONS => '0', TTL => 'FOREVER', "
            "KEEP_DELETED_CELLS => 'FALSE', COMPRESSION => 'NONE', BLOOMFILTER => 'ROW', "
            "BLOCKSIZE => '65536'}\n"
            "{NAME => 'g', VERSIONS => '1', MIN_VERSIONS => '0', TTL => 'FOREVER', "
            "KEEP_DELETED_CELLS => 'FALSE', COMPRESSION => 'NONE', BLOOMFILTER => 'ROW', "
            "BLOCKSIZE => '65536'}\n"
            "2 row(s)\nTook T\n");
  // An alter that cannot apply in full applies nothing.
  EXPECT_EQ(Run("alter 'ns:t', {NAME => 'h'}, {NAME => 'nope', METHOD => 'delete'}"),
            "ERROR: NotFound: table ns:t has no column family 'nope'\n");
  EXPECT_EQ(Run("alter 'ns:t', 'delete' => 'f'; alter 'ns:t', NAME => 'g', METHOD => 'delete'"),
            "Took T\nERROR: FailedPrecondition: alter would delete every column family of ns:t; "
            "a table needs at least one\n");
  EXPECT_EQ(Run("list 'ns:.*'; list_namespace_tables 'ns'"),
            "TABLE\nns:t\n1 row(s)\nTook T\nTABLE\nt\n1 row(s)\nTook T\n");
  EXPECT_EQ(Run("disable 'ns:t'; is_enabled 'ns:t'; is_disabled 'ns:t'"),
            "Took T\nfalse\nTook T\ntrue\nTook T\n");
  EXPECT_EQ(Run("drop 'ns:t'; drop_namespace 'ns'; list_namespace 'n.*'"),
            "Took T\nTook T\nNAMESPACE\n0 row(s)\nTook T\n");
  // HBase's HexStringSplit boundaries for 4 regions.
  EXPECT_NE(Run("create 'h', 'f', {NUMREGIONS => 4, SPLITALGO => 'HexStringSplit'}; "
                "describe 'h'")
                .find("\nSPLITS => ['3fffffff', '7ffffffe', 'bffffffd']\n"),
            std::string::npos);
  // HBase's other family attributes are kept and shown; a misspelt option is an error.
  EXPECT_NE(Run("create 'x', {NAME => 'f', IN_MEMORY => true, REPLICATION_SCOPE => 1, "
                "DATA_BLOCK_ENCODING => 'FAST_DIFF'}; describe 'x'")
                .find("BLOCKSIZE => '65536', DATA_BLOCK_ENCODING => 'FAST_DIFF', IN_MEMORY => "
                      "'true', REPLICATION_SCOPE => '1'}\n"),
            std::string::npos);
  EXPECT_EQ(Run("create 'y', {NAME => 'f', VERSONS => 3}")
                .rfind("ERROR: InvalidArgument: unknown option VERSONS for a column family (basalt "
                       "supports: NAME, VERSIONS, ",
                       0),
            0u);
}

TEST_F(ShellSessionTest, TruncateKeepsTheSchemaAndEmptiesTheTable) {
  Run("create 't', 'f'; put 't', 'r', 'f:q', 'v'");
  EXPECT_EQ(Run("truncate 't'"),
            "Truncating 't' table (it may take a while):\nDisabling table...\n"
            "Truncating table...\nTook T\n");
  EXPECT_EQ(Run("count 't'; is_enabled 't'"), "0 row(s)\nTook T\ntrue\nTook T\n");
}

TEST_F(ShellSessionTest, DeletesAndCounters) {
  Run("create 't', {NAME => 'f', VERSIONS => 5}, 'g'");
  Run("put 't', 'r', 'f:q', 'a', 1; put 't', 'r', 'f:q', 'b', 2; put 't', 'r', 'g:z', 'c', 3");
  EXPECT_EQ(Run("delete 't', 'r', 'f:q'; get 't', 'r', 'f:q'"),
            "Took T\nCOLUMN                        CELL\n"
            " f:q                           timestamp=1, value=a\n1 row(s)\nTook T\n");
  EXPECT_EQ(Run("deleteall 't', 'r', 'f'; get 't', 'r'"),
            "Took T\nCOLUMN                        CELL\n"
            " g:z                           timestamp=3, value=c\n1 row(s)\nTook T\n");
  Run("put 't', 'u1', 'f:q', 'v'; put 't', 'u2', 'f:q', 'v'; put 't', 'v1', 'f:q', 'v'");
  EXPECT_EQ(Run("deleteall 't', {ROWPREFIXFILTER => 'u'}; count 't', INTERVAL => 1"),
            "Took T\nCurrent count: 1, row: r\nCurrent count: 2, row: v1\n2 row(s)\nTook T\n");
  EXPECT_EQ(Run("incr 't', 'c', 'f:hits'; incr 't', 'c', 'f:hits', 10"),
            "COUNTER VALUE = 1\nTook T\nCOUNTER VALUE = 11\nTook T\n");
  EXPECT_EQ(Run("get_counter 't', 'c', 'f:hits'; get_counter 't', 'c', 'f:none'"),
            "COUNTER VALUE = 11\nTook T\nNo counter found at specified coordinates\nTook T\n");
  EXPECT_EQ(Run("get_counter 't', 'r', 'g:z'"),
            "ERROR: InvalidArgument: the cell is not a counter (8 bytes): value=c\n"
            "For usage try 'help \"get_counter\"'\n");
}

TEST_F(ShellSessionTest, RawScansShowDeleteMarkers) {
  Run("create 't', {NAME => 'f', VERSIONS => 3}");
  Run("put 't', 'r', 'f:q', 'a', 1; put 't', 'r', 'f:q', 'b', 2; delete 't', 'r', 'f:q', 2");
  EXPECT_EQ(Run("scan 't', {RAW => true, VERSIONS => 3}"),
            "ROW                           COLUMN+CELL\n"
            " r                             column=f:q, timestamp=2, type=Delete, value=\n"
            " r                             column=f:q, timestamp=2, value=b\n"
            " r                             column=f:q, timestamp=1, value=a\n"
            "1 row(s)\nTook T\n");
}

TEST_F(ShellSessionTest, ColumnFormattersPrintNumbers) {
  Run("create 't', 'f'; incr 't', 'r', 'f:n', -5; put 't', 'r', 'f:s:x', 'text'");
  EXPECT_EQ(Run("get 't', 'r', 'f:n:toLong'"),
            "COLUMN                        CELL\n"
            " f:n                           timestamp=T, value=-5\n1 row(s)\nTook T\n");
  // Text after the last ':' that is no format stays part of the qualifier.
  EXPECT_EQ(
      Run("scan 't', {COLUMNS => ['f:s:x', 'f:n:c(org.apache.hadoop.hbase.util.Bytes).toLong']}"),
      "ROW                           COLUMN+CELL\n"
      " r                             column=f:n, timestamp=T, value=-5\n"
      " r                             column=f:s:x, timestamp=T, value=text\n"
      "1 row(s)\nTook T\n");
  EXPECT_EQ(Run("put 't', 'r', 'f:q', 'v', {TTL => 10}"),
            "ERROR: InvalidArgument: unknown option TTL for put (basalt supports none)\n"
            "For usage try 'help \"put\"'\n");
}

TEST_F(ShellSessionTest, AnInterruptStopsTheScanAndTheRestOfTheInput) {
  Run("create 't', 'f'; put 't', 'a', 'f:q', 'v', 1; put 't', 'b', 'f:q', 'v', 1");
  std::atomic<bool> interrupted{true};
  session_->set_interrupt_flag(&interrupted);
  EXPECT_EQ(Run("scan 't'; list"),
            "ROW                           COLUMN+CELL\n"
            " a                             column=f:q, timestamp=1, value=v\n"
            "ERROR: Aborted: interrupted\n");
  interrupted = false;
  EXPECT_EQ(Run("count 't'"), "2 row(s)\nTook T\n");
  session_->set_interrupt_flag(nullptr);
}

TEST_F(ShellSessionTest, HelpComesFromTheCommandTable) {
  std::string all = Run("help");
  EXPECT_NE(all.find("  Group name: dml\n  Commands: put, get, scan, delete, deleteall, incr, "
                     "append, get_counter, count\n"),
            std::string::npos)
      << all;
  EXPECT_EQ(Run("help 'get_counter'"),
            "get_counter: read a counter\n\nget_counter 't1', 'r1', 'f1:hits'\n");
  EXPECT_EQ(Run("help 'namespace'").substr(0, 41), "  create_namespace: create a namespace\n  ");
  EXPECT_EQ(Run("help 'nothing'"),
            "ERROR: NotFound: no command or group 'nothing'\nType 'help' for the list of "
            "commands.\n");
}

}  // namespace
}  // namespace basalt::shell
