// placeholder: replaced by the Projections implementation
