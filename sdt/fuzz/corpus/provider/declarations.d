/* comment */
// line
#pragma D option quiet
typedef struct conn conn_t;
provider db { probe query(conn_t *c, char buf[16], void (*cb)(int)); };
