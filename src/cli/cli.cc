namespace basalt::cli {
int Main(int, char**) {
  return 0;
}
}  // namespace basalt::cli
