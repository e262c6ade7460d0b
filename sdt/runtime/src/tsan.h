// Private to libxsdt: what changes when it is built with ThreadSanitizer
// (the tsan.* tests, sdt/runtime/tsan). Without TSan nothing here changes
// the code.
#ifndef XSDT_RUNTIME_TSAN_H
#define XSDT_RUNTIME_TSAN_H

// GCC says __SANITIZE_THREAD__, clang __has_feature(thread_sanitizer).
#if defined(__SANITIZE_THREAD__)
#define XSDT_UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define XSDT_UNDER_TSAN 1
#endif
#endif

// For a function that stores into the program's code (site patching).
// Those stores are read by instruction fetch, which TSan does not see, and
// ordered by the patch protocol's serializations, which it does not model,
// so there is nothing for it to check. And it cannot record them: TSan's
// shadow of a read-only mapping such as .text is one shared read-only page
// (so reads cost no memory), and an instrumented store there faults. The
// function is compiled without instrumentation, its atomics included (gcc:
// no_sanitize_thread; clang's no_sanitize("thread") would keep the atomics,
// disable_sanitizer_instrumentation does not), and is not inlined into
// instrumented code.
#if !defined(XSDT_UNDER_TSAN)
#define XSDT_STORES_TO_CODE
#elif defined(__clang__)
#define XSDT_STORES_TO_CODE __attribute__((disable_sanitizer_instrumentation))
#else
#define XSDT_STORES_TO_CODE __attribute__((no_sanitize_thread))
#endif

#endif // XSDT_RUNTIME_TSAN_H
