# 12 "orig.d"
provider p {
#line 40 "other\\.d"
  probe a(void);
  probe b();
}
