#!/bin/sh
# Makes damaged inputs for xsdt-inspect's tests from one good ELF file.
#   make_bad_inputs.sh GOOD_ELF OUTDIR OBJCOPY
# Octal printf escapes only: POSIX sh printf has no \x.
set -eu
elf=$1
out=$2
objcopy=$3
mkdir -p "$out"

head -c 100 "$elf" >"$out/truncated-100"
head -c 2000 "$elf" >"$out/truncated-2000"
printf 'this is not an ELF file\n' >"$out/garbage"
: >"$out/empty"
head -c 16 "$elf" >"$out/ident-only"

# e_machine (offset 18) = 40, EM_ARM.
cp "$elf" "$out/bad-machine"
printf '\050\000' | dd of="$out/bad-machine" bs=1 seek=18 conv=notrunc 2>/dev/null
# EI_DATA (offset 5) = 2, big-endian.
cp "$elf" "$out/big-endian"
printf '\002' | dd of="$out/big-endian" bs=1 seek=5 conv=notrunc 2>/dev/null

# .stapsdt.base moved by 16 bytes while the notes keep the old base: the
# note check sees the mismatch, and the pc shift lands off the NOPs.
"$objcopy" --change-section-address .stapsdt.base+0x10 "$elf" "$out/moved-base" 2>/dev/null

# Replaces the .note.stapsdt contents of the good file.
note() {
  printf "$2" >"$out/$1.note"
  "$objcopy" --update-section ".note.stapsdt=$out/$1.note" "$elf" "$out/$1"
}
# namesz 8, descsz 4096 (past the section), type 3, "stapsdt".
note garbled-note '\010\000\000\000\000\020\000\000\003\000\000\000stapsdt\000'
# descsz 27: three 8-byte words, then "abc" with no NUL inside descsz.
note unterminated-note '\010\000\000\000\033\000\000\000\003\000\000\000stapsdt\000AAAAAAAABBBBBBBBCCCCCCCCabc\000'
# A GNU note where only stapsdt notes belong.
note foreign-note '\004\000\000\000\004\000\000\000\001\000\000\000GNU\000abcd'
# A stapsdt note of type 1 (not v3): no probes left to check.
note old-type-note '\010\000\000\000\004\000\000\000\001\000\000\000stapsdt\000abcd'
