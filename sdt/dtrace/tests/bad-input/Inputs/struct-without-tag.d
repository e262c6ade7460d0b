provider shop {
  probe sale(struct *receipt);
};
