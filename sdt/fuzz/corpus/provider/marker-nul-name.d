# 7 "a\000b.d"
provider p { probe a int); };
