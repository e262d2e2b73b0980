// placeholder: replaced by the Simulator implementation
