// Writes the whole-file fuzzer's seeds from the note fuzzer's: each
// fuzz_notes input (selector byte + .note.stapsdt contents, written by
// make_seeds.py) becomes the tiny ELF file that fuzz_notes itself builds
// from it (tiny_elf.h), so that both fuzzers start from the same files and
// the ELF layout, the machines and the site bytes are written down once,
// in C++, from the arches' descriptors.
//
//   elf_seeds NOTES_DIR ELF_DIR
#include "tiny_elf.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: elf_seeds NOTES_DIR ELF_DIR\n");
    return 2;
  }
  namespace fs = std::filesystem;
  const fs::path notes = argv[1], elf = argv[2];
  fs::create_directories(elf);
  int count = 0;
  for (const fs::directory_entry &entry : fs::directory_iterator(notes)) {
    if (!entry.is_regular_file())
      continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::vector<std::uint8_t> seed{std::istreambuf_iterator<char>(in),
                                   std::istreambuf_iterator<char>()};
    if (seed.empty()) {
      std::fprintf(stderr, "elf_seeds: %s is empty\n", entry.path().c_str());
      return 1;
    }
    auto options = xsdt::fuzz::TinyElfOptions::from_selector(seed[0]);
    std::vector<std::uint8_t> file = xsdt::fuzz::tiny_elf(
        options, std::span<const std::uint8_t>(seed).subspan(1));
    std::ofstream out(elf / entry.path().filename(), std::ios::binary);
    out.write(reinterpret_cast<const char *>(file.data()),
              static_cast<std::streamsize>(file.size()));
    if (!out) {
      std::fprintf(stderr, "elf_seeds: cannot write %s\n",
                   (elf / entry.path().filename()).c_str());
      return 1;
    }
    ++count;
  }
  std::printf("elf_seeds: %d ELF seeds in %s\n", count, elf.c_str());
  return 0;
}
