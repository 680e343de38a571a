#!/usr/bin/env bash
# HBase's protobuf filters, as HBase's own Java client writes them: runs
# tests/java/filter-vectors (FilterVectors.java, on hbase-client 2.6.1-hadoop3) to write the
# golden files tests/data/hbase_filters/NAME.bin (and NAME.txt, the filter-language string HBase's
# ParseFilter reads into the same bytes, where there is one), and checks basalt's transcriptions of HBase's
# .proto files (src/hbase_proto/proto/) against the ones in HBase's hbase-protocol-shaded jar
# (scripts/compare_hbase_protos.py).
#   scripts/hbase-filter-vectors.sh           rewrites the committed vectors
#   scripts/hbase-filter-vectors.sh --check   writes them into a temporary directory and fails
#                                             when any differs from the committed ones, or the
#                                             .proto files differ (CTest hbase_filter_vectors,
#                                             label java)
# Needs a JDK 17 (BASALT_JAVA, or Debian's openjdk-17), Maven, protoc and python3. Maven resolves
# the jars from Maven Central into ~/.m2 on the first run and works offline after it.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=write
case "${1:-}" in
  "") ;;
  --check) mode=check ;;
  *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac

say() { echo "hbase-filter-vectors.sh: $*" >&2; }
project=tests/java/filter-vectors
golden=tests/data/hbase_filters

# shellcheck source=scripts/java17.sh
. scripts/java17.sh

java="$(find_java)"
command -v mvn >/dev/null 2>&1 || { say "mvn not found; install Debian's maven"; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Maven only resolves the classpath; offline first, so that a second run needs no network.
args=(-B -q -f "$project/pom.xml" dependency:build-classpath -Dmdep.includeScope=runtime
      "-Dmdep.outputFile=$work/classpath.txt")
export JAVA_HOME="$(dirname "$(dirname "$(readlink -f "$java")")")"
if ! mvn -o "${args[@]}" >"$work/mvn.log" 2>&1; then
  say "resolving hbase-client from Maven Central (the first run only)"
  if ! mvn "${args[@]}" >"$work/mvn.log" 2>&1; then
    tail -n 30 "$work/mvn.log" >&2
    say "Maven could not resolve $project/pom.xml"
    exit 1
  fi
fi
classpath="$(cat "$work/classpath.txt")"

out="$work/vectors"
# Its log (the source launcher's notes, log4j's warnings) is shown only when it fails. The first
# run opens java.nio as HBase's bin/hbase does on JDK 17, the second does not: FuzzyRowFilter's
# bytes differ between the two (FilterVectors.java), and each form is a vector.
run_vectors() {
  if ! "$java" "$@" >"$work/java.log" 2>&1; then
    cat "$work/java.log" >&2
    say "FilterVectors failed"
    exit 1
  fi
}
source_file="$project/src/main/java/org/basalt/tests/FilterVectors.java"
run_vectors --add-opens java.base/java.nio=ALL-UNNAMED -cp "$classpath" "$source_file" "$out"
run_vectors -cp "$classpath" "$source_file" "$out" --fuzzy-only

# HBase's own .proto files travel in its hbase-protocol-shaded jar.
protocol_jar="$(tr ':' '\n' <"$work/classpath.txt" | grep '/hbase-protocol-shaded-[^/]*\.jar$' | head -n 1)"
[ -n "$protocol_jar" ] || { say "hbase-protocol-shaded is not on hbase-client's classpath"; exit 1; }
python3 scripts/compare_hbase_protos.py src/hbase_proto/proto "$protocol_jar"

if [ "$mode" = write ]; then
  mkdir -p "$golden"
  rm -f "$golden"/*.bin "$golden"/*.txt
  cp "$out"/* "$golden"/
  echo "wrote $(ls "$out"/*.bin | wc -l) vectors into $golden"
  exit 0
fi

status=0
for f in "$out"/*; do
  name="$(basename "$f")"
  if [ ! -f "$golden/$name" ]; then
    say "$name: HBase writes it, but it is not committed in $golden"; status=1
  elif ! cmp -s "$f" "$golden/$name"; then
    say "$name: HBase's bytes differ from the committed ones:"
    echo "  HBase:     $(od -An -tx1 -v "$f" | tr -s ' \n' ' ')" >&2
    echo "  committed: $(od -An -tx1 -v "$golden/$name" | tr -s ' \n' ' ')" >&2
    status=1
  fi
done
for f in "$golden"/*.bin "$golden"/*.txt; do
  [ -f "$out/$(basename "$f")" ] || { say "$(basename "$f"): committed, but HBase no longer writes it"; status=1; }
done
if [ "$status" -ne 0 ]; then
  say "the vectors drifted from HBase's serialization; regenerate with $0 and review the diff"
  exit 1
fi
echo "$(ls "$out"/*.bin | wc -l) vectors match HBase's serialization"
