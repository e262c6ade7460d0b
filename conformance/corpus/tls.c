/* Thread-local variables as arguments (_Thread_local and __thread, extern and static, their addresses), probed from the main thread and from threads running at the same time (argv[1] of them, 2 by default). */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <xsdt/usdt.h>

#include "../oracle/oracle.h"

_Thread_local int tls_int = -7;
__thread long long tls_llong = 7000000000LL;
static _Thread_local double tls_double = 2.5;
static __thread unsigned char tls_byte = 200;
__thread short tls_array[4] = {-1, -2, -3, -4};
__thread int *tls_ptr;

/* Each thread sees its own copies: the values and the addresses differ
 * per thread. */
__attribute__((noinline)) void probe_tls(int id) {
  ORACLE_PROBE(corpus, tls_values, tls_int, tls_llong, tls_double, tls_byte);
  ORACLE_PROBE(corpus, tls_addresses, &tls_int, tls_ptr, &tls_array[id & 3]);
  ORACLE_PROBE(corpus, tls_mixed, id, tls_array[id & 3], tls_int + id,
               tls_llong * 2);
}

__attribute__((noinline)) void set_tls(int id) {
  tls_int = id * -100;
  tls_llong = id * -3000000000LL;
  tls_double = id / 4.0;
  tls_byte = (unsigned char)(250 - id);
  tls_array[id & 3] = (short)(id * 1000);
  tls_ptr = &tls_int;
}

static void *worker(void *arg) {
  int id = (int)(intptr_t)arg;
  set_tls(id);
  probe_tls(id);
  return NULL;
}

int main(int argc, char **argv) {
  pthread_t threads[8];
  int n = argc > 1 ? atoi(argv[1]) : 2, i;
  if (n < 0 || n > 8)
    return 3;
  oracle_start();
  /* The main thread's initial values. */
  tls_ptr = &tls_int;
  probe_tls(0);
  for (i = 0; i < n; i++)
    if (pthread_create(&threads[i], NULL, worker, (void *)(intptr_t)(i + 1)))
      return 1;
  for (i = 0; i < n; i++)
    pthread_join(threads[i], NULL);
  /* The threads left the main thread's copies alone. */
  probe_tls(0);
  return tls_int == -7 && tls_byte == 200 ? 0 : 2;
}
