// Writes the golden bytes of HBase's protobuf filters: for each filter below, built with HBase's
// own Java API, the file NAME.bin holds ProtobufUtil.toFilter(filter).toByteArray(), exactly what
// HBase's Java ThriftConnection sends as TGet/TScan.filterBytes. Where HBase's filter language
// can write the same filter, NAME.txt holds that string, and this program checks first that
// HBase's own ParseFilter reads it into the very same bytes: basalt's decoder must then give what
// basalt's ParseFilter gives for it (src/hbase_proto/filter_codec_test.cc, which also says what
// the other vectors decode to; tests/thrift/thrift2_filter_bytes_test.cc sends them to a server).
//
// FuzzyRowFilter's bytes depend on the JVM: with access to java.nio's internals (HBase's bin/hbase
// opens them on JDK 17), its constructor rewrites the mask into its processed form (0xFF fixed, 2
// any) and zeroes the pattern under the wildcards; without, it sends the user's mask (0 fixed, 1
// any). The script runs this program both ways; the vector is named after the form it got.
//
//   java [--add-opens java.base/java.nio=ALL-UNNAMED] -cp CLASSPATH FilterVectors.java OUTPUT_DIR
//        [--fuzzy-only]                                   (scripts/hbase-filter-vectors.sh)
package org.basalt.tests;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.filter.BigDecimalComparator;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.BinaryComponentComparator;
import org.apache.hadoop.hbase.filter.BinaryPrefixComparator;
import org.apache.hadoop.hbase.filter.BitComparator;
import org.apache.hadoop.hbase.filter.ColumnCountGetFilter;
import org.apache.hadoop.hbase.filter.ColumnPaginationFilter;
import org.apache.hadoop.hbase.filter.ColumnPrefixFilter;
import org.apache.hadoop.hbase.filter.ColumnRangeFilter;
import org.apache.hadoop.hbase.filter.ColumnValueFilter;
import org.apache.hadoop.hbase.filter.DependentColumnFilter;
import org.apache.hadoop.hbase.filter.FamilyFilter;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.filter.FirstKeyValueMatchingQualifiersFilter;
import org.apache.hadoop.hbase.filter.FuzzyRowFilter;
import org.apache.hadoop.hbase.filter.InclusiveStopFilter;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.filter.LongComparator;
import org.apache.hadoop.hbase.filter.MultiRowRangeFilter;
import org.apache.hadoop.hbase.filter.MultipleColumnPrefixFilter;
import org.apache.hadoop.hbase.filter.NullComparator;
import org.apache.hadoop.hbase.filter.PageFilter;
import org.apache.hadoop.hbase.filter.ParseFilter;
import org.apache.hadoop.hbase.filter.PrefixFilter;
import org.apache.hadoop.hbase.filter.QualifierFilter;
import org.apache.hadoop.hbase.filter.RandomRowFilter;
import org.apache.hadoop.hbase.filter.RegexStringComparator;
import org.apache.hadoop.hbase.filter.RowFilter;
import org.apache.hadoop.hbase.filter.SingleColumnValueExcludeFilter;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.filter.SkipFilter;
import org.apache.hadoop.hbase.filter.SubstringComparator;
import org.apache.hadoop.hbase.filter.TimestampsFilter;
import org.apache.hadoop.hbase.filter.ValueFilter;
import org.apache.hadoop.hbase.filter.WhileMatchFilter;
import org.apache.hadoop.hbase.shaded.protobuf.ProtobufUtil;
import org.apache.hadoop.hbase.shaded.protobuf.generated.FilterProtos;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.Pair;

public final class FilterVectors {
  private static byte[] b(String s) {
    return Bytes.toBytes(s);
  }

  private static FuzzyRowFilter fuzzyRow() {
    return new FuzzyRowFilter(List.of(new Pair<>(b("ro?1"), new byte[] {0, 0, 1, 0})));
  }

  /** A filter and, when HBase's filter language can write it, the string it reads the same. */
  private static final class Vector {
    final Filter filter;
    final byte[] language;

    Vector(Filter filter, String language) {
      this.filter = filter;
      // ISO-8859-1: each char of the string is one byte of the filter string.
      this.language = language == null ? null : language.getBytes(StandardCharsets.ISO_8859_1);
    }
  }

  private static final class Vectors extends LinkedHashMap<String, Vector> {
    void put(String name, Filter filter) {
      put(name, new Vector(filter, null));
    }

    void put(String name, Filter filter, String language) {
      put(name, new Vector(filter, language));
    }
  }

  private static Vectors vectors() {
    Vectors v = new Vectors();
    // Every filter and comparator basalt decodes.
    v.put("page", new PageFilter(2), "PageFilter(2)");
    v.put("prefix", new PrefixFilter(b("row1")), "PrefixFilter('row1')");
    v.put("prefix_binary", new PrefixFilter(new byte[] {'r', 0, (byte) 0xff}),
        "PrefixFilter('r\u0000\u00ff')");
    v.put("key_only", new KeyOnlyFilter(), "KeyOnlyFilter()");
    v.put("key_only_length", new KeyOnlyFilter(true), "KeyOnlyFilter(true)");
    v.put("first_key_only", new FirstKeyOnlyFilter(), "FirstKeyOnlyFilter()");
    v.put("column_prefix", new ColumnPrefixFilter(b("b")), "ColumnPrefixFilter('b')");
    v.put("multiple_column_prefix", new MultipleColumnPrefixFilter(new byte[][] {b("c"), b("a")}),
        "MultipleColumnPrefixFilter('c', 'a')");
    v.put("column_count_get", new ColumnCountGetFilter(2), "ColumnCountGetFilter(2)");
    v.put("column_pagination", new ColumnPaginationFilter(2, 1), "ColumnPaginationFilter(2, 1)");
    v.put("column_range", new ColumnRangeFilter(b("a"), true, b("c"), false),
        "ColumnRangeFilter('a', true, 'c', false)");
    v.put("column_range_open", new ColumnRangeFilter(null, false, b("b"), true));
    v.put("inclusive_stop", new InclusiveStopFilter(b("row2")), "InclusiveStopFilter('row2')");
    v.put("timestamps", new TimestampsFilter(Arrays.asList(3L, 1L, 2L)),
        "TimestampsFilter(3, 1, 2)");
    v.put("row_binary_less", new RowFilter(CompareOperator.LESS, new BinaryComparator(b("row3"))),
        "RowFilter(<, 'binary:row3')");
    v.put("family_binary", new FamilyFilter(CompareOperator.EQUAL, new BinaryComparator(b("g"))),
        "FamilyFilter(=, 'binary:g')");
    v.put("qualifier_binary_prefix", new QualifierFilter(CompareOperator.GREATER_OR_EQUAL,
        new BinaryPrefixComparator(b("b"))), "QualifierFilter(>=, 'binaryprefix:b')");
    // The comparator lower-cases its operand, and so does ParseFilter's: HBase reads 'ALU' too.
    v.put("value_substring", new ValueFilter(CompareOperator.EQUAL,
        new SubstringComparator("ALU")), "ValueFilter(=, 'substring:alu')");
    v.put("value_regex", new ValueFilter(CompareOperator.NOT_EQUAL,
        new RegexStringComparator("^v[12]$")), "ValueFilter(!=, 'regexstring:^v[12]$')");
    v.put("value_regex_case_insensitive", new ValueFilter(CompareOperator.EQUAL,
        new RegexStringComparator("V[12]", Pattern.CASE_INSENSITIVE)));
    v.put("value_regex_literal", new ValueFilter(CompareOperator.EQUAL,
        new RegexStringComparator("a.p", Pattern.LITERAL | Pattern.DOTALL)));
    v.put("value_long", new ValueFilter(CompareOperator.GREATER, new LongComparator(5)));
    v.put("single_column_value", new SingleColumnValueFilter(b("f"), b("a"),
        CompareOperator.EQUAL, new BinaryComparator(b("v1"))),
        "SingleColumnValueFilter('f', 'a', =, 'binary:v1')");
    SingleColumnValueFilter scvf = new SingleColumnValueFilter(b("f"), b("a"),
        CompareOperator.EQUAL, new BinaryComparator(b("v1")));
    scvf.setFilterIfMissing(true);
    scvf.setLatestVersionOnly(false);
    v.put("single_column_value_flags", scvf,
        "SingleColumnValueFilter('f', 'a', =, 'binary:v1', true, false)");
    v.put("single_column_value_exclude", new SingleColumnValueExcludeFilter(b("f"), b("a"),
        CompareOperator.EQUAL, new BinaryComparator(b("v1"))),
        "SingleColumnValueExcludeFilter('f', 'a', =, 'binary:v1')");
    v.put("dependent_column", new DependentColumnFilter(b("f"), b("a")),
        "DependentColumnFilter('f', 'a')");
    v.put("dependent_column_compare", new DependentColumnFilter(b("f"), b("a"), true,
        CompareOperator.EQUAL, new BinaryComparator(b("v1"))),
        "DependentColumnFilter('f', 'a', true, =, 'binary:v1')");
    v.put("list_and", new FilterList(FilterList.Operator.MUST_PASS_ALL,
        new PrefixFilter(b("row")), new KeyOnlyFilter()),
        "PrefixFilter('row') AND KeyOnlyFilter()");
    v.put("list_or", new FilterList(FilterList.Operator.MUST_PASS_ONE,
        new PrefixFilter(b("row1")), new PrefixFilter(b("row3"))),
        "PrefixFilter('row1') OR PrefixFilter('row3')");
    v.put("list_nested", new FilterList(FilterList.Operator.MUST_PASS_ALL,
        new FilterList(FilterList.Operator.MUST_PASS_ONE, new PrefixFilter(b("row1")),
            new PrefixFilter(b("row2"))),
        new ColumnPrefixFilter(b("a"))),
        "(PrefixFilter('row1') OR PrefixFilter('row2')) AND ColumnPrefixFilter('a')");
    v.put("list_empty", new FilterList());
    v.put("skip", new SkipFilter(new ValueFilter(CompareOperator.NOT_EQUAL,
        new BinaryComparator(b("v2")))), "SKIP ValueFilter(!=, 'binary:v2')");
    v.put("while_match", new WhileMatchFilter(new RowFilter(CompareOperator.NOT_EQUAL,
        new BinaryComparator(b("row3")))), "WHILE RowFilter(!=, 'binary:row3')");
    v.put("fuzzy_row", fuzzyRow());

    // What basalt refuses, each with its own error.
    v.put("unsupported_multi_row_range", new MultiRowRangeFilter(new ArrayList<>(List.of(
        new MultiRowRangeFilter.RowRange(b("row1"), true, b("row2"), false)))));
    v.put("unsupported_random_row", new RandomRowFilter(0.5f));
    v.put("unsupported_column_value", new ColumnValueFilter(b("f"), b("a"),
        CompareOperator.EQUAL, new BinaryComparator(b("v1"))));
    TreeSet<byte[]> qualifiers = new TreeSet<>(Bytes.BYTES_COMPARATOR);
    qualifiers.add(b("a"));
    v.put("unsupported_first_key_value_matching_qualifiers",
        new FirstKeyValueMatchingQualifiersFilter(qualifiers));
    v.put("unsupported_null_comparator", new ValueFilter(CompareOperator.EQUAL,
        new NullComparator()));
    v.put("unsupported_bit_comparator", new ValueFilter(CompareOperator.EQUAL,
        new BitComparator(b("v"), BitComparator.BitwiseOp.AND)));
    v.put("unsupported_big_decimal_comparator", new ValueFilter(CompareOperator.EQUAL,
        new BigDecimalComparator(BigDecimal.ONE)));
    v.put("unsupported_binary_component_comparator", new ValueFilter(CompareOperator.EQUAL,
        new BinaryComponentComparator(b("v"), 1)));
    v.put("unsupported_regex_joni", new ValueFilter(CompareOperator.EQUAL,
        new RegexStringComparator("v1", RegexStringComparator.EngineType.JONI)));
    v.put("unsupported_regex_comments", new ValueFilter(CompareOperator.EQUAL,
        new RegexStringComparator("v1 # one", Pattern.COMMENTS)));
    RegexStringComparator latin1 = new RegexStringComparator("v1");
    latin1.setCharset(StandardCharsets.ISO_8859_1);
    v.put("unsupported_regex_charset", new ValueFilter(CompareOperator.EQUAL, latin1));
    v.put("unsupported_regex_less", new RowFilter(CompareOperator.LESS,
        new RegexStringComparator("row")));
    v.put("unsupported_column_pagination_column_offset", new ColumnPaginationFilter(2, b("b")));
    v.put("unsupported_in_list", new FilterList(FilterList.Operator.MUST_PASS_ONE,
        new PrefixFilter(b("row1")), new SkipFilter(new RandomRowFilter(0.5f))));
    return v;
  }

  public static void main(String[] args) throws Exception {
    boolean fuzzyOnly = args.length == 2 && args[1].equals("--fuzzy-only");
    if (args.length != 1 && !fuzzyOnly) {
      System.err.println("usage: FilterVectors OUTPUT_DIR [--fuzzy-only]");
      System.exit(2);
    }
    Path out = Paths.get(args[0]);
    Files.createDirectories(out);
    Vectors v = new Vectors();
    if (fuzzyOnly) {
      v.put("fuzzy_row", fuzzyRow());
    } else {
      v = vectors();
    }
    for (Map.Entry<String, Vector> e : v.entrySet()) {
      String name = e.getKey();
      Filter filter = e.getValue().filter;
      byte[] bytes = ProtobufUtil.toFilter(filter).toByteArray();
      if (filter instanceof FuzzyRowFilter) {
        // The first mask byte is a fixed one: 0xFF processed, 0 as the user gave it.
        byte first = FilterProtos.FuzzyRowFilter.parseFrom(filter.toByteArray())
            .getFuzzyKeysData(0).getSecond().byteAt(0);
        name += first == (byte) 0xff ? "_processed" : "_raw";
      }
      byte[] language = e.getValue().language;
      if (language != null) {
        Filter parsed = new ParseFilter().parseFilterString(language);
        if (!Arrays.equals(ProtobufUtil.toFilter(parsed).toByteArray(), bytes)) {
          throw new IllegalStateException(name + ": HBase's ParseFilter reads \""
              + new String(language, StandardCharsets.ISO_8859_1) + "\" as another filter");
        }
        Files.write(out.resolve(name + ".txt"), language);
      }
      Files.write(out.resolve(name + ".bin"), bytes);
    }
  }
}
