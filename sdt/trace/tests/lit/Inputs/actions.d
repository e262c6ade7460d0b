BEGIN { printf("start\n"); }
myapp:::request /arg0 < 3/ { printf("%d %s\n", arg0, stringof(arg2)); }
myapp:::request
{
  @paths[stringof(arg2)] = count();
  @sum = sum(arg0);
  @max = max(arg1);
  @min = min(arg1);
  @avg = avg(arg0);
}
myapp:::done { printf("done %d\n", arg0); }
END
{
  printa("%s %@d\n", @paths);
  printa("sum %@d ", @sum);
  printa("max %@d ", @max);
  printa("min %@d ", @min);
  printa("avg %@d\n", @avg);
}
