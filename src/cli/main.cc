#include "cli/cli.h"

int main(int argc, char** argv) {
  return basalt::cli::Main(argc, argv);
}
