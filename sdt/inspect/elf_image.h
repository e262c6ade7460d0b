// An ELF file of any of the four xsdt architectures, read whole into memory.
// libelf walks the section headers; every offset and size taken from the
// file is checked against the file's length here before it is used, so
// truncated or hostile input ends in an InputError, never a bad read.
#ifndef XSDT_INSPECT_ELF_IMAGE_H
#define XSDT_INSPECT_ELF_IMAGE_H

#include "xsdt/argspec.h"

#include "xsdt/byte_order.h"

#include <optional>

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace xsdt::inspect {

// Input the tool cannot read: missing file, not ELF, truncated, garbled.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Section {
  std::size_t index = 0;
  std::string name;
  std::uint32_t type = 0;
  std::uint64_t flags = 0;
  std::uint64_t addr = 0;
  std::uint64_t offset = 0;
  std::uint64_t size = 0;
  std::uint32_t link = 0;    // sh_link: a symbol table's string table
  std::uint64_t entsize = 0; // sh_entsize

  bool allocated() const;
  bool writable() const;
  bool executable() const;
  bool has_contents() const; // not SHT_NOBITS
  bool contains(std::uint64_t address, std::uint64_t length = 1) const;
};

class ElfImage {
public:
  static ElfImage load(const std::string &path);

  Arch arch() const { return *arch_; }
  bool is_64() const { return is_64_; }
  // The file's data encoding (EI_DATA), which is its arch's.
  ByteOrder byte_order() const { return byte_order_; }
  unsigned address_size() const { return is_64_ ? 8 : 4; }
  std::uint64_t address_mask() const;
  std::uint16_t elf_type() const { return elf_type_; } // ET_EXEC, ET_DYN...
  const std::vector<Section> &sections() const { return sections_; }

  // The first section with this name, or nullptr.
  const Section *find(std::string_view name) const;
  // The allocated section whose address range holds `address`.
  const Section *section_at(std::uint64_t address) const;
  // A section's bytes in the file. Throws InputError for SHT_NOBITS
  // sections and for ranges outside the file.
  std::span<const std::uint8_t> contents(const Section &section) const;

private:
  ElfImage() = default;
  void read_sections();
  // Throws InputError when `section` shares bytes with the ELF header, the
  // section header table or another section.
  void check_overlap(const Section &section) const;

  std::vector<std::uint8_t> bytes_;
  std::vector<Section> sections_;
  std::optional<Arch> arch_; // set by load()
  bool is_64_ = true;
  ByteOrder byte_order_ = ByteOrder::kLittle;
  std::uint16_t elf_type_ = 0;
  std::uint64_t shoff_ = 0;        // the section header table's place
  std::uint64_t shtable_size_ = 0; // and size in the file
};

// Reads in the file's byte order from a span whose bounds the caller has
// checked.
std::uint32_t read_u32(std::span<const std::uint8_t> bytes, std::size_t at,
                       ByteOrder order);
std::uint64_t read_address(std::span<const std::uint8_t> bytes, std::size_t at,
                           unsigned size, ByteOrder order);

std::string hex(std::uint64_t value); // "0x1a2b"

} // namespace xsdt::inspect

#endif // XSDT_INSPECT_ELF_IMAGE_H
