// In progress (issue 4).
