/*
 * A parcel depot, written the way real provider files are: type
 * declarations for the translated arguments, stability pragmas, comments of
 * both kinds and several providers in one file.
 */

#pragma D option quiet
# A shell-style comment line, as some projects write them.

typedef struct parcel_info {
	int weight;            /* grams */
	const char *label;
} parcel_info_t;

typedef unsigned long depot_id_t;

struct bay;

provider depot {
	// One argument of each common kind.
	probe parcel__in(struct parcel *p, uintptr_t cookie, const char *label) : (parcel_info_t *p, uintptr_t cookie, string label);
	probe parcel__out(int class, int errno)
	probe bay__full(unsigned short bay, long long pending);
};

/* A second provider: its probes keep their own names. */
provider depot_audit {
	probe check(const char *, unsigned char);
	probe tick()
};

#pragma D attributes Evolving/Evolving/Common provider depot provider
#pragma D attributes Private/Private/Unknown provider depot module
#pragma D attributes Private/Private/Unknown provider depot function
#pragma D attributes Evolving/Evolving/Common provider depot name
#pragma D attributes Evolving/Evolving/Common provider depot args
