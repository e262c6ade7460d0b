provider p { probe x(struct { int a; } s) }
/* open