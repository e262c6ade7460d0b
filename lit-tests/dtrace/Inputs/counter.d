/* Probes of every argument count a note allows: 0 to 12. */
provider counter {
	probe a0();
	probe a1(int);
	probe a2(int, int);
	probe a3(int, int, int);
	probe a4(int, int, int, int);
	probe a5(int, int, int, int, int);
	probe a6(int, int, int, int, int, int);
	probe a7(int, int, int, int, int, int, int);
	probe a8(int, int, int, int, int, int, int, int);
	probe a9(int, int, int, int, int, int, int, int, int);
	probe a10(int, int, int, int, int, int, int, int, int, int);
	probe a11(int, int, int, int, int, int, int, int, int, int, int);
	probe a12(int, int, int, int, int, int, int, int, int, int, int, long long);
};
