/* LAMP_OFF() takes no argument, as LAMP_ON() does; LAMP_DIM gives the
 * oracle one value to check. */
#include "void.h"

int main(void) {
  oracle_start();
  ORACLE_GENERATED(LAMP_OFF(), lamp, off);
  ORACLE_GENERATED(LAMP_ON(), lamp, on);
  ORACLE_GENERATED(LAMP_DIM(40), lamp, dim, 40);
  oracle_stop();
  return 0;
}
