print("journal: under construction")
