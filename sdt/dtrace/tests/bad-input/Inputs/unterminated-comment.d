provider shop {
  probe sale(int amount); /* a comment never closed
};
