provider p { probe a(int, int, int, int, int, int, int, int, int, int, int, int, int); };
