# Sourced by the scripts that run HBase's Java code: find_java prints a JDK 17 `java` (BASALT_JAVA
# if set, else Debian's openjdk-17, else the PATH's), or says why not and returns 1. HBase 2.6
# supports JDK 17; Hadoop's code it loads fails on JDK 23 and later. Needs a `say` function.
find_java() {
  local candidates=() j v
  [ -n "${BASALT_JAVA:-}" ] && candidates+=("$BASALT_JAVA")
  candidates+=(/usr/lib/jvm/java-17-openjdk-amd64/bin/java /usr/lib/jvm/java-17-openjdk-arm64/bin/java)
  command -v java >/dev/null 2>&1 && candidates+=("$(command -v java)")
  for j in "${candidates[@]}"; do
    [ -x "$j" ] || continue
    v="$("$j" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')"
    if [ "$v" = 17 ]; then echo "$j"; return 0; fi
  done
  say "no JDK 17 found (tried: ${candidates[*]}); install Debian's openjdk-17-jdk-headless"
  return 1
}
