provider shop {
  probe sale(123);
};
