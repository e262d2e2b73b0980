// placeholder: replaced by the Domain implementation
