// A PC-relative jump that is one 32-bit instruction (AArch64 b, RISC-V
// jal x0, Power b, ARM b, Thumb-2 b.w), for a descriptor's encode_jump and
// decode_jump: the generic part (where the offset counts from, its
// alignment and signed range, the fixed bits, the byte layout) is here,
// once; the arch writes a WordJumpForm and the two functions that move the
// offset's bits into and out of the instruction's fields.
#ifndef XSDT_WORD_JUMP_H
#define XSDT_WORD_JUMP_H

#include <cstdint>

namespace xsdt {

enum class WordLayout {
  LittleEndian,       // one little-endian word
  HalfwordsHighFirst, // two little-endian halfwords, bits 31..16 first
                      // (a 32-bit Thumb instruction)
};

struct WordJumpForm {
  int pc_bias;              // the offset counts from the site + pc_bias
  unsigned alignment;       // the offset is a multiple of this
  unsigned offset_bits;     // the offset is in [-2^(bits-1), 2^(bits-1))
  std::uint32_t fixed_mask; // the bits that make the word this jump
  std::uint32_t fixed_bits; // ... and their values
  // The offset (two's complement, offset_bits wide) into the word's
  // fields, and back; neither sees the fixed bits.
  std::uint32_t (*place)(std::uint32_t offset);
  std::uint32_t (*take)(std::uint32_t word);
  WordLayout layout;
};

namespace word_jump {

inline void store(WordLayout layout, std::uint32_t word, unsigned char *out) {
  if (layout == WordLayout::HalfwordsHighFirst)
    word = word << 16 | word >> 16;
  for (int i = 0; i < 4; ++i)
    out[i] = static_cast<unsigned char>(word >> (8 * i));
}

inline std::uint32_t load(WordLayout layout, const unsigned char *in) {
  std::uint32_t word = 0;
  for (int i = 0; i < 4; ++i)
    word |= static_cast<std::uint32_t>(in[i]) << (8 * i);
  if (layout == WordLayout::HalfwordsHighFirst)
    word = word << 16 | word >> 16;
  return word;
}

} // namespace word_jump

// The jump from `site` to `target` into out[0..4), or false when the
// target is off the alignment or out of reach (nothing written).
inline bool encode_word_jump(const WordJumpForm &form, std::uint64_t site,
                             std::uint64_t target, unsigned char *out) {
  const std::int64_t offset =
      static_cast<std::int64_t>(target - site) - form.pc_bias;
  const std::int64_t reach = std::int64_t{1} << (form.offset_bits - 1);
  if (offset % static_cast<std::int64_t>(form.alignment) != 0 ||
      offset < -reach || offset >= reach)
    return false;
  const std::uint32_t bits = static_cast<std::uint32_t>(offset) &
                             ((std::uint32_t{1} << form.offset_bits) - 1);
  word_jump::store(form.layout, form.fixed_bits | form.place(bits), out);
  return true;
}

// The target of the jump in in[0..4) at `site`, or false when those bytes
// are not this jump.
inline bool decode_word_jump(const WordJumpForm &form, std::uint64_t site,
                             const unsigned char *in, std::uint64_t *target) {
  const std::uint32_t word = word_jump::load(form.layout, in);
  if ((word & form.fixed_mask) != form.fixed_bits)
    return false;
  std::int64_t offset = form.take(word);
  if (offset & (std::int64_t{1} << (form.offset_bits - 1)))
    offset -= std::int64_t{1} << form.offset_bits;
  *target = site + static_cast<std::uint64_t>(offset + form.pc_bias);
  return true;
}

// A descriptor's encode_jump / decode_jump for one form.
template <const WordJumpForm &Form>
bool encode_jump(std::uint64_t site, std::uint64_t target, unsigned char *out) {
  return encode_word_jump(Form, site, target, out);
}

template <const WordJumpForm &Form>
bool decode_jump(std::uint64_t site, const unsigned char *in,
                 std::uint64_t *target) {
  return decode_word_jump(Form, site, in, target);
}

} // namespace xsdt

#endif
