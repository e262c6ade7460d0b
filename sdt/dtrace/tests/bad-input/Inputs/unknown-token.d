provider shop {
  probe sale(int) @;
};
