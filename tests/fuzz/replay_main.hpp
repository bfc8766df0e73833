#pragma once
// The plain program a libFuzzer target becomes with -DNNHAL_FUZZ_REPLAY_MAIN (any compiler, no
// libFuzzer): runs LLVMFuzzerInitialize, then each file named on the command line through
// LLVMFuzzerTestOneInput, to replay a crash input or a corpus. Included last by each target.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <vector>

int main(int argc, char** argv) {
  LLVMFuzzerInitialize(&argc, &argv);
  for (int i = 1; i < argc; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::fprintf(stderr, "replaying %s (%zu bytes)\n", argv[i], bytes.size());
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  }
  return 0;
}
