/* Shared helpers of the fault-injection tests (lit-tests/faults): what a
 * failed call must leave behind, read from outside the runtime. Every site
 * holds the bytes it held before the call (its NOP, or its jump or trap if
 * it was enabled), and the page holding it has, in /proc/self/maps, the
 * protection it had before the call or that of its segment (the program
 * header's p_flags: r-x for code), never a writable one. Either, because
 * qemu-i386 shows the code of a fresh program as r--p, and r-xp once
 * mprotect gave it PROT_READ | PROT_EXEC. */
#ifndef XSDT_FAULT_TEST_H
#define XSDT_FAULT_TEST_H

#include "../../jump/Inputs/jump-test.h"

#include <errno.h>

#define FT_MAX_SITES JT_MAX_SITES

/* The state of a set of sites: their bytes and the protection of the
 * segment holding each ("r-x", as /proc/self/maps writes it). */
struct ft_state {
  int n;
  uintptr_t site[FT_MAX_SITES];
  unsigned char bytes[FT_MAX_SITES][RT_JUMP_SITE_SIZE];
  char maps[FT_MAX_SITES][5]; /* as /proc/self/maps showed it */
  char prot[FT_MAX_SITES][5]; /* the segment's */
};

struct ft_segment_search {
  uintptr_t address;
  char prot[5];
};

static inline int ft_segment_visit(struct dl_phdr_info *info, size_t size,
                                   void *user) {
  struct ft_segment_search *search = (struct ft_segment_search *)user;
  (void)size;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t start = (uintptr_t)info->dlpi_addr + ph->p_vaddr;
    if (ph->p_type == PT_LOAD && search->address >= start &&
        search->address < start + ph->p_memsz) {
      search->prot[0] = (ph->p_flags & PF_R) ? 'r' : '-';
      search->prot[1] = (ph->p_flags & PF_W) ? 'w' : '-';
      search->prot[2] = (ph->p_flags & PF_X) ? 'x' : '-';
      search->prot[3] = 0;
      return 1;
    }
  }
  return 0;
}

/* The protection of the PT_LOAD segment holding addr ("r-x"), or "???". */
static inline void ft_segment_prot(uintptr_t addr, char out[5]) {
  struct ft_segment_search search = {addr, "???"};
  dl_iterate_phdr(ft_segment_visit, &search);
  memcpy(out, search.prot, 5);
}

/* The permissions column of the /proc/self/maps line holding addr, or
 * "????" when no line holds it (or the file cannot be read). */
static inline void ft_maps_prot(uintptr_t addr, char out[5]) {
  strcpy(out, "????");
  FILE *maps = fopen("/proc/self/maps", "r");
  if (!maps)
    return;
  char line[512];
  while (fgets(line, sizeof line, maps)) {
    unsigned long lo, hi;
    char perms[5];
    if (sscanf(line, "%lx-%lx %4s", &lo, &hi, perms) == 3 && addr >= lo &&
        addr < hi) {
      memcpy(out, perms, 5);
      break;
    }
  }
  fclose(maps);
}

static inline void ft_capture(struct ft_state *s, const struct jt_sites *l) {
  s->n = l->n;
  for (int i = 0; i < l->n; ++i) {
    s->site[i] = l->s[i].site;
    memcpy(s->bytes[i], (const void *)l->s[i].site, RT_JUMP_SITE_SIZE);
    ft_maps_prot(l->s[i].site, s->maps[i]);
    ft_segment_prot(l->s[i].site, s->prot[i]);
  }
}

/* The number of sites whose bytes differ from `before`, or whose page's
 * protection is neither what it was nor its segment's (each printed). */
static inline int ft_changed(const struct ft_state *before) {
  int changed = 0;
  for (int i = 0; i < before->n; ++i) {
    char prot[5];
    char hex[64];
    ft_maps_prot(before->site[i], prot);
    int bytes_differ =
        memcmp((const void *)before->site[i], before->bytes[i], RT_JUMP_SITE_SIZE);
    int prot_ok = strcmp(prot, before->maps[i]) == 0 ||
                  strncmp(prot, before->prot[i], 3) == 0;
    if (bytes_differ || !prot_ok) {
      printf("  site %#lx: bytes %s%s, page %s (was %s, segment %s)\n",
             (unsigned long)before->site[i],
             jt_hex(hex, sizeof hex, before->site[i]),
             bytes_differ ? " (changed)" : "", prot, before->maps[i],
             before->prot[i]);
      ++changed;
    }
  }
  return changed;
}

/* The number of sites in l whose listed state is not `state`. */
static inline int ft_not_in_state(const char *prefix, xsdt_mode state) {
  struct jt_sites now;
  jt_list_sites(prefix, &now);
  int n = 0;
  for (int i = 0; i < now.n; ++i)
    n += now.s[i].state != state;
  return n;
}

/* "-1 XSDT_ERR_X: message", for the output. */
static inline void ft_print_result(const char *what, int result,
                                   const xsdt_error *err) {
  if (result < 0)
    printf("%s: %d %s: %s\n", what, result, xsdt_status_name(err->code),
           err->message);
  else
    printf("%s: %d\n", what, result);
}

#endif
