/* The probes of a small shop: xsdt-dtrace -h makes shop.h from this file,
 * and xsdt-dtrace -G the object that defines the probes' semaphores. */
provider shop {
  probe order__placed(int id, const char *item, unsigned long cents);
  probe order__shipped(int id);
};
