// libxsdt, USDT jump mode: where each site's stub is placed, its cell, and
// the bytes of the branch (usdt_jump.h). The stub's code is the arch's
// (machdep.h, UsdtJumpPort); this file only asks it.
#include "usdt_jump.h"

#include "isa.h"
#include "machdep.h"
#include "membarrier.h"
#include "sdt_fire.h"

#include <cstring>
#include <map>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

namespace xsdt::rt {
namespace {

// Stub pages: mapped near the code they serve, never unmapped (a thread
// may still be in a stub after its site was disabled). A page is
// executable once it holds a stub; adding one makes it writable for the
// write only, as the patcher does with code.
struct StubPage {
  std::uintptr_t base = 0;
  std::size_t size = 0, used = 0;
};
constexpr std::size_t kStubPageBytes = 64 * 1024;

// Under api_lock(); never destroyed (see the records of usdt.cpp).
std::vector<StubPage> &g_pages = *new std::vector<StubPage>;
std::map<std::uintptr_t, UsdtJumpCell *> &g_cells =
    *new std::map<std::uintptr_t, UsdtJumpCell *>;

std::uintptr_t distance(std::uintptr_t a, std::uintptr_t b) {
  return a > b ? a - b : b - a;
}

// Whether [base, base + size) lies wholly within `reach` of `from`.
bool within(std::uintptr_t from, std::uintptr_t base, std::size_t size,
            std::uintptr_t reach) {
  return distance(from, base) < reach && distance(from, base + size) < reach;
}

// A fresh page within reach of `near`: the kernel takes an address hint
// where the range is free, so hints are tried at growing distances on
// both sides, and a mapping placed elsewhere is given back.
StubPage *map_page_near(std::uintptr_t near, std::uintptr_t reach) {
  const std::uintptr_t page =
      static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  for (std::uintptr_t step = 1 << 20; step < reach; step *= 2) {
    for (int side = 0; side < 2; ++side) {
      if (side == 0 && near < step)
        continue;
      const std::uintptr_t hint =
          ((side == 0 ? near - step : near + step) & ~(page - 1));
      void *p = mmap(reinterpret_cast<void *>(hint), kStubPageBytes,
                     PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (p == MAP_FAILED)
        continue;
      const auto base = reinterpret_cast<std::uintptr_t>(p);
      if (within(near, base, kStubPageBytes, reach)) {
        g_pages.push_back(StubPage{base, kStubPageBytes, 0});
        return &g_pages.back();
      }
      munmap(p, kStubPageBytes);
    }
  }
  return nullptr;
}

// Writes a stub for `cell` near its branch; false when none fits.
bool write_stub(const machdep::UsdtJumpPort &port, UsdtJumpCell &cell,
                std::uintptr_t branch, std::uintptr_t resume) {
  StubPage *page = nullptr;
  for (StubPage &p : g_pages)
    if (p.size - p.used >= port.stub_size &&
        within(branch, p.base + p.used, port.stub_size, port.reach)) {
      page = &p;
      break;
    }
  if (!page)
    page = map_page_near(branch, port.reach);
  if (!page)
    return false;
  const std::uintptr_t at = page->base + page->used;
  unsigned char code[256];
  if (port.stub_size > sizeof code || !port.write_stub(code, at, &cell, resume))
    return false;
  auto *addr = reinterpret_cast<void *>(page->base);
  if (mprotect(addr, page->size, PROT_READ | PROT_WRITE | PROT_EXEC) != 0)
    return false;
  std::memcpy(reinterpret_cast<void *>(at), code, port.stub_size);
  mprotect(addr, page->size, PROT_READ | PROT_EXEC);
  machdep::flush_icache(reinterpret_cast<void *>(at), port.stub_size);
  page->used += (port.stub_size + 15) & ~std::size_t{15};
  cell.stub = at;
  return true;
}

// Whether every thread can be serialized between the steps of the
// trap-first protocol, which a branch wider than one store needs. Asked
// once (membarrier registration).
bool can_write_branch() {
  if (!isa::jump_needs_trap_first(isa::first_encoding()))
    return true;
  static const bool ok = membarrier_sync_core();
  return ok;
}

} // namespace

bool usdt_site_can_jump(const SiteEncoding *encoding) {
  return machdep::usdt_jump_port() && encoding &&
         encoding == &isa::descriptor().usdt_site_encoding();
}

UsdtJumpCell *usdt_jump_cell(std::uintptr_t site,
                             void (*run)(const void *, RegisterFile *)) {
  const machdep::UsdtJumpPort *port = machdep::usdt_jump_port();
  if (!port || !can_write_branch())
    return nullptr;
  xsdt_error ignored;
  if (!prepare_fire_path(&ignored))
    return nullptr;
  if (auto it = g_cells.find(site); it != g_cells.end()) {
    it->second->run = run;
    return it->second;
  }
  auto *cell = new UsdtJumpCell;
  cell->site = site;
  cell->pc = site + isa::descriptor().trap_pc_offset;
  cell->run = run;
  const std::uintptr_t branch = site + port->branch_offset;
  const std::uintptr_t resume = site + isa::descriptor().usdt_site_encoding().nop.size();
  unsigned char probe_jump[kMaxSiteBytes];
  if (!write_stub(*port, *cell, branch, resume) ||
      !isa::encode_jump(isa::first_encoding(), branch, cell->stub,
                        probe_jump)) {
    delete cell;
    return nullptr;
  }
  g_cells.emplace(site, cell);
  return cell;
}

CodeWrite usdt_jump_write(const UsdtJumpCell &cell, bool set, int prot,
                          std::size_t tag) {
  const machdep::UsdtJumpPort &port = *machdep::usdt_jump_port();
  const SiteEncoding &e = isa::first_encoding();
  CodeWrite w;
  w.addr = cell.site + port.branch_offset;
  w.size = static_cast<std::uint8_t>(e.nop.size());
  w.encoding = &e;
  unsigned char *nop = set ? w.from : w.to, *jump = set ? w.to : w.from;
  std::memcpy(nop, e.nop.data(), w.size);
  isa::encode_jump(e, w.addr, cell.stub, jump); // checked by usdt_jump_cell
  w.prot = static_cast<std::int16_t>(prot);
  w.tag = static_cast<std::uint32_t>(tag);
  return w;
}

TrapEntry usdt_jump_trap_entry(const UsdtJumpCell &cell) {
  return TrapEntry{cell.site + machdep::usdt_jump_port()->branch_offset,
                   cell.stub, nullptr, nullptr};
}

int usdt_jump_saved_registers() {
  return machdep::usdt_jump_port()->saved_registers;
}

} // namespace xsdt::rt
