/* Fires every probe of depot.d once through its generated header, with the
 * value oracle checking each argument against the source's. */
#include "depot.h"
#include <stdint.h>

struct parcel {
  int weight;
};

int main(void) {
  static struct parcel box = {1200};
  static const char label[] = "fragile";
  uintptr_t cookie = (uintptr_t)&box + 8;
  int class_ = 3, errno_ = -2;
  unsigned short bay = 65000;
  long long pending = -5000000000LL;
  unsigned char grade = 200;

  oracle_start();
  ORACLE_GENERATED(DEPOT_PARCEL_IN(&box, cookie, label), depot, parcel__in,
                   &box, cookie, label);
  ORACLE_GENERATED(DEPOT_PARCEL_OUT(class_, errno_), depot, parcel__out, class_,
                   errno_);
  ORACLE_GENERATED(DEPOT_BAY_FULL(bay, pending), depot, bay__full, bay,
                   pending);
  ORACLE_GENERATED(DEPOT_AUDIT_CHECK(label, grade), depot_audit, check, label,
                   grade);
  ORACLE_GENERATED(DEPOT_AUDIT_TICK(), depot_audit, tick);
  oracle_stop();
  return 0;
}
