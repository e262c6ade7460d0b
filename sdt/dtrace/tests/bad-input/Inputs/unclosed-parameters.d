provider shop {
  probe sale(int amount;
};
